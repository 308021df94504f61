#pragma once
// Single-source shortest paths for `apsp verify`: an oracle independent of the Floyd-Warshall
// code (Dijkstra with a binary heap for non-negative weights, Bellman-Ford otherwise).

#include <cstdint>
#include <vector>

#include "apsp/graph.hpp"

namespace apsp::cli {

/// Out-edges in compressed rows; self-loops dropped unless negative (they are then cycles).
class adjacency {
public:
  explicit adjacency(const graph& g);
  [[nodiscard]] std::int64_t size() const noexcept { return n_; }
  [[nodiscard]] bool has_negative() const noexcept { return has_negative_; }

  /// Distances from `source`. `reached[v]` is 0 when v is unreachable. Weight arithmetic is in
  /// T (std::int64_t for integral weights, so the comparison can be exact, or double).
  /// Throws negative_cycle_error (internal ids) when a negative cycle is reachable.
  template <class T>
  void shortest_paths(std::int64_t source, std::vector<T>& dist, std::vector<char>& reached) const;

private:
  template <class T>
  void dijkstra(std::int64_t source, std::vector<T>& dist, std::vector<char>& reached) const;
  template <class T>
  void bellman_ford(std::int64_t source, std::vector<T>& dist, std::vector<char>& reached) const;

  std::int64_t n_ = 0;
  bool has_negative_ = false;
  std::vector<std::int64_t> offsets_;
  std::vector<std::int32_t> targets_;
  std::vector<double> weights_;
};

} // namespace apsp::cli
