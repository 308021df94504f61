// apsp::compute_metrics: the engine choice (Dijkstra rows in batches, or a Floyd-Warshall plan
// solved into RAM) and the reduction of its rows (core/metrics_accumulator.hpp).

#include "apsp/metrics.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "core/algorithm_choice.hpp"
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "core/host_memory.hpp"
#include "core/matrix_partials.hpp"
#include "core/metrics_accumulator.hpp"
#include "core/thread_count.hpp"

namespace apsp {

std::string_view to_string(metric m) noexcept {
  switch (m) {
  case metric::out_eccentricity:
    return "out-eccentricity";
  case metric::in_eccentricity:
    return "in-eccentricity";
  case metric::closeness:
    return "closeness";
  case metric::harmonic:
    return "harmonic";
  case metric::reachable:
    return "reachable";
  case metric::diameter:
    return "diameter";
  case metric::radius:
    return "radius";
  case metric::average_path_length:
    return "average-path-length";
  case metric::global_efficiency:
    return "global-efficiency";
  case metric::reachable_pairs:
    return "reachable-pairs";
  case metric::histogram:
    break;
  }
  return "histogram";
}

std::vector<metric> metric_list() {
  std::vector<metric> all;
  for (metric_set bit = 1; (all_metrics & bit) != 0; bit <<= 1)
    all.push_back(static_cast<metric>(bit));
  return all;
}

metric_set parse_metrics(std::string_view list) {
  const auto valid = [] {
    std::string names;
    for (const metric m : metric_list())
      names += std::string(to_string(m)) + ", ";
    return names + "all";
  };
  metric_set which = 0;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view word = list.substr(start, comma - start);
    bool known = word == "all";
    if (known)
      which = all_metrics;
    for (const metric m : metric_list()) {
      if (word == to_string(m)) {
        which |= static_cast<metric_set>(m);
        known = true;
      }
    }
    APSP_EXPECTS(known, invalid_argument_error,
                 (word.empty() ? std::string("an empty metric name")
                               : "unknown metric '" + std::string(word) + "'") +
                     " in '" + std::string(list) + "' (metrics: " + valid() + ")");
    if (comma == list.size())
      return which;
    start = comma + 1;
  }
}

std::vector<double> distance_histogram::edges() const {
  std::vector<double> e(counts.size() + 1);
  for (std::size_t i = 0; i < e.size(); ++i)
    e[i] = static_cast<double>(i) * width;
  return e;
}

namespace detail {

void check_metrics_options(const solve_options& s, const metrics_options& m) {
  APSP_EXPECTS(m.histogram_bins >= 1, invalid_argument_error,
               "histogram_bins must be >= 1, got " + std::to_string(m.histogram_bins));
  APSP_EXPECTS(!s.paths && s.paths_file.empty(), invalid_argument_error,
               "metrics need no path matrix: leave solve_options::paths off");
  APSP_EXPECTS(s.distances_file.empty(), invalid_argument_error,
               "metrics keep no distance matrix: solve_options::distances_file does not apply");
  APSP_EXPECTS(s.checkpoint_dir.empty() && s.resume_dir.empty(), invalid_argument_error,
               "metrics runs save no checkpoints (checkpoint_dir, resume_dir)");
  APSP_EXPECTS(s.threads >= 0, invalid_argument_error,
               "threads must be >= 0 (0 = all), got " + std::to_string(s.threads));
  APSP_EXPECTS(s.block >= 0, invalid_argument_error,
               "block must be >= 0 (0 = choose), got " + std::to_string(s.block));
}

} // namespace detail

namespace {

using clock_type = std::chrono::steady_clock;

/// Every row of a full matrix through the accumulator, on `threads` threads.
template <class T>
void reduce_matrix(const dense_matrix<T>& d, detail::metrics_accumulator<T>& acc, int threads) {
  const std::int64_t n = d.n();
  const int workers = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, n)));
  acc.start(workers);
#pragma omp parallel for num_threads(workers) schedule(dynamic, 16)
  for (std::int64_t i = 0; i < n; ++i)
    acc.take(omp_get_thread_num(), i, d.row(i));
}

graph_metrics reduce_any(const any_matrix& d, const metrics_options& o, int threads) {
  return std::visit(
      [&](const auto& m) {
        using T = typename std::decay_t<decltype(m)>::value_type;
        detail::metrics_accumulator<T> acc(m.n(), o);
        reduce_matrix(m, acc, threads);
        return acc.finish();
      },
      d);
}

/// Whether plan `p`'s back end reduces the matrix where it solves it; if so, `p` is counted
/// again without the n x n matrix in host memory.
bool reduces_where_solved(plan& p) {
  if (std::holds_alternative<drivers::none>(p.run) ||
      !detail::backend_for(p)->reduces_where_solved(p))
    return false;
  detail::count_host_memory_without_outputs(p);
  return true;
}

/// Plan `p` run with its matrix reduced where it is solved (reduces_where_solved): no n x n
/// matrix in host memory.
graph_metrics solve_and_reduce(const graph& g, const graph& edges, const plan& p,
                               const solve_options& o, const metrics_options& options,
                               const detail::weight_facts& facts) {
  APSP_EXPECTS(p.fits, out_of_memory_error, "the metrics do not fit: " + p.reason);
  const std::int64_t n = edges.num_vertices();
  try {
    return visit_dtype(o.type, [&](auto zero) {
      using T = decltype(zero);
      detail::metrics_accumulator<T> acc(n, options);
      detail::metrics_reduction_sink<T> sink(acc, detail::path_limit<T>(facts));
      detail::run_context ctx(o, n, facts.has_negative, &edges);
      ctx.set_fractional_weights(facts.has_fraction);
      ctx.set_reduction(&sink);
      any_matrix unset = dense_matrix<T>(0);
      try {
        detail::backend_for(p)->run(unset, nullptr, p, ctx);
      } catch (const std::bad_alloc&) {
        throw out_of_memory_error("out of host memory while computing metrics");
      }
      detail::throw_negative_cycle(sink.negative());
      return acc.finish();
    });
  } catch (const negative_cycle_error& e) {
    if (!e.cycle().empty())
      throw;
    detail::rethrow_with_one_cycle(g, e); // Floyd-Warshall names vertices; add one in order
  }
}

/// Why the n x n matrix of plan `p` cannot be kept in RAM (empty when it can).
std::string matrix_does_not_fit(const plan& p) {
  if (!p.fits)
    return p.reason;
  const std::uint64_t ram = host_memory_bytes();
  if (ram != 0 && p.host_bytes > ram)
    return "it needs " + detail::gib(p.host_bytes) + " of host memory, this machine has " +
           detail::gib(ram);
  return {};
}

/// Johnson's plan for n vertices (its driver and block; no analysis of the graph).
/// Dijkstra's rows in batches: the CSR copy (an arc and an offset) ...
std::uint64_t dijkstra_rows_shared(std::uint64_t n, std::uint64_t m) noexcept {
  return 16 * m + 8 * n;
}

/// ... and per thread: Dijkstra's scratch (28 bytes a vertex, as Johnson's plan counts), a row
/// and the column sums (count, max, sum, inverse sum).
std::uint64_t dijkstra_rows_per_thread(std::uint64_t n, dtype type) noexcept {
  return n * (28 + 2 * size_of(type) + 24);
}

plan johnson_plan(std::int64_t n, const solve_options& o) {
  solve_options jo = o;
  jo.algorithm = algorithm_kind::johnson;
  return apsp::make_plan(n, jo);
}

/// The plan of Dijkstra's rows in batches by `engine`, from Johnson's plan `p` (its driver and
/// block): the memory of rows that are reduced instead of kept.
plan batch_plan(const graph& g, const solve_options& o, plan p, std::string reason,
                detail::row_engine engine) {
  const auto n = static_cast<std::uint64_t>(g.num_vertices());
  const auto m = static_cast<std::uint64_t>(g.num_edges());
  const auto threads = static_cast<std::uint64_t>(detail::thread_count(o));
  std::uint64_t per_thread = dijkstra_rows_per_thread(n, o.type);
  std::uint64_t shared = dijkstra_rows_shared(n, m);
  if (engine == detail::row_engine::phast) {
    // PHAST: per thread, the lanes' distances and rows (16 int32 or 8 int64 values each, a
    // vertex), the column sums (28 bytes) and the upward search (a distance and a heap
    // position); the hierarchy while it is built (four adjacency lists a vertex; arcs and
    // shortcuts, within a budget of 3 per arc, held twice).
    per_thread = n * (2 * 64 + 28 + 16);
    shared = detail::add_bytes(shared, 32 * (4 * m + n) + 96 * n);
  }
  // No n x n matrix: the working memory is all of it.
  p.working_host_bytes = detail::add_bytes(shared, per_thread * threads);
  p.host_bytes = p.working_host_bytes;
  p.file_bytes = 0;
  p.driver_fits = true;
  const std::uint64_t ram = host_memory_bytes();
  p.fits = ram == 0 || p.host_bytes <= ram;
  p.reason = p.fits ? std::string()
                    : std::string(row_engine_name(engine)) + " on the cpu needs " +
                          detail::gib(p.host_bytes) + " of host memory but this machine has " +
                          detail::gib(ram);
  p.device =
      "cpu (" + std::to_string(threads) + " threads, " + std::string(row_engine_name(engine)) + ")";
  p.algorithm_reason = std::move(reason);
  return p;
}

/// Under auto, a matrix too large for RAM (`too_large`) may still fit the GPUs, which reduce it
/// where they solve it: their Floyd-Warshall plan when it does and the cost model says it ends
/// before Dijkstra's rows on the cpu; else none (no GPU, no room, or slower).
std::optional<plan> gpus_reduce_in_place(const graph& g, const solve_options& o,
                                         const std::string& too_large) {
  solve_options on_gpus = o;
  on_gpus.backend = backend_kind::cuda;
  on_gpus.algorithm = algorithm_kind::floyd_warshall;
  plan p;
  try {
    p = apsp::make_plan(g, on_gpus);
  } catch (const error&) {
    return std::nullopt; // no GPU, or none that takes this problem
  }
  if (!reduces_where_solved(p) || !p.fits)
    return std::nullopt;
  detail::problem_shape shape;
  shape.n = g.num_vertices();
  shape.m = g.num_edges();
  shape.type = o.type;
  shape.threads = detail::thread_count(o);
  if (const auto* split = std::get_if<drivers::cuda_split>(&p.run))
    shape.gpus = static_cast<int>(split->devices.size());
  const detail::algorithm_choice c = detail::choose_algorithm(shape, backend_kind::cuda);
  if (c.algorithm != algorithm_kind::floyd_warshall)
    return std::nullopt;
  p.algorithm_reason = "auto: " + too_large +
                       ", but the GPUs hold it and reduce it where they solve it (" +
                       c.reason.substr(std::string("auto: ").size()) + ")";
  return p;
}

/// Why no n x n matrix of `type` can be kept in this machine's RAM, whatever engine holds it
/// (empty when one might): decided before planning, so that auto skips the supernodal analysis
/// of a graph it will not solve into a matrix.
std::string matrix_cannot_fit(std::int64_t n, dtype type) {
  const std::uint64_t ram = host_memory_bytes();
  const auto cells = static_cast<double>(n) * static_cast<double>(n);
  const double bytes = cells * static_cast<double>(size_of(type));
  if (ram == 0 || bytes <= static_cast<double>(ram))
    return {};
  return "the " + std::to_string(n) + " x " + std::to_string(n) + " " +
         std::string(to_string(type)) + " matrix alone is larger than this machine's " +
         detail::gib(ram);
}

} // namespace

graph_metrics metrics_of(const any_matrix& d, const metrics_options& options) {
  const auto t0 = clock_type::now();
  APSP_EXPECTS(options.histogram_bins >= 1, invalid_argument_error,
               "histogram_bins must be >= 1, got " + std::to_string(options.histogram_bins));
  detail::check_negative_cycles(d);
  graph_metrics out = reduce_any(d, options, omp_get_max_threads());
  out.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  return out;
}

graph_metrics compute_metrics(const graph& g, const solve_options& solve,
                              const metrics_options& options) {
  const auto t0 = clock_type::now();
  detail::check_metrics_options(solve, options);
  solve_options o = solve;
  if (options.progress)
    o.progress = options.progress;
  const detail::omp_thread_cap cap(o.threads);
  const auto summary = g.summarize_weights();
  const auto facts = detail::analyze_weights(g, o.type, false);
  detail::check_representable(facts, o.type, summary.all_integral);
  // Edges the type cannot hold change no distance: dropped as solve drops them.
  const auto usable = detail::usable_edges(g, o.type);
  const graph& edges = usable ? *usable : g;
  const std::int64_t n = edges.num_vertices();

  // The engine: Dijkstra in batches when asked, when auto picks Johnson, or when the matrix of
  // the plan auto would run cannot be kept in RAM; else that plan.
  std::optional<plan> batches;
  std::optional<plan> matrix;
  bool in_place = false; // the matrix is reduced where it is solved (a GPU)
  // One plan each way: a matrix too large for RAM is seen before planning (so auto analyses
  // no graph it will not solve), and auto's own Johnson plan becomes the batches' plan.
  const bool host_auto = o.backend == backend_kind::automatic || o.backend == backend_kind::cpu;
  const bool auto_batches = o.algorithm == algorithm_kind::automatic && host_auto;
  const std::string too_large = auto_batches ? matrix_cannot_fit(n, o.type) : std::string();
  // How the rows are made when they are: PHAST on large sparse integer graphs.
  const detail::row_engine engine =
      detail::choose_row_engine(edges, o.type, detail::current_tuning());
  const std::string rows_by(row_engine_name(engine));
  if (o.algorithm == algorithm_kind::johnson) {
    batches = batch_plan(edges, o, johnson_plan(n, o), "requested", engine);
  } else if (!too_large.empty()) {
    std::optional<plan> on_gpus;
    if (o.backend == backend_kind::automatic && engine != detail::row_engine::phast)
      on_gpus = gpus_reduce_in_place(edges, o, too_large);
    if (on_gpus) {
      matrix = std::move(on_gpus);
      in_place = true;
    } else {
      batches = batch_plan(edges, o, johnson_plan(n, o),
                           "auto: " + too_large + "; " + rows_by + " keeps no matrix", engine);
    }
  } else if (auto_batches && engine == detail::row_engine::phast) {
    // Before any matrix plan: on road-like graphs PHAST's rows beat the supernodal solve
    // (bench/results/metrics_phast_2026-11-28.csv), and the analysis would cost seconds.
    batches = batch_plan(
        edges, o, johnson_plan(n, o),
        "auto: a large sparse graph with integer weights; " + rows_by + " keeps no matrix", engine);
  } else {
    plan p = apsp::make_plan(edges, o);
    in_place = reduces_where_solved(p);
    const std::string why = matrix_does_not_fit(p);
    if (auto_batches && p.algorithm == algorithm_kind::johnson) {
      std::string reason = p.algorithm_reason;
      batches = batch_plan(edges, o, std::move(p), std::move(reason), engine);
    } else if (auto_batches && !why.empty()) {
      batches = batch_plan(edges, o, johnson_plan(n, o),
                           "auto: the " + std::to_string(n) + " x " + std::to_string(n) +
                               " matrix of " + to_string(p.run) + " would not fit in RAM (" + why +
                               "); " + rows_by + " keeps no matrix",
                           engine);
    } else {
      matrix = std::move(p);
    }
  }

  graph_metrics out;
  if (batches) {
    detail::row_engine ran = engine;
    APSP_EXPECTS(batches->fits, out_of_memory_error,
                 "the metrics do not fit: " + batches->reason);
    out = visit_dtype(o.type, [&](auto zero) {
      using T = decltype(zero);
      detail::metrics_accumulator<T> acc(n, options);
      detail::run_context ctx(o, n, facts.has_negative);
      try {
        ran = detail::dijkstra_rows<T>(edges, batches->block, engine, acc, ctx);
      } catch (const std::bad_alloc&) {
        throw out_of_memory_error("out of host memory while computing metrics");
      }
      return acc.finish();
    });
    if (ran != engine) { // the hierarchy outgrew its budget: say what ran
      std::string reason = batches->algorithm_reason +
                           "; the contraction hierarchy outgrew its budget, so " +
                           std::string(row_engine_name(ran)) + " ran";
      batches = batch_plan(edges, o, std::move(*batches), std::move(reason), ran);
    }
    out.executed_plan = std::move(*batches);
  } else if (in_place) {
    out = solve_and_reduce(g, edges, *matrix, o, options, facts);
    out.executed_plan = std::move(*matrix);
    out.host_matrix = false;
  } else {
    result r = apsp::solve(g, *matrix, o);
    out = reduce_any(r.distances(), options, detail::thread_count(o));
    out.executed_plan = r.executed_plan();
    out.host_matrix = true;
  } // the matrix is freed here
  out.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  return out;
}

std::uint64_t metrics_least_host_bytes(std::int64_t n, std::int64_t arcs,
                                       const solve_options& solve) {
  const auto vertices = static_cast<std::uint64_t>(std::max<std::int64_t>(n, 0));
  const auto threads = static_cast<std::uint64_t>(detail::thread_count(solve));
  return detail::add_bytes(
      dijkstra_rows_shared(vertices, static_cast<std::uint64_t>(std::max<std::int64_t>(arcs, 0))),
      dijkstra_rows_per_thread(vertices, solve.type) * threads);
}

} // namespace apsp
