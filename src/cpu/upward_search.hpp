#pragma once
// The upward searches of a contraction hierarchy (PHAST's seeds, a table's buckets): Dijkstra
// from one position over one half of the hierarchy, with scratch kept between runs.

#include <cstdint>
#include <vector>

#include "cpu/contraction_hierarchy.hpp"
#include "cpu/dijkstra_queues.hpp"

namespace apsp::cpu {

/// Dijkstra from one position over one half of the hierarchy (upward arcs: forward; downward
/// arcs read from their lower end: backward), run to the end: no bound can stop a search whose
/// meeting vertex is not known yet. Afterwards reached() holds every position it reached, and
/// dist(p) its distance there, until the next run.
template <class T> class upward_search {
public:
  upward_search(std::int64_t n, T cap)
      : cap_(cap), dist_(static_cast<std::size_t>(n), cap),
        stalled_(static_cast<std::size_t>(n), 0), heap_(n) {}

  ///
  /// With `stall` (the other half: for a search over the upward arcs, the downward arcs into
  /// each position; for one over the downward arcs, the upward arcs out of it), stall-on-demand
  /// (Schultes, Sanders 2007): a position popped at distance d whose other-half arc from a
  /// reached position x gives dist(x) + w < d is stalled, its arcs not followed, as d is then
  /// above its true distance, so no shortest path climbs through it; stalled(p) says so.
  void run(const std::vector<std::int64_t>& offsets, const std::vector<ch_arc<T>>& arcs,
           std::int32_t start, const std::vector<std::int64_t>* stall_offsets = nullptr,
           const std::vector<ch_arc<T>>* stall_arcs = nullptr) {
    for (const std::int32_t v : reached_) {
      dist_[static_cast<std::size_t>(v)] = cap_;
      stalled_[static_cast<std::size_t>(v)] = 0;
    }
    reached_.clear();
    heap_.clear();
    dist_[static_cast<std::size_t>(start)] = T{0};
    reached_.push_back(start);
    heap_.push(T{0}, start);
    while (!heap_.empty()) {
      const auto [du, u] = heap_.pop();
      const auto ui = static_cast<std::size_t>(u);
      if (stall_offsets != nullptr && stalls(*stall_offsets, *stall_arcs, ui, du)) {
        stalled_[ui] = 1;
        continue;
      }
      for (std::int64_t a = offsets[ui]; a < offsets[ui + 1]; ++a) {
        const auto& arc = arcs[static_cast<std::size_t>(a)];
        const T candidate = du + arc.weight; // both below cap, and cap + cap fits T
        T& slot = dist_[static_cast<std::size_t>(arc.other)];
        if (candidate < slot && candidate < cap_) {
          if (slot == cap_)
            reached_.push_back(arc.other);
          slot = candidate;
          heap_.push(candidate, arc.other);
        }
      }
    }
  }

  [[nodiscard]] const std::vector<std::int32_t>& reached() const noexcept { return reached_; }
  [[nodiscard]] T dist(std::int32_t p) const noexcept { return dist_[static_cast<std::size_t>(p)]; }
  [[nodiscard]] bool stalled(std::int32_t p) const noexcept {
    return stalled_[static_cast<std::size_t>(p)] != 0;
  }

private:
  /// Whether an other-half arc into `u` from a reached position shows it nearer than `du`.
  bool stalls(const std::vector<std::int64_t>& offsets, const std::vector<ch_arc<T>>& arcs,
              std::size_t u, T du) const noexcept {
    for (std::int64_t a = offsets[u]; a < offsets[u + 1]; ++a) {
      const auto& arc = arcs[static_cast<std::size_t>(a)];
      // cap + weight fits T (cap + cap does): an unreached position never stalls.
      if (dist_[static_cast<std::size_t>(arc.other)] + arc.weight < du)
        return true;
    }
    return false;
  }

  T cap_;
  std::vector<T> dist_;
  std::vector<char> stalled_;
  std::vector<std::int32_t> reached_;
  dary_heap<T, 4> heap_;
};

} // namespace apsp::cpu
