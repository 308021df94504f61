// The supernodal Floyd-Warshall on one GPU, in core (docs/sparse.md, "Supernodal Floyd-Warshall
// on the GPU"): the cpu's elimination analysis (a METIS nested-dissection order and its
// supernodes), the matrix built on the device from the edges in elimination labels, the steps
// level by level over the elimination tree (the independent steps of a level in one launch of
// each kernel, kernels/supernodal_steps.cuh), and the result gathered back into vertex order on
// its way to the host.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/algorithm_choice.hpp"
#include "core/backend.hpp"
#include "core/host_memory.hpp"
#include "cpu/elimination.hpp"
#include "cpu/supernodal_backend.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_query.hpp"
#include "cuda/initial_matrix.hpp"
#include "cuda/metrics_reduce.hpp"
#include "cuda/multi_gpu.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/out_of_core.hpp"
#include "cuda/resources.hpp"
#include "cuda/supernodal_kernels.hpp"
#include "cuda/supernodal_rows.hpp"
#include "cuda/supernodal_schedule.hpp"
#include "cuda/transfer.hpp"

namespace apsp::detail {
namespace {

/// Bytes of the device buffer through which the result is gathered into vertex order.
constexpr std::uint64_t gather_bytes = std::uint64_t{256} << 20;

template <class T>
void solve_supernodal_on_device(dense_matrix<T>& h_d, via_matrix* h_via, run_context& ctx,
                                int device, std::shared_ptr<const cpu::elimination_plan> ep) {
  const std::int64_t n = ctx.n();
  const graph* edges = ctx.initial_edges();
  cuda::nvtx_range range("apsp::cuda::supernodal");
  const auto start = std::chrono::steady_clock::now();
  const auto since = [start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (!ep || ep->n != n) {
    std::vector<std::int32_t> heads, tails;
    if (edges != nullptr) {
      heads = edges->sources();
      tails = edges->targets();
    } else {
      matrix_arcs(h_d, heads, tails); // solve_dense: from the filled host matrix
    }
    ep = std::make_shared<const cpu::elimination_plan>(
        cpu::plan_elimination(n, heads, tails, supernodal_fill_limit(n)));
  }
  expect_supernodal_pays(*ep);
  const double t_analysis = since();
  const bool paths = h_via != nullptr;
  const std::vector<int> heights = cuda::step_heights(*ep);
  const cuda::sn_schedule schedule = cuda::schedule_steps(
      *ep, heights, cuda::all_steps(*ep),
      {.disjoint_ancestors = paths, .fuse_slices = !paths && std::is_same_v<T, std::int32_t>});

  // The host matrices are faulted in on other threads from the start, beside the steps, so the
  // download copies at memory speed (as the dense engine's in-core solve does).
  matrix_reduction* const reduction = ctx.reduction(); // metrics: h_d is unset then
  std::jthread prefault = cuda::prefault_in_background(
      h_d, h_via, edges != nullptr && reduction == nullptr && cuda::prefault_enabled());
  cuda::device_guard guard(device);
  cuda::stream s;
  const std::int64_t ld = n;
  const auto cells = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  cuda::device_buffer<T> d_d(cells);
  cuda::device_buffer<std::int32_t> d_via(paths ? cells : 0);
  const auto upload = [&s](const auto& v) { return cuda::upload_vector(v, s.get()); };
  const auto d_pivots = upload(schedule.pivots);
  const auto d_ancestors = upload(ep->ancestors);
  const auto d_order = upload(ep->order);
  const auto d_label = upload(ep->label);
  const auto d_tasks = upload(schedule.tasks);
  const auto d_row_lists = upload(schedule.row_lists);
  // Row l of the matrix (and of the via matrix) at l * n: the kernels reach rows by table.
  cuda::device_buffer<T*> d_rows(static_cast<std::size_t>(n));
  cuda::enqueue_sn_row_table<T>(d_rows.data(), d_d.data(), ld, n, s.get());
  cuda::device_buffer<std::int32_t*> d_via_rows(paths ? static_cast<std::size_t>(n) : 0);
  if (paths)
    cuda::enqueue_sn_row_table<std::int32_t>(d_via_rows.data(), d_via.data(), ld, n, s.get());

  // The initial matrix in elimination labels: from the edges (relabelled here), or from the
  // host matrix (solve_dense) scattered row chunk by row chunk.
  cuda::enqueue_init_matrix<T>(d_d.data(), n, ld, weight_traits<T>::infinity, s.get());
  const std::int64_t chunk_rows = std::max<std::int64_t>(
      1, std::min<std::int64_t>(n, static_cast<std::int64_t>(gather_bytes / (n * sizeof(T)))));
  if (edges != nullptr) {
    const std::int64_t m = edges->num_edges();
    std::vector<std::int32_t> src(static_cast<std::size_t>(m)), dst(static_cast<std::size_t>(m));
    for (std::int64_t e = 0; e < m; ++e) {
      src[static_cast<std::size_t>(e)] =
          ep->label[static_cast<std::size_t>(edges->sources()[static_cast<std::size_t>(e)])];
      dst[static_cast<std::size_t>(e)] =
          ep->label[static_cast<std::size_t>(edges->targets()[static_cast<std::size_t>(e)])];
    }
    cuda::scatter_host_edges<T, double>(src.data(), dst.data(), edges->weights().data(), m,
                                        d_d.data(), ld, s.get());
  } else {
    cuda::device_buffer<T> chunk(static_cast<std::size_t>(chunk_rows * n));
    for (std::int64_t row0 = 0; row0 < n; row0 += chunk_rows) {
      const std::int64_t rows = std::min(chunk_rows, n - row0);
      cuda::upload_rows(h_d.row(row0), chunk.data(), sizeof(T), rows, n, n, s.get());
      cuda::enqueue_sn_scatter_rows<T>(d_rows.data(), chunk.data(), d_label.data() + row0, rows,
                                       d_label.data(), n, s.get());
    }
  }
  if (paths)
    APSP_CUDA_TRY(cudaMemsetAsync(d_via.data(), 0xff, cells * sizeof(std::int32_t), s.get()));
  cuda::configure_sn_kernels<T>(paths);
  s.synchronize();
  const double t_built = since();
  // The steps, level by level; progress (and a cancel) after each level. Verbose: each level
  // timed by events.
  const auto levels = static_cast<std::int64_t>(schedule.level_end.size());
  const bool verbose = ctx.tuning().supernodal_verbose || ctx.tuning().cuda_verbose;
  std::deque<cuda::event> marks; // events neither copy nor move: level ends, then 3 a launch
  if (verbose) {
    for (std::size_t l = 0; l <= schedule.level_end.size() + 3 * schedule.launches.size(); ++l)
      marks.emplace_back(cudaEventDefault);
    marks[0].record(s.get());
  }
  const auto launch_mark = [&](std::size_t k, int which) -> cuda::event& {
    return marks[schedule.level_end.size() + 1 + 3 * k + static_cast<std::size_t>(which)];
  };
  std::size_t next = 0;
  for (std::int64_t level = 0; level < levels; ++level) {
    for (; next < schedule.level_end[static_cast<std::size_t>(level)]; ++next) {
      const auto& l = schedule.launches[next];
      cuda::sn_launch<T> g;
      g.rows = d_rows.data();
      g.pivot_rows = d_rows.data();
      g.via_rows = paths ? d_via_rows.data() : nullptr;
      g.tasks = d_tasks.data() + l.first;
      g.count = l.count;
      g.widest = l.widest;
      g.whole = l.whole;
      g.skip_outer = l.skip_outer;
      g.outer_only = l.outer_only;
      g.row_lists = d_row_lists.data();
      g.panel_blocks = l.panel_blocks;
      g.outer_blocks = l.outer_blocks;
      g.pivots = d_pivots.data();
      g.ancestors = d_ancestors.data();
      g.order = d_order.data();
      g.clamp = ctx.negative_weights();
      g.shared = l.count > 1;
      if (verbose) {
        launch_mark(next, 0).record(s.get());
        g.after_close = launch_mark(next, 1).get();
        g.after_panels = launch_mark(next, 2).get();
      }
      cuda::enqueue_sn_launch<T>(g, s.get());
    }
    if (verbose)
      marks[static_cast<std::size_t>(level) + 1].record(s.get());
    if (ctx.options().progress) {
      s.synchronize();
      ctx.round_done(level + 1, levels);
    }
  }
  // The download's page-locked buffers, made on a thread while the steps run: started once
  // every launch is enqueued, as page-locking holds the driver and would stall the enqueues.
  const std::size_t row_bytes = static_cast<std::size_t>(n) * sizeof(T);
  std::optional<cuda::staging_buffers> staging;
  std::jthread pin([&staging, device, bytes = cells * sizeof(T), row_bytes, reduction] {
    try {
      if (reduction == nullptr && cudaSetDevice(device) == cudaSuccess)
        staging.emplace(bytes, row_bytes);
    } catch (...) {
      staging.reset();
    }
  });

  s.synchronize();
  const double t_steps = since();

  pin.join();
  prefault.join();
  const double t_joined = since();
  // Rows back in vertex order through a device buffer: the whole matrix at once where the
  // device has room for a second one, else a chunk of rows at a time.
  {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    APSP_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::int64_t rows_at_once =
        free_bytes > cells * sizeof(T) + cuda::device_reserve_bytes ? n : chunk_rows;
    cuda::device_buffer<T> chunk(static_cast<std::size_t>(rows_at_once * n));
    const cuda::staging_buffers* st = staging ? &*staging : nullptr;
    for (std::int64_t row0 = 0; row0 < n; row0 += rows_at_once) {
      const std::int64_t rows = std::min(rows_at_once, n - row0);
      cuda::enqueue_sn_gather_rows<T>(chunk.data(), d_rows.data(), d_label.data() + row0, rows,
                                      d_label.data(), n, s.get());
      if (reduction != nullptr) {
        // The metrics: the rows' and columns' sums, in vertex order, instead of the matrix.
        reduction->take(cuda::reduce_for_metrics(chunk.data(), n, n, {}, row0, rows,
                                                 reduction->request(), s.get()));
        continue;
      }
      cuda::download_rows(chunk.data(), h_d.row(row0), sizeof(T), rows, n, n, s.get(), st);
      if (paths) {
        auto* v = reinterpret_cast<std::int32_t*>(chunk.data());
        cuda::enqueue_sn_gather_rows<std::int32_t>(v, d_via_rows.data(), d_label.data() + row0,
                                                   rows, d_label.data(), n, s.get());
        cuda::download_rows(v, h_via->data() + row0 * n, sizeof(std::int32_t), rows, n, n, s.get(),
                            st);
      }
    }
  }
  if (verbose) {
    // Where the steps' time goes: per level, its launches, tasks, counted updates and rate.
    std::size_t first = 0;
    for (std::int64_t l = 0; l < levels; ++l) {
      const std::size_t end = schedule.level_end[static_cast<std::size_t>(l)];
      std::int64_t tasks = 0;
      double updates = 0;
      double close_ms = 0;
      double panels_ms = 0;
      for (std::size_t k = first; k < end; ++k) {
        tasks += schedule.launches[k].count;
        updates += schedule.launches[k].updates;
        close_ms += launch_mark(k, 1).ms_since(launch_mark(k, 0));
        panels_ms += launch_mark(k, 2).ms_since(launch_mark(k, 1));
      }
      const float ms =
          marks[static_cast<std::size_t>(l) + 1].ms_since(marks[static_cast<std::size_t>(l)]);
      std::fprintf(stderr,
                   "apsp cuda supernodal level %lld: %zu launches, %lld tasks, %.3e updates, "
                   "%.3f ms (close %.3f, panels %.3f), %.3e updates/s\n",
                   static_cast<long long>(l), end - first, static_cast<long long>(tasks), updates,
                   ms, close_ms, panels_ms, ms > 0 ? updates / (ms * 1e-3) : 0.0);
      first = end;
    }
    std::fprintf(stderr,
                 "apsp cuda supernodal: %lld steps, %lld levels, %lld launches, %.3e updates: "
                 "analysis (at planning) %.3f s, matrix built %.3f s, steps %.3f s, prefault and "
                 "staging joined %.3f s, "
                 "download %.3f s\n",
                 static_cast<long long>(ep->steps.size()), static_cast<long long>(levels),
                 static_cast<long long>(schedule.launches.size()), ep->updates, ep->seconds,
                 t_built - t_analysis, t_steps - t_built, t_joined - t_steps, since() - t_joined);
  }
}

class cuda_supernodal_backend final : public backend {
public:
  explicit cuda_supernodal_backend(std::shared_ptr<const cpu::elimination_plan> ep)
      : plan_(std::move(ep)) {}

  backend_kind kind() const noexcept override { return backend_kind::cuda; }

  backend_status status() const override {
    return cuda_backend_status(", supernodal Floyd-Warshall");
  }

  plan make_plan(std::int64_t n, const solve_options& o) const override {
    APSP_EXPECTS(o.type == dtype::int32 || o.type == dtype::float32, invalid_argument_error,
                 "the cuda back end solves int32 and float32 only (asked for " +
                     std::string(to_string(o.type)) + "); use the cpu back end");
    APSP_EXPECTS(n < (std::int64_t{1} << 31), invalid_argument_error,
                 "the supernodal solver handles at most 2^31 - 1 vertices");
    const auto* ep = plan_ && plan_->n == n ? plan_.get() : nullptr;
    plan p;
    p.algorithm = algorithm_kind::supernodal;
    p.type = o.type;
    p.n = n;
    p.paths = o.paths;
    p.block = cuda::sn_slice_pivots;
    if (ep != nullptr) {
      const auto h = cuda::step_heights(*ep);
      p.rounds = h.empty() ? 0 : *std::max_element(h.begin(), h.end()) + 1;
    }
    const auto cells = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n);
    const std::uint64_t value_bytes = size_of(o.type);
    const std::uint64_t analysis =
        static_cast<std::uint64_t>(n) * 16 +
        (ep != nullptr ? ep->ancestors.size() * sizeof(std::int32_t) : 0);
    p.device_bytes = n == 0 ? 0
                            : cells * (value_bytes + (o.paths ? 4 : 0)) +
                                  std::min<std::uint64_t>(gather_bytes, cells * value_bytes) +
                                  analysis;
    // The analysis, the relabelled edges and the pinned staging buffers.
    p.working_host_bytes = n == 0 ? 0 : analysis + 2 * cuda::staging_bytes;

    p.run = drivers::cuda_supernodal{chosen_device(o), {}, ep != nullptr ? plan_ : nullptr};
    const auto [count, device] = find_plan_devices(p, o);
    if (count == 0)
      return p;
    p.device =
        describe_device(device) + ", supernodal Floyd-Warshall (" +
        (ep != nullptr ? ep->order_name + ", " + std::to_string(ep->steps.size()) + " steps, " +
                             std::to_string(static_cast<long long>(ep->updates)) + " updates, " +
                             std::to_string(p.rounds) + " levels"
                       : std::string(cpu::have_metis() ? "METIS order"
                                                       : "natural order: built without "
                                                         "METIS")) +
        ")";
    const std::uint64_t usable = usable_device_bytes(device, o);
    note_gpu_started();
    // Several devices, or a matrix larger than the device (or a test forcing it): by rows.
    const std::vector<int> devices = cuda::resolve_devices(o, count);
    if (devices.size() > 1 || p.device_bytes > usable || cuda::forced_out_of_core_bytes() != 0) {
      plan_by_rows(p, o, devices, ep, n);
      return p;
    }
    return p;
  }

  bool builds_initial_matrix(const plan& p) const override { return p.fits && p.n > 0; }

  bool reduces_where_solved(const plan& p) const override {
    const auto* how = std::get_if<drivers::cuda_supernodal>(&p.run);
    return p.fits && p.n > 0 && !p.paths && !p.checkpointed && how != nullptr &&
           how->devices.empty();
  }

  void run(any_matrix& d, via_matrix* via, const plan& p, run_context& ctx) override {
    std::string why;
    APSP_EXPECTS(device_count(&why) > 0, backend_unavailable_error,
                 "back end 'cuda' is unavailable: " + why);
    APSP_EXPECTS(p.fits, out_of_memory_error, "the solve does not fit: " + p.reason);
    APSP_EXPECTS(ctx.reduction() == nullptr || reduces_where_solved(p), internal_error,
                 "the cuda supernodal solver reduces in place only plans without paths");
    const auto* how = std::get_if<drivers::cuda_supernodal>(&p.run);
    APSP_EXPECTS(how != nullptr, internal_error,
                 "the cuda supernodal solver was given a plan for " + to_string(p.run));
    std::visit(
        [&](auto& m) {
          using T = typename std::decay_t<decltype(m)>::value_type;
          if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, float>) {
            if (ctx.n() == 0)
              return;
            if (!how->devices.empty()) {
              auto ep = how->analysis ? how->analysis : plan_;
              if (!ep || ep->n != ctx.n())
                ep = analysis_of(m, ctx);
              const cuda::sn_row_split split =
                  split_for(*ep, how->devices, ctx.options(), p.type, p.paths);
              APSP_EXPECTS(split.fits(), out_of_memory_error,
                           "the supernodal solve of " + std::to_string(ctx.n()) +
                               " vertices does not fit on the devices even by rows: the pivot "
                               "strip of its top separators is too large (use --backend cpu)");
              expect_supernodal_pays(*ep);
              solve_supernodal_by_rows(m, via, ctx, how->devices, *ep, split);
              return;
            }
            solve_supernodal_on_device(m, via, ctx, how->device,
                                       how->analysis ? how->analysis : plan_);
          } else {
            throw invalid_argument_error(
                "the cuda back end solves int32 and float32 only; use the cpu back end");
          }
        },
        d);
  }

private:
  /// The bytes each of `devices` may use: the least of them, shared by a device listed more
  /// than once (APSP_CUDA_FORCE_MULTI_GPU).
  static std::uint64_t usable_per_device(const std::vector<int>& devices, const solve_options& o) {
    std::uint64_t least = UINT64_MAX;
    for (const int d : devices) {
      const auto repeats =
          static_cast<std::uint64_t>(std::count(devices.begin(), devices.end(), d));
      least = std::min(least, usable_device_bytes(d, o) / repeats);
    }
    return least;
  }

  static cuda::sn_row_split split_for(const cpu::elimination_plan& ep,
                                      const std::vector<int>& devices, const solve_options& o,
                                      dtype type, bool paths) {
    const std::uint64_t analysis = static_cast<std::uint64_t>(ep.n) * 16 + ep.ancestors.size() * 4;
    const std::uint64_t usable = usable_per_device(devices, o);
    // A test forcing the driver on one device: at least two groups, so that they meet a strip.
    const int parts = cuda::forced_out_of_core_bytes() != 0 ? 2 : 1;
    return cuda::split_rows(ep, static_cast<int>(devices.size()),
                            usable > analysis ? usable - analysis : 0, size_of(type), paths, parts);
  }

  template <class T>
  static std::shared_ptr<const cpu::elimination_plan> analysis_of(dense_matrix<T>& h_d,
                                                                  run_context& ctx) {
    std::vector<std::int32_t> heads, tails;
    if (const graph* edges = ctx.initial_edges(); edges != nullptr) {
      heads = edges->sources();
      tails = edges->targets();
    } else {
      matrix_arcs(h_d, heads, tails);
    }
    return std::make_shared<const cpu::elimination_plan>(
        cpu::plan_elimination(ctx.n(), heads, tails, supernodal_fill_limit(ctx.n())));
  }

  /// The plan by rows over `devices`: its split when the analysis is known, else the whole
  /// matrix's bytes spread over them as the estimate.
  void plan_by_rows(plan& p, const solve_options& o, const std::vector<int>& devices,
                    const cpu::elimination_plan* ep, std::int64_t n) const {
    auto& how = std::get<drivers::cuda_supernodal>(p.run);
    how.devices = devices;
    std::string names;
    for (const int d : devices)
      names += (names.empty() ? "" : ",") + std::to_string(d);
    p.device += ", by rows over device" + std::string(devices.size() > 1 ? "s " : " ") + names;
    if (ep == nullptr || n == 0) {
      p.device_bytes = p.device_bytes / devices.size();
      return;
    }
    const cuda::sn_row_split split = split_for(*ep, devices, o, o.type, o.paths);
    if (!split.fits()) {
      p.fits = false;
      p.reason = "the supernodal solve of " + std::to_string(n) + " vertices does not fit on " +
                 p.device + " even by rows: the pivot strip of its top separators is too large";
      return;
    }
    p.device_bytes = cuda::sn_rows_device_bytes(n, static_cast<std::int64_t>(split.strip.size()),
                                                split.block_rows, size_of(o.type), o.paths) +
                     static_cast<std::uint64_t>(n) * 16 + ep->ancestors.size() * 4;
    p.device += " (strip " + std::to_string(split.strip.size()) + " rows, " +
                std::to_string(split.groups.size()) + " groups of at most " +
                std::to_string(split.block_rows) + " rows)";
  }

  std::shared_ptr<const cpu::elimination_plan> plan_;
};

} // namespace

std::unique_ptr<backend>
make_cuda_supernodal_backend(std::shared_ptr<const cpu::elimination_plan> ep) {
  return std::make_unique<cuda_supernodal_backend>(std::move(ep));
}

} // namespace apsp::detail
