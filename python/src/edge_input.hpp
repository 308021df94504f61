#pragma once
// Edge-list input (SciPy sparse matrices, apsp.Graph) -> apsp::graph.

#include <cstdint>
#include <span>

#include "apsp/graph.hpp"

namespace apsp_py {

/// SciPy sparse semantics: every stored entry is an edge (explicit zeros included), duplicates
/// keep the minimum (done by the solve), +inf entries are not edges; NaN or -inf entries, and
/// indices outside 0..n-1, throw invalid_input_error. `directed == false` adds every edge in
/// both directions; `unweighted` makes every weight 1. Needs no GIL.
[[nodiscard]] apsp::graph graph_from_edges(std::int64_t n, std::span<const std::int64_t> rows,
                                           std::span<const std::int64_t> cols,
                                           std::span<const double> weights, bool directed,
                                           bool unweighted);

/// The same `directed` / `unweighted` rules applied to an existing graph.
[[nodiscard]] apsp::graph transform_graph(const apsp::graph& g, bool directed, bool unweighted);

} // namespace apsp_py
