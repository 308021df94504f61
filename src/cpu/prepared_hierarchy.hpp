#pragma once
// A graph's contraction hierarchy with what turns its distances back into the graph's: the one
// preparation behind apsp::solve_table's drivers::ch_table and apsp::hierarchy (a hierarchy
// built once, saved and loaded, for many tables).

#include <cstdint>
#include <vector>

#include "apsp/graph.hpp"
#include "cpu/contraction_hierarchy.hpp"

namespace apsp::cpu {

template <class T> struct prepared_hierarchy {
  contraction_hierarchy<T> ch;
  /// Bellman-Ford potentials in vertex order (empty: no weight was negative); a distance d of
  /// the hierarchy is d + h(t) - h(s) in the graph.
  std::vector<T> h;
};

/// The hierarchy of `g` for type T (int32 or int64) on `threads` threads (0: all): the weight
/// checks of every solve (overflow_risk_error, invalid_input_error), potentials where a weight
/// is negative (negative_cycle_error on every negative cycle), then the contraction. ch.complete
/// is false when the contraction outgrew its budget (a graph without small separators).
template <class T>
[[nodiscard]] prepared_hierarchy<T> prepare_hierarchy(const graph& g, int threads);

} // namespace apsp::cpu
