#pragma once
// The symbolic side of the supernodal Floyd-Warshall (docs/sparse.md, "Supernodal
// Floyd-Warshall"): a fill-reducing nested-dissection order (METIS), its elimination tree in
// postorder, and the supernodes, each one dense block step of the numeric phase.
//
// Why it is exact: relabel the vertices so that the pivot order is 0, 1, ..., n-1. When pivot k
// is reached, D[i][k] is finite only for i joined to k by a path whose interior is < k, in the
// symmetrised graph: i in the elimination subtree of k (a contiguous label range once the tree
// is postordered) or i in struct(L[:, k]), the below-diagonal pattern of column k of the
// Cholesky factor (the fill-path theorem). Pivot k changes nothing outside those rows and
// columns, so Floyd-Warshall restricted to them gives the same matrix with far fewer updates.

#include <cstdint>
#include <string>
#include <vector>

namespace apsp::cpu {

/// One block step: pivots `members` (labels, in elimination order, the top column last) over
/// the rows and columns [first, top] + ancestors (all labels > top, ascending).
struct supernode_step {
  std::vector<std::int32_t> members;
  std::int32_t first = 0;
  std::int64_t ancestors_begin = 0; ///< into elimination_plan::ancestors
  std::int64_t ancestors_end = 0;
  [[nodiscard]] std::int32_t top() const { return members.back(); }
  [[nodiscard]] std::int64_t rows() const {
    return static_cast<std::int64_t>(top()) - first + 1 + (ancestors_end - ancestors_begin);
  }
  /// |members| x rows^2: the min-plus updates of the step.
  [[nodiscard]] double updates() const {
    const auto r = static_cast<double>(rows());
    return static_cast<double>(members.size()) * r * r;
  }
};

struct elimination_plan {
  std::int64_t n = 0;
  /// order[p] = the vertex (0-based id of the graph) eliminated p-th; label[v] its inverse.
  std::vector<std::int32_t> order;
  std::vector<std::int32_t> label;
  std::vector<supernode_step> steps; ///< in a topological order of the elimination tree
  /// struct(L[:, k]) of every column, concatenated (4 bytes per entry of the factor's
  /// pattern); each step's ancestors are the range of its top column.
  std::vector<std::int32_t> ancestors;
  double updates = 0;       ///< sum of the steps' updates
  std::int64_t widest = 0;  ///< the most pivots in one step
  std::string order_name;   ///< "METIS nested dissection", or why another order was used
  double seconds = 0;       ///< the analysis' wall time (ordering and symbolic steps)
};

/// Whether this build has METIS (libmetis-dev); without it the order is the natural one, which
/// is correct but saves little.
[[nodiscard]] bool have_metis() noexcept;

/// The cost of the analysis bounded: returns an empty optional-like plan (steps empty, n set,
/// updates = +infinity) when the Cholesky pattern would exceed `max_fill` entries (a graph
/// without small separators, where the supernodal method cannot pay). `heads[a]`, `tails[a]`:
/// the arcs (direction and duplicates do not matter; self-loops are ignored).
[[nodiscard]] elimination_plan plan_elimination(std::int64_t n,
                                                const std::vector<std::int32_t>& heads,
                                                const std::vector<std::int32_t>& tails,
                                                std::int64_t max_fill);

} // namespace apsp::cpu
