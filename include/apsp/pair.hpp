#pragma once
/// @file pair.hpp
/// The shortest path of one pair by one search: memory O(n + m), never a row of n distances per
/// source and never the n x n matrix.

#include <cstdint>
#include <variant>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "apsp/types.hpp"

namespace apsp {

struct pair_options {
  /// Element type of the distance; integer types need whole weights and report "no path" as
  /// weight_traits<T>::infinity.
  dtype type = dtype::float64;
  /// Called every 65,536 vertices settled (rounds_done: those settled, rounds_total: n); return
  /// false to cancel (cancelled_error).
  progress_callback progress;
};

/// One distance in the element type of pair_options::type.
using any_weight = std::variant<std::int32_t, float, std::int64_t, double>;

struct pair_result {
  std::int64_t source = 0;
  std::int64_t target = 0;
  /// The length of a shortest path; weight_traits<T>::infinity when target is unreachable.
  any_weight distance;
  /// Its vertices, [source, ..., target]; [source] when source == target; empty when target
  /// is unreachable. Of the shortest paths, one with the fewest arcs (docs/semantics.md).
  std::vector<std::int64_t> path;
  /// Vertices settled by the two searches together (what the search cost; at most 2n).
  std::int64_t settled = 0;
  /// The plan that ran (drivers::pair_search), for reporting.
  plan ran;

  [[nodiscard]] bool reachable() const noexcept { return !path.empty(); }
};

/// The shortest path from `source` to `target` by a bidirectional Dijkstra (forward from the
/// source, backward from the target, until they meet), after Bellman-Ford potentials when a
/// weight is negative. The search runs on one thread. Memory: the graph in compressed rows both
/// ways and O(n). Throws invalid_argument_error (a vertex out of range, too many vertices),
/// overflow_risk_error and invalid_input_error (integer types), negative_cycle_error (any
/// negative cycle of the graph, as solve() refuses it, naming one cycle in order),
/// cancelled_error.
/// It runs the plan make_plan(g, options, plan_request::pair()) makes (apsp/solve.hpp).
[[nodiscard]] pair_result solve_pair(const graph& g, std::int64_t source, std::int64_t target,
                                     const pair_options& options = {});

/// The same search by a plan made for it (make_plan(g, o, plan_request::pair()) with
/// o.type = options.type), run as it is; invalid_argument_error for another driver, type or
/// graph (a plan without potentials for a graph with a negative weight).
[[nodiscard]] pair_result solve_pair(const graph& g, std::int64_t source, std::int64_t target,
                                     const plan& p, const pair_options& options = {});

/// The host memory solve_pair takes for `n` vertices and `arcs` arcs in `type`: the edge list,
/// its compressed rows both ways and the two searches' labels (their queues' worst case left
/// out). The CLI refuses with it before reading a file whose header declares n (arcs 0 then).
[[nodiscard]] std::uint64_t solve_pair_host_bytes(std::int64_t n, std::int64_t arcs,
                                                  dtype type) noexcept;

} // namespace apsp
