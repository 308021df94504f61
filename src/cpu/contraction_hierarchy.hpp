#pragma once
// A contraction hierarchy of a directed graph with non-negative integer weights, laid out for
// PHAST's sweeps (Delling, Goldberg, Nowatzyk, Werneck 2011): vertices renumbered so that a
// single pass in increasing position visits them in decreasing rank, and the arcs of the
// hierarchy split into upward ones (searched from each source) and downward ones (read by the
// sweep as the incoming arcs of their lower end).

#include <cstdint>
#include <vector>

#include "cpu/csr_graph.hpp"

namespace apsp::cpu {

/// One arc of the hierarchy, in sweep positions: its other end and its weight.
template <class W> struct ch_arc {
  std::int32_t other;
  W weight;
};

template <class W> struct contraction_hierarchy {
  std::int64_t n = 0;
  /// position[v]: where vertex v is in the sweep (by level, highest first); vertex_at inverts it.
  std::vector<std::int32_t> position;
  std::vector<std::int32_t> vertex_at;
  /// Upward arcs of position p: [up_offsets[p], up_offsets[p + 1]), heads at positions < p.
  std::vector<std::int64_t> up_offsets;
  std::vector<ch_arc<W>> up_arcs;
  /// Downward arcs into position p: [down_offsets[p], down_offsets[p + 1]), tails at positions
  /// < p, in increasing order.
  std::vector<std::int64_t> down_offsets;
  std::vector<ch_arc<W>> down_arcs;
  /// Shortcut arcs added by the contraction (beyond the graph's own arcs).
  std::int64_t shortcuts = 0;
  /// Distinct levels (the sweep's layers).
  std::int32_t levels = 0;
  /// False when the contraction stopped at its shortcut budget: the hierarchy is then unusable.
  bool complete = false;
};

struct contraction_limits {
  /// Vertices a witness search settles before it gives up (a shortcut is then added): while
  /// contracting, and while only estimating a vertex's priority.
  int settle_limit = 500;
  int estimate_settle_limit = 60;
  /// The contraction gives up (complete = false) once it has added more shortcuts than this
  /// many per arc of the graph, plus one per vertex: graphs without small separators.
  double shortcut_budget = 3.0;
  /// Threads that contract (0: omp_get_max_threads(), the cap of the run that calls). The
  /// hierarchy is the same on any number.
  int threads = 0;
};

/// The hierarchy of `g` (weights >= 0). Arcs and shortcuts weighing `cap` or more are left out:
/// the caller guarantees that no shortest distance reaches `cap`, and cap + cap must fit in W.
/// Vertices are contracted in rounds on `limits.threads` threads: each round takes every vertex
/// whose priority (edge difference plus contracted neighbours, then a fixed pseudo-random order)
/// is below that of each remaining vertex within two arcs, and its neighbours' priorities are
/// recomputed after it.
/// A shortcut u -> w replaces u -> v -> w only when a witness search from u avoiding the round's
/// vertices, bounded by `limits`, finds no path at most as short; parallel arcs keep the lighter
/// one.
template <class W>
[[nodiscard]] contraction_hierarchy<W>
build_contraction_hierarchy(const csr_graph<W>& g, W cap, const contraction_limits& limits = {});

} // namespace apsp::cpu
