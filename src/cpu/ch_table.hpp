#pragma once
// Many-to-many distance tables on a contraction hierarchy, by the bucket method (Knopp, Sanders,
// Schultes, Schulz, Wagner 2007): a backward upward search from every target leaves (target,
// distance) in the bucket of each vertex it reaches; a forward upward search from every source
// scans the buckets of the vertices it reaches. Each shortest path in a hierarchy climbs to one
// highest vertex and comes down, so the least sum over the meeting vertices is the distance,
// exactly (integer weights: sums are exact), for a table that costs |S| + |T| small searches and
// the bucket scans, not |S| searches of the whole graph.

#include <cstdint>
#include <span>
#include <vector>

#include "cpu/contraction_hierarchy.hpp"

namespace apsp::cpu {

/// One vertex a target's backward search reached: which target, and how far.
template <class T> struct bucket_entry {
  std::int32_t target;
  T dist;
};

/// The buckets by position: entries [offsets[p], offsets[p + 1]) met position p.
template <class T> struct ch_buckets {
  std::vector<std::int64_t> offsets;
  std::vector<bucket_entry<T>> entries;
};

/// The |sources| x |targets| distances (row-major into `out`) of the graph whose hierarchy is
/// `ch` (reweighted by potentials `h` in vertex order when not empty: each value is then turned
/// back, d + h(t) - h(s)); weight_traits<T>::infinity where no path leads. Vertices are ids of
/// the graph (0..n-1), repeats allowed. Searches run on `threads` threads (0: all), the targets'
/// first, then the sources'. Memory: the buckets, one (target, distance) for each vertex a
/// target's search reaches and does not stall, and O(n) per thread. T: int32 or int64.
/// `stall_on_demand`: the searches stall (upward_search.hpp); the table is the same either way.
template <class T>
void ch_table(const contraction_hierarchy<T>& ch, const std::vector<T>& h,
              std::span<const std::int32_t> sources, std::span<const std::int32_t> targets,
              int threads, T* out, bool stall_on_demand = true);

/// ch_table in two steps, so that the rows can be made a tile of sources at a time: the
/// targets' buckets once, then the rows of any sources (row-major into `out`, sources.size() x
/// targets.size()), with the same targets and stalling.
template <class T>
[[nodiscard]] ch_buckets<T> ch_table_buckets(const contraction_hierarchy<T>& ch,
                                             std::span<const std::int32_t> targets, int threads,
                                             bool stall_on_demand = true);
template <class T>
void ch_table_rows(const contraction_hierarchy<T>& ch, const ch_buckets<T>& b,
                   const std::vector<T>& h, std::span<const std::int32_t> sources,
                   std::span<const std::int32_t> targets, int threads, T* out,
                   bool stall_on_demand = true);

} // namespace apsp::cpu
