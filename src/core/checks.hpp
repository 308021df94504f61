#pragma once
// Input checks and result post-processing shared by every back end.

#include <cstdint>
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
  /// Upper bound on |d[i][j]| for every finite distance when there is no negative cycle.
  double distance_bound = 0;
};

/// Bound: (n-1) * max|w| when that is below `enough`, else the tighter sum of the n-1 largest |w|
/// (a shortest path has at most n-1 edges). Parallel, O(m).
[[nodiscard]] weight_facts analyze_weights(const graph& g, double enough);
/// The smallest bound below which no check can fail for `type` (see check_representable and the
/// packed 16-bit test), so analyze_weights can stop at the cheap bound.
[[nodiscard]] double bound_needed(dtype type, bool narrow_requested);
/// Same for a dense initial matrix: (n-1) * max |finite off-diagonal entry|.
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
