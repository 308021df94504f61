#pragma once
// One pair's shortest path by Dijkstra from both ends at once (apsp::solve_pair): forward from
// the source over the arcs, backward from the target over the arcs turned around, until the
// smallest keys of the two queues add up to the best meeting found. On a grid or a road graph
// the two balls settle a few times fewer vertices than one search to the target would, and
// nothing of size n is filled but the labels.

#include <cstdint>
#include <functional>
#include <vector>

#include "cpu/csr_graph.hpp"

namespace apsp::cpu {

/// The arcs of a csr_graph turned around: reverse arc a runs from v to u for the forward arc
/// forward_arc[a], u -> v, with its weight.
template <class W> struct reverse_csr {
  std::vector<std::int64_t> offsets; ///< n + 1 entries, as csr_graph's
  std::vector<csr_arc<W>> arcs;      ///< target: the forward arc's tail
  std::vector<std::int64_t> forward_arc;
};

template <class W> [[nodiscard]] reverse_csr<W> reverse_of(const csr_graph<W>& g);

/// What the search found.
struct pair_search {
  bool reached = false;
  /// The forward arcs (indices into csr_graph::arcs) of the path, source first; empty when the
  /// target is unreachable or is the source.
  std::vector<std::int64_t> arcs;
  /// Vertices settled by the two searches together.
  std::int64_t settled = 0;
  /// keep_going said stop: `reached` and `arcs` mean nothing.
  bool cancelled = false;
};

/// A shortest path from `source` to `target` of `g`, whose weights must be >= 0 (reweighted by
/// potentials first where the graph's are not), and `r` = reverse_of(g). Keys are (length, arcs)
/// compared in that order, so of the shortest paths the one found has the fewest arcs; among
/// those, which one depends on the arc order only. `keep_going(settled)` is called every 65,536
/// settled vertices; the search stops (cancelled) when it returns false.
template <class W>
[[nodiscard]] pair_search
bidirectional_dijkstra(const csr_graph<W>& g, const reverse_csr<W>& r, std::int32_t source,
                       std::int32_t target, const std::function<bool(std::int64_t)>& keep_going);

} // namespace apsp::cpu
