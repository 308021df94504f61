// apsp::compute_metrics: runs the planner's choice (core/planner.hpp: rows in batches, or a
// matrix plan solved into RAM or reduced where it is solved) and reduces its rows
// (core/metrics_accumulator.hpp).

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
#include "core/planner.hpp"
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

  // The engine, from the planner (core/planner.hpp): rows, or a matrix solved into RAM or
  // reduced where it is solved.
  plan chosen = detail::plan_metrics(edges, o);
  graph_metrics out;
  if (const std::optional<detail::row_engine> engine = detail::row_engine_of(chosen.run)) {
    const std::int64_t batch = chosen.block;
    APSP_EXPECTS(chosen.fits, out_of_memory_error, "the metrics do not fit: " + chosen.reason);
    detail::row_engine ran = *engine;
    out = visit_dtype(o.type, [&](auto zero) {
      using T = decltype(zero);
      detail::metrics_accumulator<T> acc(n, options);
      detail::run_context ctx(o, n, facts.has_negative);
      try {
        ran = detail::dijkstra_rows<T>(edges, batch, *engine, acc, ctx);
      } catch (const std::bad_alloc&) {
        throw out_of_memory_error("out of host memory while computing metrics");
      }
      return acc.finish();
    });
    if (ran != *engine) // the hierarchy outgrew its budget: say what ran
      chosen = detail::rows_plan_as_ran(edges, o, std::move(chosen), ran);
    out.executed_plan = std::move(chosen);
  } else if (detail::reduced_where_solved(chosen)) {
    out = solve_and_reduce(g, edges, chosen, o, options, facts);
    out.executed_plan = std::move(chosen);
    out.host_matrix = false;
  } else {
    result r = apsp::solve(g, chosen, o);
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
      detail::dijkstra_rows_shared(vertices, static_cast<std::uint64_t>(std::max<std::int64_t>(arcs, 0))),
      detail::dijkstra_rows_per_thread(vertices, solve.type) * threads);
}

} // namespace apsp
