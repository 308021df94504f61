// apsp::solve_pair: the plan of one pair (drivers::pair_search, core/pair_planner.cpp) run as it
// is: the checks every solve makes, the graph in compressed rows both ways, Johnson's potentials
// when the plan says a weight is negative (over the whole graph, so that a negative cycle
// anywhere refuses the pair as it refuses solve()), then one bidirectional search.

#include "apsp/pair.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "core/checks.hpp"
#include "cpu/bidirectional_dijkstra.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/potentials.hpp"

namespace apsp {
namespace {

/// The search on `edges` (already checked for T) and the path's length in T, the sum of its
/// arcs' own weights from the source on (as Dijkstra from the source adds them up).
template <class T>
pair_result search(const graph& edges, std::int64_t source, std::int64_t target, bool negative,
                   const pair_options& options) {
  using W = cpu::johnson_key_t<T>;
  using Sum = std::conditional_t<std::is_integral_v<T>, std::int64_t, double>;
  auto g = cpu::csr_from_edges<T>(edges);
  std::vector<W> h;
  if (negative) {
    h = cpu::johnson_potentials(g);
    cpu::reweight(g, h);
  }
  pair_result out;
  out.source = source;
  out.target = target;
  out.distance = weight_traits<T>::infinity;
  if (source == target) {
    out.distance = T{0};
    out.path = {source};
    return out;
  }
  const auto started = std::chrono::steady_clock::now();
  const auto keep_going = [&](std::int64_t settled) {
    if (!options.progress)
      return true;
    progress_info info;
    info.rounds_done = settled;
    info.rounds_total = g.n;
    info.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return options.progress(info);
  };
  const cpu::pair_search found =
      cpu::bidirectional_dijkstra(g, cpu::reverse_of(g), static_cast<std::int32_t>(source),
                                  static_cast<std::int32_t>(target), keep_going);
  out.settled = found.settled;
  if (found.cancelled) {
    throw cancelled_error("cancelled by the progress callback (after " +
                          std::to_string(found.settled) + " vertices settled)");
  }
  if (!found.reached)
    return out;
  out.path.reserve(found.arcs.size() + 1);
  out.path.push_back(source);
  Sum length{};
  std::int64_t u = source;
  for (const std::int64_t a : found.arcs) {
    const auto& arc = g.arcs[static_cast<std::size_t>(a)];
    if (!g.original_weights.empty()) { // float weights, reweighted
      length += static_cast<Sum>(g.original_weights[static_cast<std::size_t>(a)]);
    } else if (!h.empty()) { // integers, reweighted exactly: w + h(u) - h(v)
      length += static_cast<Sum>(arc.weight) - static_cast<Sum>(h[static_cast<std::size_t>(u)]) +
                static_cast<Sum>(h[static_cast<std::size_t>(arc.target)]);
    } else {
      length += static_cast<Sum>(arc.weight);
    }
    u = arc.target;
    out.path.push_back(u);
  }
  out.distance = static_cast<T>(length);
  return out;
}

} // namespace

pair_result solve_pair(const graph& g, std::int64_t source, std::int64_t target,
                       const pair_options& options) {
  solve_options o;
  o.type = options.type;
  return solve_pair(g, source, target, make_plan(g, o, plan_request::pair()), options);
}

pair_result solve_pair(const graph& g, std::int64_t source, std::int64_t target, const plan& p,
                       const pair_options& options) {
  const std::int64_t n = g.num_vertices();
  APSP_EXPECTS(n < (std::int64_t{1} << 31), invalid_argument_error,
               "solve_pair handles at most 2^31 - 1 vertices");
  for (const std::int64_t v : {source, target}) {
    APSP_EXPECTS(v >= 0 && v < n, invalid_argument_error,
                 "vertex " + std::to_string(v) + " is not a vertex of the graph (0.." +
                     std::to_string(n - 1) + ")");
  }
  const auto* how = std::get_if<drivers::pair_search>(&p.run);
  APSP_EXPECTS(how != nullptr, invalid_argument_error,
               "solve_pair runs a plan for one pair, not " + to_string(p.run));
  APSP_EXPECTS(p.n == n && p.type == options.type, invalid_argument_error,
               "the pair's plan was made for another problem (" + std::to_string(p.n) +
                   " vertices, " + std::string(to_string(p.type)) + "), not for this one (" +
                   std::to_string(n) + " vertices, " + std::string(to_string(options.type)) +
                   ")");
  const auto summary = g.summarize_weights();
  const auto facts = detail::analyze_weights(g, options.type, false);
  APSP_EXPECTS(how->potentials || !facts.has_negative, invalid_argument_error,
               "the pair's plan was made for a graph without negative weights");
  detail::check_representable(facts, options.type, summary.all_integral);
  // Edges the type cannot hold change no distance (see usable_edges): dropped before the cast.
  const std::optional<graph> usable = detail::usable_edges(g, options.type);
  const graph& edges = usable ? *usable : g;
  pair_result r = visit_dtype(options.type, [&](auto zero) {
    return search<decltype(zero)>(edges, source, target, how->potentials, options);
  });
  r.ran = p;
  return r;
}

} // namespace apsp
