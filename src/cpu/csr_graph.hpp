#pragma once
// The graph in compressed sparse rows, as Johnson's algorithm reads it: one adjacency list per
// vertex, parallel edges merged to their minimum, self-loops removed (a non-negative one changes
// no distance; a negative one is a negative cycle, recorded apart).

#include <cstdint>
#include <type_traits>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/matrix.hpp"

namespace apsp::cpu {

/// The type Johnson's algorithm computes in for output type T: 64-bit integers for the integer
/// types (exact, and room for reweighted lengths), double for the float types.
template <class T>
using johnson_key_t = std::conditional_t<std::is_integral_v<T>, std::int64_t, double>;

template <class W> struct csr_graph {
  std::int64_t n = 0;
  std::vector<std::int64_t> offsets; ///< n + 1 entries; the arcs of u are [offsets[u], offsets[u+1])
  std::vector<std::int32_t> targets;
  std::vector<W> weights;
  /// A vertex with a negative self-loop (a negative cycle on its own), or -1; and that loop's
  /// weight.
  std::int32_t negative_loop = -1;
  W negative_loop_weight = 0;

  [[nodiscard]] std::int64_t num_arcs() const noexcept {
    return static_cast<std::int64_t>(targets.size());
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
