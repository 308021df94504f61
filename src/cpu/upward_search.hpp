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
      : cap_(cap), dist_(static_cast<std::size_t>(n), cap), heap_(n) {}

  void run(const std::vector<std::int64_t>& offsets, const std::vector<ch_arc<T>>& arcs,
           std::int32_t start) {
    for (const std::int32_t v : reached_)
      dist_[static_cast<std::size_t>(v)] = cap_;
    reached_.clear();
    heap_.clear();
    dist_[static_cast<std::size_t>(start)] = T{0};
    reached_.push_back(start);
    heap_.push(T{0}, start);
    while (!heap_.empty()) {
      const auto [du, u] = heap_.pop();
      const auto ui = static_cast<std::size_t>(u);
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

private:
  T cap_;
  std::vector<T> dist_;
  std::vector<std::int32_t> reached_;
  dary_heap<T, 4> heap_;
};

} // namespace apsp::cpu
