// apsp::solve: checks inputs, plans, dispatches to a back end, post-checks the result.

#include "apsp/solve.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <new>
#include <optional>
#include <string>
#include <type_traits>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include <omp.h>

#include "core/algorithm_choice.hpp"
#include "core/backend.hpp"
#include "core/checkpoint.hpp"
#include "core/checks.hpp"
#include "core/driver_fields.hpp"
#include "core/host_memory.hpp"
#include "core/mapped_matrix.hpp"
#include "core/process_checkpoints.hpp"
#include "core/thread_count.hpp"

namespace apsp {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

std::unique_ptr<detail::backend> make_backend(backend_kind kind) {
  switch (kind) {
  case backend_kind::reference:
    return detail::make_reference_backend();
  case backend_kind::cpu:
    return detail::make_cpu_backend();
  case backend_kind::cuda:
    return detail::current_cuda_backend();
  case backend_kind::automatic:
    break;
  }
  throw internal_error("make_backend called with 'auto'");
}

/// The cpu threads a solve with these options uses.
int cpu_threads(const solve_options& o) {
  return o.threads > 0 ? o.threads : omp_get_max_threads();
}

/// Under `automatic`, whether the cpu solves an n-vertex Floyd-Warshall sooner than a GPU that
/// has yet to start (its context costs a few hundred ms the first time in a process); options
/// that only a GPU honours keep the GPU.
bool cpu_sooner_at_small_n(std::int64_t n, const solve_options& o, std::string* why) {
  if (!o.devices.empty() || o.device_memory_limit != 0 || o.narrow == narrow_mode::required)
    return false;
  detail::problem_shape shape;
  shape.n = n;
  shape.type = o.type;
  shape.threads = cpu_threads(o);
  const bool started = detail::gpu_started();
  if (!detail::cpu_beats_gpu_start(shape, started))
    return false;
  if (size_of(o.type) != 4) {
    *why = "auto: the GPU solves int32 and float32 only";
    return true;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "auto: cpu (~%.2g s) sooner than a GPU that has to start (~%.2g s)",
                detail::fw_cpu_seconds(shape),
                detail::fw_cuda_seconds(shape) + (started ? 0.0 : detail::cuda_start_seconds()));
  *why = buf;
  return true;
}

/// The back end's plan, its host memory counted for where `o` keeps the outputs.
plan counted_plan(const detail::backend& b, std::int64_t n, const solve_options& o) {
  plan p = b.make_plan(n, o);
  detail::derive_driver_fields(p, b.kind());
  p.driver_fits = p.fits;
  count_host_memory(p, o);
  return p;
}

/// A back end running one algorithm, and why it was chosen; with its counted plan for the
/// problem when choosing it took one (a back-end planner, the cuda one above all, runs once per
/// plan: plan_with takes this one).
struct engine {
  std::unique_ptr<detail::backend> backend;
  std::string reason;
  std::optional<plan> counted;
  std::optional<plan::displaced_engine> displaced; ///< plan::checkpoint_displaced

  /// The counted plan for (n, o), made on first use and kept.
  const plan& counted_for(std::int64_t n, const solve_options& o) {
    if (!counted)
      counted = counted_plan(*backend, n, o);
    return *counted;
  }
};

/// Resolves the back end for Floyd-Warshall (`automatic`: the cpu for problems it finishes
/// before a GPU could start, else cuda when a device is present and the plan fits, else cpu)
/// and checks that it can run. `why` (when the choice needs explaining) is set.
engine choose_fw_backend(std::int64_t n, const solve_options& o, std::string* why = nullptr) {
  if (o.backend == backend_kind::automatic) {
    std::string small;
    if (cpu_sooner_at_small_n(n, o, &small)) {
      if (why != nullptr)
        *why = small;
      return {detail::make_cpu_backend(), {}, {}};
    }
    engine cuda{detail::current_cuda_backend(), {}, {}};
    const bool cuda_type = o.type == dtype::int32 || o.type == dtype::float32;
    if (cuda_type && cuda.backend->status().available && cuda.counted_for(n, o).fits)
      return cuda;
    return {detail::make_cpu_backend(), {}, {}};
  }
  auto chosen = make_backend(o.backend);
  const backend_status s = chosen->status();
  APSP_EXPECTS(s.available, backend_unavailable_error,
               "back end '" + std::string(to_string(o.backend)) + "' is unavailable: " + s.detail);
  return {std::move(chosen), {}, {}};
}

/// Host-only algorithms (Johnson, the supernodal Floyd-Warshall) run on the cpu back end.
void expect_cpu_algorithm(const solve_options& o, const char* name) {
  APSP_EXPECTS(o.backend == backend_kind::automatic || o.backend == backend_kind::cpu,
               backend_unavailable_error,
               std::string(name) + " runs on the cpu back end, not on '" +
                   std::string(to_string(o.backend)) + "' (use --backend cpu or auto)");
  APSP_EXPECTS(!detail::wants_checkpoints(o), invalid_argument_error,
               "checkpoints (checkpoint_dir, resume_dir) are saved between Floyd-Warshall "
               "rounds; " +
                   std::string(name) + " has none (use --algorithm fw)");
}

/// The supernodal solver's analysis of `g`, announced first as a stage to o.progress (the
/// nested-dissection order of a large graph takes a while before any round is counted; a
/// callback that returns false cancels here).
std::shared_ptr<const apsp::cpu::elimination_plan> ordered(std::int64_t n, const graph& g,
                                                           const solve_options& o) {
  if (o.progress) {
    progress_info info;
    info.stage = "ordering the graph (nested dissection)";
    if (!o.progress(info))
      throw cancelled_error("cancelled by the progress callback (called before the ordering)");
  }
  return detail::analyse_supernodal(n, g);
}

/// The supernodal Floyd-Warshall, requested: on the GPU under --backend cuda, or under auto when
/// a GPU holds the matrix and the cost model says it ends first; else on the cpu.
engine choose_supernodal(std::int64_t n, const solve_options& o, const graph* g) {
  APSP_EXPECTS(o.backend != backend_kind::reference, backend_unavailable_error,
               "the supernodal Floyd-Warshall runs on the cpu and cuda back ends, not on "
               "'reference' (use --backend cpu, cuda or auto)");
  APSP_EXPECTS(!detail::wants_checkpoints(o), invalid_argument_error,
               "checkpoints (checkpoint_dir, resume_dir) are saved between Floyd-Warshall "
               "rounds; the supernodal Floyd-Warshall has none (use --algorithm fw)");
  // Analysed now, before the matrix is allocated: the plan shows the steps, and a graph
  // without small separators is refused at once.
  std::shared_ptr<const apsp::cpu::elimination_plan> analysis;
  if (g != nullptr) {
    analysis = ordered(n, *g, o);
    detail::expect_supernodal_pays(*analysis);
  }
  if (o.backend == backend_kind::cuda) {
    auto gpu = detail::make_cuda_supernodal_backend(analysis);
    const backend_status s = gpu->status();
    APSP_EXPECTS(s.available, backend_unavailable_error,
                 "back end 'cuda' is unavailable: " + s.detail);
    return {std::move(gpu), "requested", {}};
  }
  if (o.backend == backend_kind::automatic && analysis &&
      (o.type == dtype::int32 || o.type == dtype::float32)) {
    engine gpu{detail::make_cuda_supernodal_backend(analysis), {}, {}};
    if (gpu.backend->status().available && gpu.counted_for(n, o).fits) {
      detail::problem_shape shape;
      shape.n = n;
      shape.type = o.type;
      shape.threads = cpu_threads(o);
      shape.supernodal_updates = detail::supernodal_updates(*analysis);
      const double on_gpu = detail::supernodal_cuda_seconds(shape) +
                            detail::gpu_output_seconds(shape) +
                            (detail::gpu_started() ? 0.0 : detail::cuda_start_seconds());
      const double on_cpu = detail::supernodal_cpu_seconds(shape);
      char why[160];
      std::snprintf(why, sizeof why, "requested; auto: on %s (~%.3g s, the other ~%.3g s)",
                    on_gpu < on_cpu ? "cuda" : "cpu", std::min(on_gpu, on_cpu),
                    std::max(on_gpu, on_cpu));
      if (on_gpu < on_cpu) {
        gpu.reason = why;
        return gpu;
      }
      return {detail::make_supernodal_backend(std::move(analysis)), why, {}};
    }
  }
  APSP_EXPECTS(o.backend == backend_kind::automatic || o.backend == backend_kind::cpu,
               backend_unavailable_error,
               "the supernodal Floyd-Warshall runs on the cpu and cuda back ends");
  return {detail::make_supernodal_backend(std::move(analysis)), "requested", {}};
}

/// Graphs with at most this many arcs per vertex get the supernodal analysis under `auto`
/// (denser ones have no small separators worth the METIS call).
constexpr std::int64_t supernodal_max_degree = 32;
/// Up to this many arcs per vertex the analysis always runs; above it only when it costs at
/// most supernodal_analysis_share of the best estimate without it.
constexpr std::int64_t supernodal_low_degree = 8;
constexpr double supernodal_analysis_share = 0.25;

/// Resolves the algorithm (and the back end) for an n-vertex problem with m arcs (m < 0:
/// unknown, which `automatic` takes as dense). `g`, when known, lets `automatic` weigh the
/// supernodal Floyd-Warshall, whose cost depends on the graph's separators.
engine choose_engine(std::int64_t n, std::int64_t m, const solve_options& o,
                     const graph* g = nullptr) {
  if (o.algorithm == algorithm_kind::johnson) {
    expect_cpu_algorithm(o, "Johnson's algorithm");
    return {detail::make_johnson_backend(), "requested", {}};
  }
  if (o.algorithm == algorithm_kind::supernodal)
    return choose_supernodal(n, o, g);
  std::string fw_why;
  engine fw = choose_fw_backend(n, o, &fw_why);
  // fw, chosen for `reason`.
  const auto fw_for = [&fw](std::string reason) {
    fw.reason = std::move(reason);
    return std::move(fw);
  };
  // Why the back end, after why the algorithm, when the small-n rule chose it.
  const auto and_why = [&](std::string reason) {
    return fw_why.empty() ? reason : reason + "; " + fw_why;
  };
  if (o.algorithm == algorithm_kind::floyd_warshall)
    return fw_for(and_why("requested"));
  if (m < 0)
    return fw_for(and_why("auto: the edge count is unknown (taken as dense)"));
  if (o.backend == backend_kind::reference)
    return fw_for("auto: the reference back end runs Floyd-Warshall");
  // A resumed solve continues the Floyd-Warshall rounds its checkpoint holds; a new one weighs
  // the engines below and says what running Floyd-Warshall for its checkpoints costs.
  const std::string fw_for_checkpoints = "auto: checkpoints are saved between Floyd-Warshall rounds";
  if (!o.resume_dir.empty())
    return fw_for(and_why(fw_for_checkpoints));
  if (o.narrow == narrow_mode::required)
    return fw_for("auto: packed 16-bit arithmetic is Floyd-Warshall's (cuda)");
  detail::problem_shape shape;
  shape.n = n;
  shape.m = m;
  shape.type = o.type;
  shape.threads = cpu_threads(o);
  const backend_kind fw_kind = fw.backend->kind();
  if (fw_kind == backend_kind::cuda)
    shape.gpus = std::max(1, fw.counted_for(n, o).devices);
  // Under --backend cuda only the GPU's engines; the supernodal one holds the matrix on one
  // device (with --devices naming one, or none).
  shape.host_engines = o.backend != backend_kind::cuda;
  shape.gpu_supernodal = fw_kind == backend_kind::cuda && o.devices.size() <= 1 &&
                         (o.type == dtype::int32 || o.type == dtype::float32);
  std::shared_ptr<const apsp::cpu::elimination_plan> analysis;
  // The supernodal path matrix is exact only without zero-weight cycles (with them it may name
  // pivots whose expansion revisits vertices): with paths, auto takes it only when every weight
  // is positive, where no such cycle can exist -- positive as the solve's type holds it (1e-50
  // is 0 in float32).
  const auto positive = [&o](double w) {
    return w > 0 && (o.type != dtype::float32 || static_cast<float>(w) > 0);
  };
  const bool supernodal_paths_safe =
      !o.paths || (g != nullptr && positive(g->summarize_weights().min));
  // Sparse graphs of low degree (roads, grids, meshes) are analysed; denser ones only when the
  // analysis costs little beside the best estimate without it (a random graph of degree 20
  // has no small separators, and METIS on it costs more than the GPU's whole solve).
  // The choice without the analysis, once made, is kept for when the analysis does not run.
  std::optional<detail::algorithm_choice> without_analysis;
  const auto analysis_pays = [&] {
    if (m <= supernodal_low_degree * n)
      return true;
    without_analysis = detail::choose_algorithm(shape, fw_kind);
    return detail::supernodal_analysis_seconds(shape) <=
           supernodal_analysis_share * without_analysis->seconds;
  };
  if (g != nullptr && detail::supernodal_has_nested_dissection() && n >= 2 &&
      m <= supernodal_max_degree * n && supernodal_paths_safe && analysis_pays()) {
    analysis = ordered(n, *g, o);
    shape.supernodal_updates = detail::supernodal_updates(*analysis);
    without_analysis.reset(); // the shape now has the analysis' updates
  }
  auto choice = without_analysis ? std::move(*without_analysis)
                                 : detail::choose_algorithm(shape, fw_kind);
  choice.reason = and_why(std::move(choice.reason));
  if (detail::wants_checkpoints(o)) {
    engine e = fw_for(fw_for_checkpoints);
    if (choice.algorithm != algorithm_kind::floyd_warshall) {
      e.displaced = plan::displaced_engine{choice.algorithm, choice.backend, choice.seconds,
                                           choice.fw_seconds};
      e.reason += " (" + std::string(to_string(choice.algorithm)) +
                  " saves none); without them " + choice.reason;
    } else {
      e.reason += "; " + choice.reason;
    }
    return e;
  }
  if (choice.algorithm == algorithm_kind::johnson)
    return {detail::make_johnson_backend(), std::move(choice.reason), {}};
  if (choice.algorithm == algorithm_kind::supernodal && choice.backend == backend_kind::cuda) {
    engine gpu{detail::make_cuda_supernodal_backend(analysis), std::move(choice.reason), {}};
    if (gpu.counted_for(n, o).fits)
      return gpu;
    return fw_for(std::move(gpu.reason) +
                  "; the GPU cannot hold the supernodal solve's matrix: Floyd-Warshall");
  }
  if (choice.algorithm == algorithm_kind::supernodal)
    return {detail::make_supernodal_backend(std::move(analysis)), std::move(choice.reason), {}};
  return fw_for(std::move(choice.reason));
}

/// The engine's plan, with why it was chosen; in packed 16-bit arithmetic where its driver has
/// it and `packed16` (asked for and exact, or required).
plan plan_with(engine& e, std::int64_t n, const solve_options& o, bool packed16 = false) {
  (void)e.counted_for(n, o);
  plan p = std::move(*e.counted);
  e.counted.reset();
  if (packed16) {
    e.backend->plan_packed16(p);
    detail::derive_driver_fields(p, e.backend->kind());
  }
  p.algorithm_reason = e.reason;
  p.checkpoint_displaced = e.displaced;
  return p;
}

any_matrix allocate(dtype type, std::int64_t n) {
  try {
    return visit_dtype(type, [n](auto zero) -> any_matrix {
      dense_matrix<decltype(zero)> d(n);
      detail::advise_huge_pages(d.data(), d.size() * sizeof(decltype(zero)));
      return d;
    });
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error("cannot allocate the " + std::to_string(n) + " x " +
                              std::to_string(n) + " " + std::string(to_string(type)) +
                              " distance matrix in host memory");
  }
}

/// Whether packed 16-bit arithmetic is asked for and provably exact for these weights.
bool narrow_exact(const detail::weight_facts& facts, bool all_integral, const solve_options& o) {
  return o.narrow != narrow_mode::off && o.type == dtype::int32 && all_integral &&
         !facts.has_negative && facts.distance_bound < detail::narrow_infinity;
}

/// narrow_exact for a graph's weights (read only when packed 16-bit arithmetic is asked for).
bool narrow_exact(const graph& g, const solve_options& o) {
  return o.narrow != narrow_mode::off && o.type == dtype::int32 &&
         narrow_exact(detail::analyze_weights(g, o.type, true), g.summarize_weights().all_integral,
                      o);
}

/// Refuses packed 16-bit arithmetic that cannot run as planned: required but not `exact` for
/// these weights, or required on a back end without it, or planned (p.narrow) for other weights.
void check_narrow(const plan& p, bool exact, const detail::weight_facts& facts,
                  const solve_options& o) {
  if (o.narrow == narrow_mode::required) {
    APSP_EXPECTS(exact, overflow_risk_error,
                 "packed 16-bit arithmetic needs int32, non-negative integer weights and path "
                 "lengths provably below " +
                     std::to_string(detail::narrow_infinity) + "; this graph's could reach " +
                     std::to_string(static_cast<long long>(facts.distance_bound)) +
                     (facts.has_negative ? " and it has negative weights" : "") +
                     ": use --dtype int32");
    APSP_EXPECTS(p.backend == backend_kind::cuda, backend_unavailable_error,
                 "packed 16-bit arithmetic runs on the cuda back end only");
  }
  APSP_EXPECTS(exact || !p.narrow, invalid_argument_error,
               "the plan runs packed 16-bit arithmetic, which is not exact for this graph's "
               "weights (it was made for another graph)");
}

/// A chosen back end and its plan, checked to fit: made before any large allocation.
struct planned {
  std::unique_ptr<detail::backend> backend;
  plan p;
};

/// What a chosen plan must be to run: checkpoints where they are saved, and room.
void check_planned(const planned& chosen, const solve_options& o) {
  APSP_EXPECTS(!detail::wants_checkpoints(o) || chosen.backend->kind() != backend_kind::reference,
               backend_unavailable_error,
               "checkpoints (checkpoint_dir, resume_dir) are saved by the cpu and cuda back ends "
               "and the distributed solver's ranks, not by the reference back end");
  APSP_EXPECTS(chosen.p.fits, out_of_memory_error, "the solve does not fit: " + chosen.p.reason);
}

planned plan_solve(std::int64_t n, std::int64_t m, const solve_options& o, const graph* g,
                   bool packed16) {
  engine e = choose_engine(n, m, o, g);
  plan p = plan_with(e, n, o, packed16);
  planned out{std::move(e.backend), std::move(p)};
  check_planned(out, o);
  return out;
}

using detail::omp_thread_cap;

/// The path matrix a solve with paths writes: in paths_file (mapped) or in memory. Made before
/// the distances' file is mapped, so that a path file that cannot be made leaves that one alone.
std::optional<via_matrix> make_via(std::int64_t n, const solve_options& o) {
  std::optional<via_matrix> via;
  if (o.paths && !o.paths_file.empty()) {
    via.emplace(std::get<via_matrix>(
        detail::map_matrix(dtype::int32, n, o.paths_file, o.paths_file_offset, "path")));
  } else if (o.paths) {
    try {
      via.emplace(n);
      detail::advise_huge_pages(via->data(), via->size() * sizeof(std::int32_t));
    } catch (const std::bad_alloc&) {
      throw out_of_memory_error("cannot allocate the path matrix in host memory");
    }
  }
  return via;
}

result run_solve(any_matrix d, std::optional<via_matrix> via, planned chosen_plan,
                 const detail::weight_facts& facts, const solve_options& o,
                 clock_type::time_point t0, std::uint64_t input_hash,
                 const graph* initial_edges = nullptr) {
  const std::int64_t n = std::visit([](const auto& m) { return m.n(); }, d);
  auto& chosen = chosen_plan.backend;
  plan& p = chosen_plan.p;
  solve_timings t;
  t.setup_seconds = seconds_since(t0);
  auto t1 = clock_type::now();
  detail::run_context ctx(o, n, facts.has_negative, initial_edges);
  ctx.set_fractional_weights(facts.has_fraction);
  ctx.set_input_hash(input_hash);
  try {
    chosen->run(d, via ? &*via : nullptr, p, ctx);
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error("out of host memory while solving");
  }
  t.solve_seconds = seconds_since(t1);
  auto t2 = clock_type::now();
  detail::check_negative_cycles(d);
  detail::normalize_unreachable(d, via ? &*via : nullptr, facts);
  t.finish_seconds = seconds_since(t2);
  return result(std::move(d), std::move(via), std::move(p), t);
}

/// What no back end can take, refused alike whichever is chosen: negative sizes, a path file
/// without paths, one file for both memory-mapped outputs.
void check_options(const solve_options& o) {
  APSP_EXPECTS(o.block >= 0, invalid_argument_error,
               "block must be >= 0 (0 = choose), got " + std::to_string(o.block));
  APSP_EXPECTS(o.threads >= 0, invalid_argument_error,
               "threads must be >= 0 (0 = all), got " + std::to_string(o.threads));
  APSP_EXPECTS(o.checkpoint_every_seconds >= 0, invalid_argument_error,
               "checkpoint_every_seconds must be >= 0, got " +
                   std::to_string(o.checkpoint_every_seconds));
  APSP_EXPECTS(o.paths_file.empty() || o.paths, invalid_argument_error,
               "paths_file " + o.paths_file.string() + " is set without paths");
  // Checked before any file is touched (the mapping checks them again).
  APSP_EXPECTS(o.distances_file_offset % size_of(o.type) == 0, invalid_argument_error,
               "distances_file_offset " + std::to_string(o.distances_file_offset) +
                   " is not a multiple of the element size " + std::to_string(size_of(o.type)));
  APSP_EXPECTS(o.paths_file_offset % sizeof(std::int32_t) == 0, invalid_argument_error,
               "paths_file_offset " + std::to_string(o.paths_file_offset) +
                   " is not a multiple of the element size 4");
  APSP_EXPECTS(o.distances_file.empty() || o.paths_file.empty() ||
                   !io::same_file(o.distances_file, o.paths_file),
               invalid_argument_error,
               "distances_file and paths_file name the same file " + o.distances_file.string() +
                   "; the two matrices need a file each");
}

} // namespace

plan make_plan(std::int64_t n, const solve_options& options) {
  APSP_EXPECTS(n >= 0, invalid_argument_error, "vertex count must not be negative");
  check_options(options);
  // Without the weights, packed 16-bit arithmetic only where it is required (runs or is refused).
  engine e = choose_engine(n, -1, options);
  return plan_with(e, n, options, options.narrow == narrow_mode::required);
}

plan make_plan(const graph& g, const solve_options& options) {
  check_options(options);
  // The edges solve() would keep, so that the algorithm chosen is the one it runs.
  const auto usable = detail::usable_edges(g, options.type);
  const graph& edges = usable ? *usable : g;
  engine e = choose_engine(edges.num_vertices(), edges.num_edges(), options, &edges);
  return plan_with(e, edges.num_vertices(), options, narrow_exact(g, options));
}

} // namespace apsp

namespace apsp::detail {
namespace {

/// set_cuda_backend_for_tests' stand-in; empty: make_cuda_backend.
std::function<std::unique_ptr<backend>()>& cuda_backend_stand_in() {
  static std::function<std::unique_ptr<backend>()> make;
  return make;
}

} // namespace

std::unique_ptr<backend> current_cuda_backend() {
  const auto& make = cuda_backend_stand_in();
  return make ? make() : make_cuda_backend();
}

void set_cuda_backend_for_tests(std::function<std::unique_ptr<backend>()> make) {
  cuda_backend_stand_in() = std::move(make);
}

std::unique_ptr<backend> backend_for(const plan& p) {
  return std::visit(
      [&p](const auto& how) -> std::unique_ptr<backend> {
        using D = std::decay_t<decltype(how)>;
        if constexpr (std::is_same_v<D, drivers::none>)
          throw invalid_argument_error("the plan has no driver to run" +
                                       (p.reason.empty() ? std::string() : ": " + p.reason));
        else if constexpr (std::is_same_v<D, drivers::reference>)
          return make_reference_backend();
        else if constexpr (std::is_same_v<D, drivers::cpu_blocked>)
          return make_cpu_backend();
        else if constexpr (std::is_same_v<D, drivers::johnson>)
          return make_johnson_backend();
        else if constexpr (std::is_same_v<D, drivers::supernodal>)
          return make_supernodal_backend(how.analysis);
        else if constexpr (std::is_same_v<D, drivers::cuda_supernodal>)
          return make_cuda_supernodal_backend(how.analysis);
        else if constexpr (std::is_same_v<D, drivers::cuda_phast>)
          return make_cuda_phast_backend();
        else if constexpr (std::is_same_v<D, drivers::distributed>)
          throw invalid_argument_error("a distributed plan runs on MPI ranks, through "
                                       "apsp::distributed::solve");
        else if constexpr (std::is_same_v<D, drivers::johnson_rows> ||
                           std::is_same_v<D, drivers::phast_rows> ||
                           std::is_same_v<D, drivers::block_rows> ||
                           std::is_same_v<D, drivers::ch_table> ||
                           std::is_same_v<D, drivers::rphast_table> ||
                           std::is_same_v<D, drivers::cuda_table>)
          throw invalid_argument_error("a plan of rows (" + to_string(p.run) +
                                       ") makes no matrix: apsp::compute_metrics or a block "
                                       "of sources and targets runs it");
        else if constexpr (std::is_same_v<D, drivers::pair_search>)
          throw invalid_argument_error("a plan for one pair (" + to_string(p.run) +
                                       ") makes no matrix: apsp::solve_pair runs it");
        else
          return current_cuda_backend();
      },
      p.run);
}

} // namespace apsp::detail

namespace apsp {
namespace {

/// The solve of a graph: its weights checked and the edges it keeps (those the type can hold)
/// handed to `choose` with whether packed 16-bit arithmetic is exact for them, which returns
/// the planned back end; then allocation, fill and run.
template <class Choose>
result solve_graph(const graph& g, const solve_options& options, Choose&& choose) {
  const auto t0 = clock_type::now();
  check_options(options);
  const omp_thread_cap cap(options.threads);
  const auto summary = g.summarize_weights();
  const auto facts = detail::analyze_weights(g, options.type, options.narrow != narrow_mode::off);
  detail::check_representable(facts, options.type, summary.all_integral);
  // Edges the type cannot hold are dropped here (they change nothing), before any back end
  // casts them.
  const auto usable = detail::usable_edges(g, options.type);
  const graph& edges = usable ? *usable : g;
  // Planned before allocating, so an impossible request fails fast and allocates nothing.
  const bool exact = narrow_exact(facts, summary.all_integral, options);
  planned chosen = choose(edges, exact);
  check_narrow(chosen.p, exact, facts, options);
  std::optional<via_matrix> via = make_via(g.num_vertices(), options);
  any_matrix d = options.distances_file.empty()
                     ? allocate(options.type, g.num_vertices())
                     : detail::map_matrix(options.type, g.num_vertices(), options.distances_file,
                                          options.distances_file_offset);
  // A back end that builds the matrix from the edges (on a GPU) gets them instead.
  const bool on_backend = chosen.backend->builds_initial_matrix(chosen.p);
  // A resumed solve's back end loads the checkpoint's matrix instead.
  if (detail::fills_from_edges(options, on_backend))
    detail::fill_initial(edges, d);
  const std::uint64_t input_hash = detail::wants_checkpoints(options) ? detail::hash_graph(g) : 0;
  try {
    return run_solve(std::move(d), std::move(via), std::move(chosen), facts, options, t0,
                     input_hash, on_backend ? &edges : nullptr);
  } catch (const negative_cycle_error& e) {
    if (!e.cycle().empty())
      throw;
    detail::rethrow_with_one_cycle(g, e); // Floyd-Warshall names vertices; add one in order
  }
}

} // namespace

result solve(const graph& g, const solve_options& options) {
  return solve_graph(g, options, [&](const graph& edges, bool exact) {
    return plan_solve(edges.num_vertices(), edges.num_edges(), options, &edges, exact);
  });
}

result solve(const graph& g, const plan& p, const solve_options& options) {
  return solve_graph(g, options, [&](const graph& edges, bool /*exact: p says*/) {
    APSP_EXPECTS(p.n == edges.num_vertices() && p.type == options.type &&
                     p.paths == options.paths,
                 invalid_argument_error,
                 "the plan was made for another problem (" + std::to_string(p.n) +
                     " vertices, " + std::string(to_string(p.type)) +
                     (p.paths ? " with paths" : "") + "), not for this one (" +
                     std::to_string(edges.num_vertices()) + " vertices, " +
                     std::string(to_string(options.type)) +
                     (options.paths ? " with paths" : "") + ")");
    planned chosen{detail::backend_for(p), p};
    check_planned(chosen, options); // as the caller has it (count_host_memory after a move)
    count_host_memory(chosen.p, options); // and as these options place the outputs
    check_planned(chosen, options);
    return chosen;
  });
}

result solve_dense(any_matrix initial, const solve_options& options) {
  const auto t0 = clock_type::now();
  check_options(options);
  const omp_thread_cap cap(options.threads);
  APSP_EXPECTS(options.distances_file.empty(), invalid_argument_error,
               "solve_dense works in the matrix it is given; distances_file applies to solve");
  APSP_EXPECTS(static_cast<dtype>(initial.index()) == options.type, invalid_argument_error,
               "the initial matrix holds " +
                   std::string(to_string(static_cast<dtype>(initial.index()))) +
                   " values but options.type is " + std::string(to_string(options.type)));
  detail::clamp_diagonal(initial);
  const auto facts = detail::analyze_weights(initial);
  detail::check_representable(facts, options.type, true);
  const bool exact = narrow_exact(facts, is_integral(options.type), options);
  planned chosen = plan_solve(std::visit([](const auto& m) { return m.n(); }, initial),
                              detail::count_arcs(initial), options, nullptr, exact);
  check_narrow(chosen.p, exact, facts, options);
  const std::uint64_t input_hash =
      detail::wants_checkpoints(options) ? detail::hash_matrix(initial) : 0;
  auto via = make_via(std::visit([](const auto& m) { return m.n(); }, initial), options);
  return run_solve(std::move(initial), std::move(via), std::move(chosen), facts, options, t0,
                   input_hash);
}

std::vector<backend_status> list_backends() {
  std::vector<backend_status> out;
  for (auto kind : {backend_kind::reference, backend_kind::cpu, backend_kind::cuda}) {
    out.push_back(make_backend(kind)->status());
  }
  return out;
}

void release_devices() noexcept {
  detail::release_cuda_devices();
}

void remove_checkpoint(const std::filesystem::path& dir) {
  detail::remove_checkpoint_files(dir);
}

std::uint64_t checkpoint_bytes(const plan& p) {
  if (!p.checkpointed)
    return 0;
  const auto cells = static_cast<std::uint64_t>(p.n) * static_cast<std::uint64_t>(p.n);
  // One file per process (header, distances, then paths), and a manifest of a few lines.
  int processes = 1;
  if (const auto* ranks = std::get_if<drivers::distributed>(&p.run))
    processes = ranks->ranks;
  constexpr std::uint64_t file_header = 64;
  constexpr std::uint64_t manifest = 4096;
  return cells * (size_of(p.type) + (p.paths ? sizeof(std::int32_t) : 0)) +
         file_header * static_cast<std::uint64_t>(processes) + manifest;
}

const char* version() noexcept {
  return APSP_VERSION; // project(apsp VERSION ...) in the top CMakeLists.txt, the only copy
}

} // namespace apsp
