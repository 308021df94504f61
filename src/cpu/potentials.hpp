#pragma once
// Johnson's first phase: vertex potentials h with w(u,v) + h(u) - h(v) >= 0 for every arc, so
// that Dijkstra can run on the reweighted graph; or the negative cycle that makes them impossible.

#include <vector>

#include "apsp/error.hpp"
#include "apsp/graph.hpp"

#include "cpu/csr_graph.hpp"

namespace apsp::cpu {

/// Shortest distances from a virtual source joined to every vertex by a 0-weight arc, by a
/// FIFO label-correcting Bellman-Ford (SPFA). Every n relaxations, and at once when a label
/// falls below what a simple path can weigh, the predecessor graph is searched for a cycle: one
/// exists there only on a negative cycle, and a negative cycle puts one there eventually, so the
/// search both stops the run and names the cycle. Labels stay within a few times the distance
/// bound, so they cannot overflow however heavy the cycle's arcs. Throws
/// negative_cycle_error with the cycle's vertices in order (also for a negative self-loop).
template <class W> [[nodiscard]] std::vector<W> johnson_potentials(const csr_graph<W>& g);

/// After Floyd-Warshall found negative diagonal entries (`found`, which names them): the same
/// error with one negative cycle of `g` in order and its weight, found by the search above
/// (computed in double). Rethrows `found` unchanged when no cycle turns up (a float solve's
/// rounding). So every back end reports a negative cycle the same way.
[[noreturn]] void rethrow_with_cycle(const graph& g, const negative_cycle_error& found);

/// Rewrites the weights as w(u,v) + (h(u) - h(v)), clamped at 0 (float rounding can leave
/// -1e-17).
template <class W> void reweight(csr_graph<W>& g, const std::vector<W>& h);

} // namespace apsp::cpu
