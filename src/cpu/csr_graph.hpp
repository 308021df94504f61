#pragma once
// The graph in compressed sparse rows, as Johnson's algorithm reads it: one adjacency list per
// vertex, parallel edges merged to their minimum, self-loops removed (a non-negative one changes
// no distance; a negative one is a negative cycle, recorded apart).

#include <compare>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/matrix.hpp"

namespace apsp::cpu {

/// The type Johnson's algorithm computes in for output type T: T itself for the integer types,
/// double for the float types. Integers are exact, and int32 has room: the overflow check
/// admits a graph only when 3B < infinity = 2^30 - 1 (B bounds every |distance|, docs/
/// semantics.md), so potentials (|h| <= B), reweighted arcs (<= 3B), reweighted distances
/// (<= 3B) and a relaxation's sum (<= 6B) all stay below 2^31 - 1, the "unreached" mark.
/// 4-byte keys halve the cache footprint of the per-source arrays against int64.
template <class T>
using johnson_key_t = std::conditional_t<std::is_integral_v<T>, T, double>;

/// An arc's head and weight side by side: relaxing u's arcs reads one stream (8 bytes an arc
/// for int32), where separate arrays would cost two cache misses per adjacency list.
template <class W> struct csr_arc {
  std::int32_t target;
  W weight;
  friend bool operator==(const csr_arc&, const csr_arc&) = default;
  friend auto operator<=>(const csr_arc&, const csr_arc&) = default;
};

template <class W> struct csr_graph {
  std::int64_t n = 0;
  std::vector<std::int64_t> offsets; ///< n + 1 entries; the arcs of u are [offsets[u], offsets[u+1])
  std::vector<csr_arc<W>> arcs;
  /// A vertex with a negative self-loop (a negative cycle on its own), or -1; and that loop's
  /// weight.
  std::int32_t negative_loop = -1;
  W negative_loop_weight = 0;
  /// Float weights once reweighted (reweight): each arc's weight as given, in arc order, so that
  /// Dijkstra adds up the real weights of the paths it picks instead of subtracting potentials
  /// (which keep only their own precision). Empty otherwise.
  std::vector<W> original_weights;

  [[nodiscard]] std::int64_t num_arcs() const noexcept {
    return static_cast<std::int64_t>(arcs.size());
  }
};

/// From the edge list. Weights are first converted to T, as Floyd-Warshall's initial matrix
/// holds them, so both algorithms see the same numbers.
template <class T> [[nodiscard]] csr_graph<johnson_key_t<T>> csr_from_edges(const graph& g);

/// From an initial distance matrix (solve_dense): every finite off-diagonal entry is an arc, a
/// negative diagonal entry a negative self-loop.
template <class T>
[[nodiscard]] csr_graph<johnson_key_t<T>> csr_from_matrix(const dense_matrix<T>& d);

} // namespace apsp::cpu
