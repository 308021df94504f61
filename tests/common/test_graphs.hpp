#pragma once
// Shared test helpers: seeded random graphs, an independent Bellman-Ford oracle, and a path
// validator. Header-only; used by the conformance suite and unit tests.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/result.hpp"

namespace apsp::testing {

struct random_graph_spec {
  std::int64_t n = 10;
  double density = 0.2; ///< probability of each ordered pair (u != v) having an edge
  int min_weight = 0;   ///< before potentials
  int max_weight = 100;
  bool negative_edges =
      false;              ///< re-weight with vertex potentials: negative edges, no negative cycle
  bool self_loops = true; ///< some non-negative self-loops
  bool parallel_edges = true;      ///< some duplicated (u, v) with other weights
  double isolated_fraction = 0.05; ///< vertices with no out-edges (unreachable pairs)
};

/// Integer-weighted random graph; the seed fully determines it.
inline graph make_random_graph(const random_graph_spec& s, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> weight(s.min_weight, s.max_weight);
  std::uniform_int_distribution<int> potential_dist(0, s.max_weight);
  std::vector<int> potential(static_cast<std::size_t>(s.n), 0);
  if (s.negative_edges) {
    for (auto& p : potential)
      p = potential_dist(rng);
  }
  std::vector<bool> isolated(static_cast<std::size_t>(s.n));
  for (std::size_t v = 0; v < isolated.size(); ++v)
    isolated[v] = unit(rng) < s.isolated_fraction;
  graph g(s.n);
  for (std::int64_t u = 0; u < s.n; ++u) {
    if (isolated[static_cast<std::size_t>(u)])
      continue;
    for (std::int64_t v = 0; v < s.n; ++v) {
      if (u == v) {
        if (s.self_loops && unit(rng) < 0.05)
          g.add_edge(u, u, weight(rng));
        continue;
      }
      if (unit(rng) >= s.density)
        continue;
      // w + p(u) - p(v) keeps every cycle's weight >= 0 while making some edges negative.
      const auto reweight = [&](int w) {
        return static_cast<double>(w + potential[static_cast<std::size_t>(u)] -
                                   potential[static_cast<std::size_t>(v)]);
      };
      g.add_edge(u, v, reweight(weight(rng)));
      if (s.parallel_edges && unit(rng) < 0.1)
        g.add_edge(u, v, reweight(weight(rng)));
    }
  }
  return g;
}

/// Distances from `source` by Bellman-Ford over the edge list (independent of any FW code);
/// +inf for unreachable. Assumes no negative cycle reachable from source.
inline std::vector<double> bellman_ford(const graph& g, std::int64_t source) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  std::vector<double> d(n, std::numeric_limits<double>::infinity());
  d[static_cast<std::size_t>(source)] = 0;
  const auto& src = g.sources();
  const auto& dst = g.targets();
  const auto& w = g.weights();
  for (std::size_t round = 0; round < n; ++round) {
    bool changed = false;
    for (std::size_t e = 0; e < w.size(); ++e) {
      const double du = d[static_cast<std::size_t>(src[e])];
      if (du + w[e] < d[static_cast<std::size_t>(dst[e])]) {
        d[static_cast<std::size_t>(dst[e])] = du + w[e];
        changed = true;
      }
    }
    if (!changed)
      break;
  }
  return d;
}

/// Minimum weight per directed pair (u, v), u != v.
inline std::map<std::pair<std::int64_t, std::int64_t>, double> min_edge_weights(const graph& g) {
  std::map<std::pair<std::int64_t, std::int64_t>, double> out;
  for (std::size_t e = 0; e < g.weights().size(); ++e) {
    const std::pair<std::int64_t, std::int64_t> key{g.sources()[e], g.targets()[e]};
    auto [it, inserted] = out.emplace(key, g.weights()[e]);
    if (!inserted)
      it->second = std::min(it->second, g.weights()[e]);
  }
  return out;
}

/// Checks that every reachable pair's reconstructed path is a walk of graph edges from i to j
/// whose weight equals d[i][j] (within `tolerance`), and that unreachable pairs give no path.
inline void expect_paths_valid(const graph& g, const result& r, double tolerance = 0.0) {
  const auto edges = min_edge_weights(g);
  const std::int64_t n = r.n();
  std::int64_t failures = 0;
  for (std::int64_t i = 0; i < n && failures < 5; ++i) {
    for (std::int64_t j = 0; j < n && failures < 5; ++j) {
      const auto p = r.path(i, j);
      if (!r.reachable(i, j)) {
        if (!p.empty()) {
          ADD_FAILURE() << "path for unreachable pair (" << i << ", " << j << ")";
          ++failures;
        }
        continue;
      }
      if (p.empty() || p.front() != i || p.back() != j) {
        ADD_FAILURE() << "path (" << i << ", " << j << ") has wrong endpoints";
        ++failures;
        continue;
      }
      double total = 0;
      bool ok = true;
      for (std::size_t s = 0; s + 1 < p.size(); ++s) {
        auto it = edges.find({p[s], p[s + 1]});
        if (it == edges.end()) {
          ok = false;
          break;
        }
        total += it->second;
      }
      const double want = r.distance(i, j);
      if (!ok || std::fabs(total - want) > tolerance * std::max(1.0, std::fabs(want))) {
        ADD_FAILURE() << "path (" << i << ", " << j << ") is not a shortest walk: "
                      << (ok ? "weight " + std::to_string(total) + " != " + std::to_string(want)
                             : std::string("uses a non-edge"));
        ++failures;
      }
    }
  }
}

/// The checksums of ../shared/data/README.md for an integer distance matrix: finite
/// off-diagonal pairs, their exact sum and the largest.
struct checksum {
  std::int64_t pairs = 0;
  std::int64_t sum = 0;
  std::int64_t max = 0;
};

template <class T> checksum checksum_of(const apsp::dense_matrix<T>& d) {
  const std::int64_t n = d.n();
  std::int64_t pairs = 0, sum = 0, max = 0;
#pragma omp parallel for reduction(+ : pairs, sum) reduction(max : max)
  for (std::int64_t i = 0; i < n; ++i) {
    const T* row = d.row(i);
    for (std::int64_t j = 0; j < n; ++j) {
      if (i == j || row[j] >= apsp::weight_traits<T>::infinity)
        continue;
      ++pairs;
      sum += row[j];
      max = std::max<std::int64_t>(max, row[j]);
    }
  }
  return {pairs, sum, max};
}

} // namespace apsp::testing
