#pragma once
// The oracle's full matrix for a test graph: the naive O(n^3) reference back end, which the
// unit tests of engines that keep no matrix (rows from sources, metrics) compare against.

#include "apsp/graph.hpp"
#include "apsp/options.hpp"
#include "apsp/result.hpp"
#include "apsp/solve.hpp"
#include "apsp/types.hpp"

namespace apsp::testing {

/// All-pairs distances of `g` in `type` by the reference back end's Floyd-Warshall.
inline result reference_solve(const graph& g, dtype type) {
  solve_options o;
  o.backend = backend_kind::reference;
  o.algorithm = algorithm_kind::floyd_warshall;
  o.type = type;
  return solve(g, o);
}

} // namespace apsp::testing
