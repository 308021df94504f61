#include "sssp.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <type_traits>
#include <utility>

#include "apsp/error.hpp"

namespace apsp::cli {

adjacency::adjacency(const graph& g) : n_(g.num_vertices()) {
  const auto& src = g.sources();
  const auto& dst = g.targets();
  const auto& w = g.weights();
  offsets_.assign(static_cast<std::size_t>(n_) + 1, 0);
  for (std::size_t e = 0; e < w.size(); ++e) {
    if (src[e] == dst[e] && w[e] >= 0)
      continue;
    ++offsets_[static_cast<std::size_t>(src[e]) + 1];
    has_negative_ |= w[e] < 0;
  }
  for (std::size_t v = 0; v < static_cast<std::size_t>(n_); ++v)
    offsets_[v + 1] += offsets_[v];
  targets_.resize(static_cast<std::size_t>(offsets_.back()));
  weights_.resize(targets_.size());
  std::vector<std::int64_t> next(offsets_.begin(), offsets_.end() - 1);
  for (std::size_t e = 0; e < w.size(); ++e) {
    if (src[e] == dst[e] && w[e] >= 0)
      continue;
    const auto slot = static_cast<std::size_t>(next[static_cast<std::size_t>(src[e])]++);
    targets_[slot] = dst[e];
    weights_[slot] = w[e];
  }
}

template <class T>
void adjacency::shortest_paths(std::int64_t source, std::vector<T>& dist,
                               std::vector<char>& reached) const {
  dist.assign(static_cast<std::size_t>(n_), T{0});
  reached.assign(static_cast<std::size_t>(n_), 0);
  if (has_negative_) {
    bellman_ford(source, dist, reached);
  } else {
    dijkstra(source, dist, reached);
  }
}

template <class T>
void adjacency::dijkstra(std::int64_t source, std::vector<T>& dist,
                         std::vector<char>& reached) const {
  using entry = std::pair<T, std::int64_t>;
  std::priority_queue<entry, std::vector<entry>, std::greater<>> heap;
  std::vector<char> done(static_cast<std::size_t>(n_), 0);
  dist[static_cast<std::size_t>(source)] = T{0};
  reached[static_cast<std::size_t>(source)] = 1;
  heap.emplace(T{0}, source);
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    const auto uu = static_cast<std::size_t>(u);
    if (done[uu])
      continue;
    done[uu] = 1;
    for (auto e = offsets_[uu]; e < offsets_[uu + 1]; ++e) {
      const auto v = static_cast<std::size_t>(targets_[static_cast<std::size_t>(e)]);
      const T candidate = d + static_cast<T>(weights_[static_cast<std::size_t>(e)]);
      if (!reached[v] || candidate < dist[v]) {
        reached[v] = 1;
        dist[v] = candidate;
        heap.emplace(candidate, static_cast<std::int64_t>(v));
      }
    }
  }
}

template <class T>
void adjacency::bellman_ford(std::int64_t source, std::vector<T>& dist,
                             std::vector<char>& reached) const {
  std::vector<std::int64_t> parent(static_cast<std::size_t>(n_), -1);
  dist[static_cast<std::size_t>(source)] = T{0};
  reached[static_cast<std::size_t>(source)] = 1;
  // A simple path weighs at least -reach (each vertex left once, by at worst its most negative
  // edge); a distance below that (twice that for doubles, against rounding) proves a cycle
  // among its parents, so the rounds stop before the sums can overflow.
  double reach = 0;
  for (std::int64_t u = 0; u < n_; ++u) {
    double lightest = 0;
    for (auto e = offsets_[static_cast<std::size_t>(u)];
         e < offsets_[static_cast<std::size_t>(u) + 1]; ++e)
      lightest = std::min(lightest, weights_[static_cast<std::size_t>(e)]);
    reach -= lightest;
  }
  const double floor = std::is_integral_v<T> ? -reach : -2 * reach;
  std::int64_t last_changed = -1;
  bool fell = false;
  for (std::int64_t round = 0; round < n_ && !fell; ++round) {
    last_changed = -1;
    for (std::int64_t u = 0; u < n_; ++u) {
      const auto uu = static_cast<std::size_t>(u);
      if (!reached[uu])
        continue;
      for (auto e = offsets_[uu]; e < offsets_[uu + 1]; ++e) {
        const auto v = static_cast<std::size_t>(targets_[static_cast<std::size_t>(e)]);
        const T candidate = dist[uu] + static_cast<T>(weights_[static_cast<std::size_t>(e)]);
        if (!reached[v] || candidate < dist[v]) {
          reached[v] = 1;
          dist[v] = candidate;
          parent[v] = u;
          last_changed = static_cast<std::int64_t>(v);
          if (static_cast<double>(candidate) < floor) {
            fell = true;
            break;
          }
        }
      }
      if (fell)
        break;
    }
    if (last_changed < 0)
      return;
  }
  // Still improving after n rounds, or fallen below -reach: walking n parents back from the last
  // change lands on a negative cycle; collect it.
  std::int64_t x = last_changed;
  for (std::int64_t k = 0; k < n_ && parent[static_cast<std::size_t>(x)] >= 0; ++k) {
    x = parent[static_cast<std::size_t>(x)];
  }
  std::vector<std::int64_t> cycle{x};
  for (std::int64_t y = parent[static_cast<std::size_t>(x)]; y >= 0 && y != x && cycle.size() < 64;
       y = parent[static_cast<std::size_t>(y)]) {
    cycle.push_back(y);
  }
  std::vector<std::int64_t> on_cycle = cycle;
  std::sort(on_cycle.begin(), on_cycle.end());
  const std::string what = "a negative cycle is reachable from vertex " + std::to_string(source);
  if (cycle.size() >= 64) // cut short: the vertices alone
    throw negative_cycle_error(what, std::move(on_cycle));
  // Parents lead backwards along the cycle: reversed, it follows its arcs. It starts at its
  // smallest vertex, as the library's cycles do; its weight takes the lightest arc of each step.
  std::reverse(cycle.begin(), cycle.end());
  std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
  double weight = 0;
  for (std::size_t k = 0; k < cycle.size(); ++k) {
    const std::int64_t a = cycle[k];
    const std::int64_t b = cycle[(k + 1) % cycle.size()];
    double lightest = std::numeric_limits<double>::infinity();
    for (auto e = offsets_[static_cast<std::size_t>(a)];
         e < offsets_[static_cast<std::size_t>(a) + 1]; ++e) {
      if (targets_[static_cast<std::size_t>(e)] == b)
        lightest = std::min(lightest, weights_[static_cast<std::size_t>(e)]);
    }
    weight += lightest;
  }
  throw negative_cycle_error(what, std::move(on_cycle), std::move(cycle), weight);
}

template void adjacency::shortest_paths(std::int64_t, std::vector<std::int64_t>&,
                                        std::vector<char>&) const;
template void adjacency::shortest_paths(std::int64_t, std::vector<double>&,
                                        std::vector<char>&) const;

} // namespace apsp::cli
