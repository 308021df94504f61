// PHAST's sweeps on one GPU (docs/tables.md, "On the GPU"): the contraction hierarchy built on
// the cpu, its downward arcs uploaded once (cuda/phast_sweep.hpp), and per batch of sources
// their upward searches on cpu threads (a few hundred vertices each on road graphs) while the
// device sweeps the batch before. A table's rows are gathered at its targets and copied into
// it (phast_table_on_gpu); the metrics' rows are gathered into vertex order on the device and
// reduced there (drivers::cuda_phast, cuda/metrics_reduce.hpp), so only O(n) sums come back.

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <variant>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/types.hpp"
#include "core/backend.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/phast.hpp"
#include "cpu/potentials.hpp"
#include "cpu/upward_search.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_query.hpp"
#include "cuda/metrics_reduce.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/phast_sweep.hpp"
#include "cuda/phast_table.hpp"
#include "cuda/resources.hpp"

namespace apsp::cuda {
namespace {

using hierarchy = cpu::contraction_hierarchy<std::int32_t>;

/// The sweep structure of a whole hierarchy: its positions and downward arcs.
sweep_structure structure_of(const hierarchy& ch) {
  static_assert(sizeof(cpu::ch_arc<std::int32_t>) == 2 * sizeof(std::int32_t),
                "a hierarchy's arc is the sweep's (tail, weight) pair");
  return {ch.n, ch.down_offsets.data(), reinterpret_cast<const std::int32_t*>(ch.down_arcs.data())};
}

/// The upward searches of a batch's sources on cpu threads, each with its own search scratch
/// kept from batch to batch; their seeds in positions (the structure's slots).
class seed_maker {
public:
  seed_maker(const hierarchy& ch, int threads) : ch_(ch), threads_(std::max(1, threads)) {
    searches_.reserve(static_cast<std::size_t>(threads_));
    for (int t = 0; t < threads_; ++t)
      searches_.emplace_back(ch.n, weight_traits<std::int32_t>::infinity);
    found_.resize(static_cast<std::size_t>(threads_));
  }

  /// The seeds of vertices[0 .. count), source k in lane k, into `out`.
  void make(const std::int64_t* vertices, int count, std::vector<sweep_seed>& out) {
    for (auto& f : found_)
      f.clear();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_)
    for (int k = 0; k < count; ++k) {
      const auto t = static_cast<std::size_t>(omp_get_thread_num());
      auto& up = searches_[t];
      up.run(ch_.up_offsets, ch_.up_arcs, ch_.position[static_cast<std::size_t>(vertices[k])]);
      for (const std::int32_t p : up.reached())
        found_[t].push_back({p, k, up.dist(p)});
    }
    out.clear();
    for (const auto& f : found_)
      out.insert(out.end(), f.begin(), f.end());
  }

private:
  const hierarchy& ch_;
  int threads_;
  std::vector<cpu::upward_search<std::int32_t>> searches_;
  std::vector<std::vector<sweep_seed>> found_;
};

/// The batches of `count` sources, `lanes` at a time, seeded by `seeds`: batch b's sweep and
/// enqueue_out(first, rows) are enqueued, then deliver(first, rows) of batch b - 1 runs and
/// batch b + 1's seeds are made on the host while the device works on b.
template <class EnqueueOut, class Deliver>
void run_batches(sweep_executor& ex, const seed_source& seeds, std::int64_t count,
                 EnqueueOut&& enqueue_out, Deliver&& deliver) {
  const int lanes = ex.lanes();
  const auto rows_of = [&](std::int64_t first) {
    return static_cast<int>(std::min<std::int64_t>(lanes, count - first));
  };
  std::vector<sweep_seed> next;
  if (count > 0)
    seeds(0, rows_of(0), next);
  for (std::int64_t first = 0; first < count; first += lanes) {
    ex.enqueue_sweep(next.data(), next.size());
    enqueue_out(first, rows_of(first));
    if (first > 0)
      deliver(first - lanes, lanes);
    if (first + lanes < count)
      seeds(first + lanes, rows_of(first + lanes), next);
  }
  if (count > 0) {
    const std::int64_t last = (count - 1) / lanes * lanes;
    deliver(last, rows_of(last));
  }
}

/// The potentials of `vertices` (empty h: none).
std::vector<std::int32_t> potentials_of(const std::vector<std::int32_t>& h,
                                        const std::int64_t* vertices, std::int64_t count) {
  std::vector<std::int32_t> out;
  if (h.empty())
    return out;
  out.resize(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i)
    out[static_cast<std::size_t>(i)] = h[static_cast<std::size_t>(vertices[i])];
  return out;
}

} // namespace

void sweep_table_on_gpu(const sweep_structure& s, const seed_source& seeds, std::int64_t rows,
                        const std::int32_t* col_slot, const std::int32_t* col_h, std::int64_t cols,
                        const std::int32_t* source_h, const gpu_sweep_config& cfg,
                        std::int32_t* out) {
  nvtx_range range("apsp::cuda::sweep_table");
  if (rows <= 0 || cols <= 0)
    return;
  sweep_executor ex(s, cfg.device, cfg.lanes, cfg.launch_graph);
  ex.set_columns(col_slot, col_h, cols);
  ex.set_source_potentials(source_h, rows);
  const int lanes = ex.lanes();
  const auto block = static_cast<std::size_t>(lanes) * static_cast<std::size_t>(cols);
  device_buffer<std::int32_t> d_rows(block);
  // Two pinned buffers: the host copies one batch into the table while the next one lands.
  pinned_buffer<std::int32_t> h_rows[2] = {pinned_buffer<std::int32_t>(block),
                                           pinned_buffer<std::int32_t>(block)};
  event landed[2];
  const auto which = [lanes](std::int64_t first) { return static_cast<int>((first / lanes) & 1); };
  run_batches(
      ex, seeds, rows,
      [&](std::int64_t first, int count) {
        ex.enqueue_gather(first, count, d_rows.data(), cols);
        const int b = which(first);
        APSP_CUDA_TRY(cudaMemcpyAsync(h_rows[b].data(), d_rows.data(),
                                      static_cast<std::size_t>(count) *
                                          static_cast<std::size_t>(cols) * sizeof(std::int32_t),
                                      cudaMemcpyDeviceToHost, ex.stream()));
        landed[b].record(ex.stream());
      },
      [&](std::int64_t first, int count) {
        const int b = which(first);
        landed[b].synchronize();
        // Row by row on the upward searches' threads: one core copies far slower than the
        // link brings the rows, and the threads are idle until the next batch's searches.
        const auto row_bytes = static_cast<std::size_t>(cols) * sizeof(std::int32_t);
        const std::int32_t* from = h_rows[b].data();
#pragma omp parallel for schedule(static) num_threads(std::max(                                    \
    1, cfg.threads)) if (static_cast <std::size_t>(count) * row_bytes > (std::size_t{1} << 20))
        for (int k = 0; k < count; ++k)
          std::memcpy(out + (first + k) * cols, from + static_cast<std::size_t>(k) * cols,
                      row_bytes);
      });
}

void phast_table_on_gpu(const hierarchy& ch, const std::vector<std::int32_t>& h,
                        const std::int64_t* sources, std::int64_t rows, const std::int64_t* targets,
                        std::int64_t cols, const gpu_sweep_config& cfg, std::int32_t* out) {
  APSP_EXPECTS(ch.complete, internal_error, "GPU sweeps of an incomplete contraction hierarchy");
  const std::int64_t n = ch.n;
  if (targets == nullptr)
    cols = n;
  for (std::int64_t i = 0; i < rows; ++i)
    APSP_EXPECTS(sources[i] >= 0 && sources[i] < n, invalid_argument_error,
                 "source " + std::to_string(sources[i]) + " is not a vertex");
  std::vector<std::int32_t> slots;
  std::vector<std::int32_t> th;
  if (targets != nullptr) {
    slots.resize(static_cast<std::size_t>(cols));
    for (std::int64_t j = 0; j < cols; ++j) {
      APSP_EXPECTS(targets[j] >= 0 && targets[j] < n, invalid_argument_error,
                   "target " + std::to_string(targets[j]) + " is not a vertex");
      slots[static_cast<std::size_t>(j)] = ch.position[static_cast<std::size_t>(targets[j])];
    }
    th = potentials_of(h, targets, cols);
  }
  const std::vector<std::int32_t> sh = potentials_of(h, sources, rows);
  if (rows == 0 || cols == 0)
    return;
  seed_maker up(ch, cfg.threads);
  const seed_source seeds = [&up, sources](std::int64_t first, int count,
                                           std::vector<sweep_seed>& found) {
    up.make(sources + first, count, found);
  };
  // Every vertex as a column: its position and potential.
  const std::int32_t* col_slot = targets != nullptr ? slots.data() : ch.position.data();
  const std::int32_t* col_h =
      targets != nullptr ? (th.empty() ? nullptr : th.data()) : (h.empty() ? nullptr : h.data());
  sweep_table_on_gpu(structure_of(ch), seeds, rows, col_slot, col_h, cols,
                     sh.empty() ? nullptr : sh.data(), cfg, out);
}

} // namespace apsp::cuda

namespace apsp::detail {
namespace {

/// Rows a metrics reduction takes when the plan says none: as many as fill the budget below.
constexpr std::uint64_t reduction_rows_bytes = std::uint64_t{1} << 30;

class cuda_phast_backend final : public backend {
public:
  backend_kind kind() const noexcept override { return backend_kind::cuda; }

  backend_status status() const override { return cuda_backend_status(", PHAST sweeps"); }

  plan make_plan(std::int64_t n, const solve_options& o) const override {
    // The metrics' planner (core/gpu_sweep_plan.cpp) plans these sweeps from the graph; without
    // its arcs only the driver is known.
    plan p;
    p.type = o.type;
    p.n = n;
    p.algorithm = algorithm_kind::johnson;
    p.run = drivers::cuda_phast{chosen_device(o), cuda::default_sweep_lanes, 1,
                                cuda::default_sweep_lanes};
    const auto [count, device] = find_plan_devices(p, o);
    if (count > 0)
      p.device = describe_device(device) + ", PHAST sweeps";
    return p;
  }

  bool builds_initial_matrix(const plan& p) const override { return p.fits; }

  bool reduces_where_solved(const plan& p) const override {
    return p.fits && p.type == dtype::int32 && std::holds_alternative<drivers::cuda_phast>(p.run);
  }

  void run(any_matrix&, via_matrix*, const plan& p, run_context& ctx) override {
    std::string why;
    APSP_EXPECTS(device_count(&why) > 0, backend_unavailable_error,
                 "back end 'cuda' is unavailable: " + why);
    const auto* how = std::get_if<drivers::cuda_phast>(&p.run);
    APSP_EXPECTS(how != nullptr, internal_error,
                 "the GPU sweeps were given a plan for " + to_string(p.run));
    APSP_EXPECTS(p.type == dtype::int32, invalid_argument_error,
                 "the GPU sweeps take int32 only; use the cpu back end");
    matrix_reduction* const reduction = ctx.reduction();
    const graph* edges = ctx.initial_edges();
    APSP_EXPECTS(reduction != nullptr && edges != nullptr, invalid_argument_error,
                 "the GPU sweeps make rows, not a matrix: apsp::compute_metrics runs them");
    reduce_rows(*edges, *how, *reduction, ctx);
  }

private:
  static void reduce_rows(const graph& edges, const drivers::cuda_phast& how,
                          matrix_reduction& reduction, run_context& ctx) {
    cuda::nvtx_range range("apsp::cuda::phast_metrics");
    auto g = cpu::csr_from_edges<std::int32_t>(edges);
    std::vector<std::int32_t> h;
    if (ctx.negative_weights() || g.negative_loop >= 0) {
      ctx.stage("Bellman-Ford potentials (negative weights)");
      h = cpu::johnson_potentials(g);
      cpu::reweight(g, h);
    }
    cpu::contraction_limits limits;
    limits.threads = how.threads;
    ctx.stage("building the contraction hierarchy");
    const auto ch = cpu::phast_hierarchy<std::int32_t>(g, limits);
    APSP_EXPECTS(ch.complete, invalid_argument_error,
                 "the contraction hierarchy outgrew its budget (the graph has no small "
                 "separators), so the GPU sweeps cannot run; use --backend cpu");
    g = {};
    const std::int64_t n = ch.n;
    if (n == 0)
      return;
    ctx.stage("sweeps on the GPU");
    cuda::sweep_executor ex(cuda::structure_of(ch), how.device, how.lanes,
                            ctx.tuning().cuda_phast_graph);
    ex.set_columns(ch.position.data(), h.empty() ? nullptr : h.data(), n);
    ex.set_source_potentials(h.empty() ? nullptr : h.data(), n);
    cuda::seed_maker up(ch, how.threads);
    const int lanes = ex.lanes();
    // Rows in vertex order, whole batches of them, reduced together.
    std::int64_t held =
        how.rows_per_reduction > 0
            ? how.rows_per_reduction
            : static_cast<std::int64_t>(reduction_rows_bytes / (static_cast<std::uint64_t>(n) * 4));
    held = std::max<std::int64_t>(lanes, held / lanes * lanes);
    held = std::min<std::int64_t>(held, (n + lanes - 1) / lanes * lanes);
    cuda::device_buffer<std::int32_t> d_rows(static_cast<std::size_t>(held) *
                                             static_cast<std::size_t>(n));
    const metrics_request request = reduction.request();
    std::vector<std::int64_t> vertices(static_cast<std::size_t>(n));
    for (std::int64_t v = 0; v < n; ++v)
      vertices[static_cast<std::size_t>(v)] = v;
    const cuda::seed_source seeds = [&up, &vertices](std::int64_t first, int count,
                                                     std::vector<cuda::sweep_seed>& found) {
      up.make(vertices.data() + first, count, found);
    };
    const std::int64_t batches = (n + lanes - 1) / lanes;
    ctx.count_sources(n, lanes);
    std::int64_t block_first = 0; // the first row d_rows holds
    cuda::run_batches(
        ex, seeds, n,
        [&](std::int64_t first, int count) {
          ex.enqueue_gather(first, count, d_rows.data() + (first - block_first) * n, n);
          const std::int64_t end = first + count;
          if (end - block_first < held && end < n)
            return;
          // The held rows reduced (the call waits for them) and handed on.
          reduction.take(cuda::reduce_for_metrics<std::int32_t>(d_rows.data(), n, n, column_share{},
                                                                block_first, end - block_first,
                                                                request, ex.stream()));
          block_first = end;
        },
        [&](std::int64_t first, int) { ctx.round_done(first / lanes + 1, batches); });
  }
};

} // namespace

std::unique_ptr<backend> make_cuda_phast_backend() {
  return std::make_unique<cuda_phast_backend>();
}

} // namespace apsp::detail
