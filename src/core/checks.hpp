#pragma once
// Input checks and result post-processing shared by every back end.

#include <cstdint>
#include <optional>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/matrix.hpp"
#include "apsp/options.hpp"
#include "apsp/types.hpp"
#include "core/round_schedule.hpp"

namespace apsp::detail {

/// What the pre-solve checks learned about the weights.
struct weight_facts {
  bool has_negative = false;
  /// Some finite weight has a fraction (float types: the GPU's tagged path slices, which need
  /// whole numbers, are then not tried).
  bool has_fraction = false;
  /// Upper bound on |d[i][j]| for every finite distance when there is no negative cycle.
  double distance_bound = 0;
};

/// Bound on |length| of every shortest path, as tight as the checks for `type` need (packed
/// 16-bit arithmetic too with narrow_requested): (n-1) * max|w|; else the sum of the n-1 largest
/// per-vertex maxima of |w| over out-edges (positive self-loops left out); else, only where the
/// solve would be refused otherwise, the same with parallel edges taken as the lightest of
/// them. O(m), parallel, plus a sort of the edges of the vertices that have parallel edges.
[[nodiscard]] weight_facts analyze_weights(const graph& g, dtype type, bool narrow_requested);
/// `g` without the edges whose weight `type` cannot hold or reads as no edge (int32 and int64
/// from their no-path values on, float32 beyond its largest value): once check_representable
/// has passed on analyze_weights' bound, each of them is a positive self-loop or has a lighter
/// parallel edge, so no distance or path changes. nullopt when there is none (the usual case).
[[nodiscard]] std::optional<graph> usable_edges(const graph& g, dtype type);
/// The bound from which check_representable refuses `type`.
[[nodiscard]] double refused_from(dtype type, bool has_negative);
/// The smallest bound below which no check can fail for `type` (see check_representable and the
/// packed 16-bit test), so analyze_weights can stop at the cheap bound.
[[nodiscard]] double bound_needed(dtype type, bool narrow_requested);
/// Same for a dense initial matrix: the sum of the n-1 largest per-row maxima of |finite
/// off-diagonal entry|. Parallel over rows; refuses entries that are neither weights nor the
/// no-path value (invalid_input_error naming the first).
[[nodiscard]] weight_facts analyze_weights(const any_matrix& m);

/// Finite off-diagonal entries of a dense initial matrix: its arcs, for the algorithm choice.
[[nodiscard]] std::int64_t count_arcs(const any_matrix& m);

/// Refuses integer solves that could overflow (throws overflow_risk_error with advice) and
/// non-integral weights for integer types (invalid_input_error).
void check_representable(const weight_facts& facts, dtype type, bool all_integral);

/// Fills `d` from `g`: infinity everywhere, 0 on the diagonal, the minimum weight per (u, v),
/// and min(0, w) for self-loops. Parallel over rows.
void fill_initial(const graph& g, any_matrix& d);

/// fill_initial for the tiles one process holds: `local` has layout.local_rows() rows of
/// layout.local_cols() values.
/// With `relabel`, vertex v of the graph is row and column relabel[v] of the matrix (the
/// supernodal solver fills its matrix in elimination order).
template <class T>
void fill_initial_tiles(const graph& g, const grid_layout& layout, T* local,
                        const std::int32_t* relabel = nullptr);

/// Diagonal entries d[v][v] < 0 among a process's tiles: how many, and the first `kept`
/// vertices (0-based, increasing).
struct negative_diagonal {
  static constexpr std::size_t kept = 64;
  std::int64_t count = 0;
  std::vector<std::int64_t> first;
};
template <class T>
[[nodiscard]] negative_diagonal find_negative_diagonal(const grid_layout& layout, const T* local);
/// Throws negative_cycle_error naming them when count > 0.
void throw_negative_cycle(const negative_diagonal& found);

/// normalize_unreachable for a process's tiles (via: null or the same shape).
template <class T>
void normalize_unreachable_tiles(const grid_layout& layout, T* local, std::int32_t* via,
                                 const weight_facts& facts);

/// Sets the diagonal to min(0, d[i][i]) (dense inputs).
void clamp_diagonal(any_matrix& d);

/// Throws negative_cycle_error when some d[v][v] < 0.
void check_negative_cycles(const any_matrix& d);

/// Integer types with negative weights: sums with infinity can drift below infinity; every value
/// above the distance bound is unreachable, so reset it to infinity (and its via to none).
void normalize_unreachable(any_matrix& d, via_matrix* via, const weight_facts& facts);

} // namespace apsp::detail
