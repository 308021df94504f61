#pragma once
// RPHAST (Delling, Goldberg, Werneck 2011, "Faster batched shortest paths in road networks"):
// PHAST's downward sweep restricted to what a set of targets needs. The targets' upward closure
// (every position from which a downward path leads to a target: what their backward upward
// searches reach) is closed under the sweep's reads, so sweeping only it, in sweep order, gives
// the targets' distances exactly; each source batch costs its upward searches and one pass over
// the closure's arcs, K sources a pass in SIMD lanes (cpu/downward_sweep.hpp).
//
// The data is kept in plain host structures, so that another executor (a GPU's sweep) can take
// them as they are: rphast_targets (once per target set) and rphast_seeds (once per batch of
// sources).

#include <cstdint>
#include <span>
#include <vector>

#include "cpu/contraction_hierarchy.hpp"
#include "cpu/upward_search.hpp"

namespace apsp::cpu {

/// The restricted sweep of one target set, in "slots": the closure's positions renumbered
/// 0..size()-1 in sweep order (increasing hierarchy position, so decreasing rank).
template <class T> struct rphast_targets {
  /// position[s]: the hierarchy position of slot s (increasing in s).
  std::vector<std::int32_t> position;
  /// Downward arcs into slot s: down_arcs[down_offsets[s] .. down_offsets[s + 1]), each one's
  /// `other` the slot of its upper end (< s) and its weight (reweighted by the potentials when
  /// the hierarchy is). down_offsets has size() + 1 values.
  std::vector<std::int64_t> down_offsets;
  std::vector<ch_arc<T>> down_arcs;
  /// The slot of each target as asked (repeats kept): column j of the table reads slot
  /// target_slot[j].
  std::vector<std::int32_t> target_slot;
  /// slot_of[p]: the slot of hierarchy position p, -1 outside the closure (ch.n values). Used
  /// to keep only the upward searches' positions that the sweep reads.
  std::vector<std::int32_t> slot_of;

  [[nodiscard]] std::int64_t size() const noexcept {
    return static_cast<std::int64_t>(position.size());
  }
};

/// The closure of `targets` (vertex ids, repeats allowed) in `ch`: a breadth-first search from
/// their positions over the downward arcs read from their lower end, then the arcs renumbered.
/// Memory: 4 bytes a vertex of the graph (slot_of), and the closure's positions and arcs.
template <class T>
[[nodiscard]] rphast_targets<T> rphast_select(const contraction_hierarchy<T>& ch,
                                              std::span<const std::int32_t> targets);

/// The upward searches of a batch of sources, as the sweep starts from them: for source k,
/// seeds [offsets[k], offsets[k + 1]) of `slot` and `dist` (the slots of the closure its
/// search reached without stalling, and their distances in the hierarchy's weights).
template <class T> struct rphast_seeds {
  std::vector<std::int64_t> offsets;
  std::vector<std::int32_t> slot;
  std::vector<T> dist;
};

/// Fills `out` with the seeds of `sources` (vertex ids): a forward upward search from each, with
/// stall-on-demand; positions outside the closure are dropped (no downward path from them
/// reaches a target). `search` is scratch of ch.n vertices, kept between calls.
template <class T>
void rphast_seeds_of(const contraction_hierarchy<T>& ch, const rphast_targets<T>& sel,
                     std::span<const std::int32_t> sources, upward_search<T>& search,
                     rphast_seeds<T>& out);

/// The sweep's lanes when not asked for: 16 for int32, 8 for int64 (as PHAST's).
template <class T> [[nodiscard]] constexpr int rphast_default_lanes() noexcept {
  return sizeof(T) == 4 ? 16 : 8;
}

/// Rows of the table: the distances from `sources` (vertex ids) to the targets `sel` was made
/// for, row-major into `out` (sources.size() x sel.target_slot.size()), in the graph's weights:
/// with potentials `h` (vertex order; empty: none) each value is d + h(t) - h(s);
/// weight_traits<T>::infinity where no path leads. `target_vertex[j]` is target j's vertex id
/// (for h). `lanes` sources a sweep (1, 4, 8 or 16), batches on `threads` threads (0: all).
/// Memory per thread: the closure's size times `lanes` distances, and an upward search's O(n).
template <class T>
void rphast_rows(const contraction_hierarchy<T>& ch, const rphast_targets<T>& sel,
                 const std::vector<T>& h, std::span<const std::int32_t> sources,
                 std::span<const std::int32_t> target_vertex, int threads, int lanes, T* out);

} // namespace apsp::cpu
