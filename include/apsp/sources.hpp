#pragma once
/// @file sources.hpp
/// Shortest paths from a set of sources (SciPy's `indices=`): one row of n distances per
/// source, never the n x n matrix.

#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/options.hpp"
#include "apsp/types.hpp"

namespace apsp {

/// Which negative cycles refuse a solve from sources.
enum class cycle_scope {
  reachable,  ///< those reachable from a source, the only ones that change an answer (SciPy's
              ///< bellman_ford and dijkstra)
  whole_graph ///< any in the graph (SciPy's johnson)
};

struct source_options {
  /// Element type of the distances; integer types need whole weights and report "no path" as
  /// weight_traits<T>::infinity.
  dtype type = dtype::float64;
  /// Also return SciPy's predecessor rows.
  bool predecessors = false;
  /// CPU threads, spread across the sources; 0 = all hardware threads.
  int threads = 0;
  cycle_scope cycles = cycle_scope::reachable;
  /// Called after each group of sources ("round"); return false to cancel (cancelled_error).
  progress_callback progress;
};

/// Rows of distances, one per source, in the element type of source_options::type.
using any_rows = std::variant<std::vector<std::int32_t>, std::vector<float>,
                              std::vector<std::int64_t>, std::vector<double>>;

struct source_result {
  std::int64_t n = 0;
  /// The sources asked for, in the order asked (repeats kept).
  std::vector<std::int64_t> sources;
  /// sources.size() x n, row-major: row r holds the distances from sources[r] (infinity of the
  /// type where unreachable, 0 at the source).
  any_rows distances;
  /// Same shape: the vertex before t on a shortest path from sources[r], no_predecessor
  /// (-9999) at the source and where t is unreachable. Empty without
  /// source_options::predecessors.
  std::vector<std::int32_t> predecessors;
};

/// Shortest paths of `g` from each vertex in `sources` (0..n-1; repeats allowed): Bellman-Ford
/// potentials only when some reachable weight is negative, then Dijkstra from the sources on
/// all threads. Memory: the graph, the output rows and O(n) per thread.
/// Throws invalid_argument_error (a source out of range), overflow_risk_error and
/// invalid_input_error (integer types), negative_cycle_error (naming one cycle in order),
/// cancelled_error.
[[nodiscard]] source_result solve_from_sources(const graph& g,
                                               std::span<const std::int64_t> sources,
                                               const source_options& options = {});

} // namespace apsp
