// sweep_executor (cuda/phast_sweep.hpp): a sweep structure regrouped into levels and uploaded
// once; batches of sources swept and gathered on the executor's stream.

#include "cuda/phast_sweep.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "apsp/error.hpp"
#include "apsp/types.hpp"
#include "cuda/resources.hpp"

namespace apsp::cuda {
namespace {

/// Work captured once from a stream as a CUDA graph, then replayed on it: the levels' many
/// launches, most of them small near the top of a hierarchy, without a launch's gap each.
class captured_graph {
public:
  captured_graph() = default;
  ~captured_graph() {
    if (exec_ != nullptr)
      APSP_CUDA_TRY_NOTHROW(cudaGraphExecDestroy(exec_));
    if (graph_ != nullptr)
      APSP_CUDA_TRY_NOTHROW(cudaGraphDestroy(graph_));
  }
  captured_graph(const captured_graph&) = delete;
  captured_graph& operator=(const captured_graph&) = delete;

  /// Captures what `enqueue` puts on the idle stream `s`.
  template <class Enqueue> void capture(cudaStream_t s, Enqueue&& enqueue) {
    APSP_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    try {
      enqueue();
    } catch (...) {
      cudaGraph_t partial = nullptr;
      if (cudaStreamEndCapture(s, &partial) == cudaSuccess && partial != nullptr)
        APSP_CUDA_TRY_NOTHROW(cudaGraphDestroy(partial));
      throw;
    }
    APSP_CUDA_TRY(cudaStreamEndCapture(s, &graph_));
    APSP_CUDA_TRY(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  [[nodiscard]] bool ready() const noexcept { return exec_ != nullptr; }
  void launch(cudaStream_t s) const { APSP_CUDA_TRY(cudaGraphLaunch(exec_, s)); }

private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

} // namespace

sweep_levels levels_of(const sweep_structure& s) {
  const auto n = static_cast<std::size_t>(s.n);
  std::vector<std::int32_t> level(n, 0);
  std::int32_t top = -1;
  for (std::size_t p = 0; p < n; ++p) {
    std::int32_t l = 0;
    for (std::int64_t a = s.in_offsets[p]; a < s.in_offsets[p + 1]; ++a) {
      const std::int32_t tail = s.in_arcs[2 * a];
      APSP_EXPECTS(tail >= 0 && static_cast<std::size_t>(tail) < p, invalid_argument_error,
                   "a sweep structure's arc into slot " + std::to_string(p) +
                       " comes from slot " + std::to_string(tail) + ", not an earlier one");
      l = std::max(l, level[static_cast<std::size_t>(tail)] + 1);
    }
    level[p] = l;
    top = std::max(top, l);
  }
  sweep_levels out;
  const auto levels = static_cast<std::size_t>(top + 1);
  out.offsets.assign(levels + 1, 0);
  for (const std::int32_t l : level)
    ++out.offsets[static_cast<std::size_t>(l) + 1];
  for (std::size_t l = 0; l < levels; ++l)
    out.offsets[l + 1] += out.offsets[l];
  // A counting sort by level, stable: within a level the structure's own order (its locality).
  out.order.resize(n);
  out.slot_of.resize(n);
  std::vector<std::int64_t> next(out.offsets.begin(), out.offsets.end() - 1);
  for (std::size_t p = 0; p < n; ++p) {
    const auto i = next[static_cast<std::size_t>(level[p])]++;
    out.order[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(p);
    out.slot_of[p] = static_cast<std::int32_t>(i);
  }
  return out;
}

struct sweep_executor::state {
  device_guard guard;
  int lanes;
  int lane_shift;
  std::int64_t n;
  sweep_levels levels;
  device_buffer<std::int64_t> d_offsets;
  device_buffer<std::int32_t> d_arcs;
  device_buffer<std::int32_t> d_dist;
  device_buffer<std::int32_t> d_col_slot;
  device_buffer<std::int32_t> d_col_h;
  std::int64_t cols = 0;
  device_buffer<std::int32_t> d_source_h;
  device_buffer<sweep_seed> d_seeds;
  // Seeds staged in pinned memory, two batches' worth: one may still be copying while the host
  // fills the other.
  pinned_buffer<sweep_seed> h_seeds[2];
  event staged[2];
  int next = 0;
  captured_graph level_launches; // ready() when the levels replay as a graph
  // Last, so that it is destroyed first: its destructor waits for the work that uses the
  // buffers above.
  cuda::stream s;

  state(int device, int lanes_) : guard(device), lanes(lanes_), lane_shift(std::countr_zero(
                                                                    static_cast<unsigned>(lanes_))),
                                  n(0) {}
};

sweep_executor::sweep_executor(const sweep_structure& s, int device, int lanes,
                               bool launch_graph) {
  APSP_EXPECTS(lanes >= 32 && std::has_single_bit(static_cast<unsigned>(lanes)),
               invalid_argument_error,
               "the GPU sweep's lanes must be a power of two >= 32, got " + std::to_string(lanes));
  APSP_EXPECTS(s.n >= 0 && s.n < (std::int64_t{1} << 31), invalid_argument_error,
               "a sweep structure has at most 2^31 - 1 slots");
  st_ = std::make_unique<state>(device, lanes);
  state& t = *st_;
  t.n = s.n;
  t.levels = levels_of(s);
  const auto n = static_cast<std::size_t>(s.n);
  // The arcs by executor slot, tails renumbered.
  std::vector<std::int64_t> offsets(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto p = static_cast<std::size_t>(t.levels.order[i]);
    offsets[i + 1] = offsets[i] + (s.in_offsets[p + 1] - s.in_offsets[p]);
  }
  std::vector<std::int32_t> arcs(static_cast<std::size_t>(2 * offsets[n]));
  for (std::size_t i = 0; i < n; ++i) {
    const auto p = static_cast<std::size_t>(t.levels.order[i]);
    auto out = static_cast<std::size_t>(2 * offsets[i]);
    for (std::int64_t a = s.in_offsets[p]; a < s.in_offsets[p + 1]; ++a) {
      arcs[out++] = t.levels.slot_of[static_cast<std::size_t>(s.in_arcs[2 * a])];
      arcs[out++] = s.in_arcs[2 * a + 1];
    }
  }
  t.d_offsets = device_buffer<std::int64_t>(n + 1);
  t.d_arcs = device_buffer<std::int32_t>(arcs.size());
  t.d_dist = device_buffer<std::int32_t>(n * static_cast<std::size_t>(lanes));
  APSP_CUDA_TRY(cudaMemcpyAsync(t.d_offsets.data(), offsets.data(), offsets.size() * 8,
                                cudaMemcpyHostToDevice, t.s.get()));
  if (!arcs.empty())
    APSP_CUDA_TRY(cudaMemcpyAsync(t.d_arcs.data(), arcs.data(), arcs.size() * 4,
                                  cudaMemcpyHostToDevice, t.s.get()));
  t.s.synchronize(); // the host vectors go out of scope
  if (launch_graph && !sync_after_launch() && levels() > 0)
    t.level_launches.capture(t.s.get(), [&t] { enqueue_levels(t); });
}

sweep_executor::~sweep_executor() = default;

int sweep_executor::lanes() const noexcept { return st_->lanes; }
std::int64_t sweep_executor::slots() const noexcept { return st_->n; }
std::int64_t sweep_executor::levels() const noexcept {
  return static_cast<std::int64_t>(st_->levels.offsets.size()) - 1;
}
cudaStream_t sweep_executor::stream() const noexcept { return st_->s.get(); }
bool sweep_executor::launch_graph() const noexcept { return st_->level_launches.ready(); }

void sweep_executor::enqueue_levels(const state& t) {
  const auto& off = t.levels.offsets;
  for (std::size_t l = 0; l + 1 < off.size(); ++l)
    enqueue_sweep_level(t.d_dist.data(), t.lane_shift, off[l], off[l + 1], t.d_offsets.data(),
                        t.d_arcs.data(), t.s.get());
}

void sweep_executor::set_columns(const std::int32_t* slots, const std::int32_t* h,
                                 std::int64_t cols) {
  state& t = *st_;
  const auto c = static_cast<std::size_t>(cols);
  std::vector<std::int32_t> mapped(c);
  for (std::size_t j = 0; j < c; ++j) {
    APSP_EXPECTS(slots[j] >= 0 && slots[j] < t.n, invalid_argument_error,
                 "a gathered column's slot " + std::to_string(slots[j]) + " is not in the sweep");
    mapped[j] = t.levels.slot_of[static_cast<std::size_t>(slots[j])];
  }
  t.s.synchronize(); // earlier gathers may read the old columns
  t.d_col_slot = device_buffer<std::int32_t>(c);
  t.d_col_h = device_buffer<std::int32_t>(h != nullptr ? c : 0);
  t.cols = cols;
  if (c == 0)
    return;
  APSP_CUDA_TRY(cudaMemcpyAsync(t.d_col_slot.data(), mapped.data(), c * 4, cudaMemcpyHostToDevice,
                                t.s.get()));
  if (h != nullptr)
    APSP_CUDA_TRY(
        cudaMemcpyAsync(t.d_col_h.data(), h, c * 4, cudaMemcpyHostToDevice, t.s.get()));
  t.s.synchronize(); // `mapped` goes out of scope
}

void sweep_executor::set_source_potentials(const std::int32_t* h, std::int64_t sources) {
  state& t = *st_;
  t.s.synchronize();
  t.d_source_h = device_buffer<std::int32_t>(h != nullptr ? static_cast<std::size_t>(sources) : 0);
  if (h != nullptr && sources > 0) {
    APSP_CUDA_TRY(cudaMemcpyAsync(t.d_source_h.data(), h, static_cast<std::size_t>(sources) * 4,
                                  cudaMemcpyHostToDevice, t.s.get()));
    t.s.synchronize();
  }
}

void sweep_executor::enqueue_sweep(const sweep_seed* seeds, std::size_t count) {
  state& t = *st_;
  const int b = t.next;
  t.next ^= 1;
  // The staging buffer's previous copy (two batches ago) has finished once its event has.
  t.staged[b].synchronize();
  if (t.h_seeds[b].size() < count)
    t.h_seeds[b] = pinned_buffer<sweep_seed>(std::max<std::size_t>(count, count / 2 * 3));
  sweep_seed* staged = t.h_seeds[b].data();
  for (std::size_t i = 0; i < count; ++i) {
    const sweep_seed& x = seeds[i];
    APSP_EXPECTS(x.slot >= 0 && x.slot < t.n && x.lane >= 0 && x.lane < t.lanes, internal_error,
                 "a sweep seed outside the structure or the lanes");
    staged[i] = {t.levels.slot_of[static_cast<std::size_t>(x.slot)], x.lane, x.dist};
  }
  if (t.d_seeds.size() < count) {
    t.s.synchronize(); // the old buffer may still be read by the last batch's seed kernel
    t.d_seeds = device_buffer<sweep_seed>(std::max<std::size_t>(count, count / 2 * 3));
  }
  if (count > 0)
    APSP_CUDA_TRY(cudaMemcpyAsync(t.d_seeds.data(), staged, count * sizeof(sweep_seed),
                                  cudaMemcpyHostToDevice, t.s.get()));
  t.staged[b].record(t.s.get());
  const std::int32_t cap = weight_traits<std::int32_t>::infinity;
  enqueue_sweep_fill(t.d_dist.data(), t.n << t.lane_shift, cap, t.s.get());
  enqueue_sweep_seeds(t.d_dist.data(), t.lane_shift, t.d_seeds.data(),
                      static_cast<std::int64_t>(count), t.s.get());
  if (t.level_launches.ready())
    t.level_launches.launch(t.s.get());
  else
    enqueue_levels(t);
}

void sweep_executor::enqueue_gather(std::int64_t first, int count, std::int32_t* d_out,
                                    std::int64_t ld) {
  state& t = *st_;
  APSP_EXPECTS(count >= 0 && count <= t.lanes, internal_error, "a gather of more than the lanes");
  const std::int32_t* lane_h = nullptr;
  if (t.d_source_h.size() > 0) {
    APSP_EXPECTS(first >= 0 && first + count <= static_cast<std::int64_t>(t.d_source_h.size()),
                 internal_error, "a gather's sources beyond their potentials");
    lane_h = t.d_source_h.data() + first;
  }
  enqueue_sweep_gather(t.d_dist.data(), t.lane_shift, count, t.d_col_slot.data(),
                       t.d_col_h.size() > 0 ? t.d_col_h.data() : nullptr, lane_h, t.cols,
                       weight_traits<std::int32_t>::infinity, d_out, ld, t.s.get());
}

} // namespace apsp::cuda
