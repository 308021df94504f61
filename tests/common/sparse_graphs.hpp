#pragma once
// Sparse graphs with small separators for the supernodal engines' tests: 2D and 3D lattices
// (ROME's benchmark shapes), arcs both ways or one way, seeded weights.

#include <cstdint>
#include <random>

#include "apsp/graph.hpp"

namespace apsp::testing {

struct lattice_spec {
  std::int64_t x = 1, y = 1, z = 1; ///< cells per axis (z = 1: a 2D grid)
  int lo = 1, hi = 100;             ///< weights, uniform in [lo, hi]
  bool both_ways = true;            ///< else only towards larger coordinates (no cycle)
  int drop_percent = 0;             ///< arcs left out at random (parts may become unreachable)
};

/// A lattice's graph: vertex (i, j, k) is i + x (j + y k); neighbours along each axis.
inline graph make_lattice(const lattice_spec& s, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  graph g(s.x * s.y * s.z);
  const auto weight = [&] {
    return static_cast<double>(s.lo +
                               static_cast<int>(rng() % static_cast<std::uint64_t>(s.hi - s.lo + 1)));
  };
  const auto at = [&s](std::int64_t i, std::int64_t j, std::int64_t k) {
    return i + s.x * (j + s.y * k);
  };
  const auto arc = [&](std::int64_t u, std::int64_t v) {
    if (s.drop_percent > 0 && static_cast<int>(rng() % 100) < s.drop_percent)
      return;
    g.add_edge(u, v, weight());
    if (s.both_ways)
      g.add_edge(v, u, weight());
  };
  for (std::int64_t k = 0; k < s.z; ++k)
    for (std::int64_t j = 0; j < s.y; ++j)
      for (std::int64_t i = 0; i < s.x; ++i) {
        if (i + 1 < s.x)
          arc(at(i, j, k), at(i + 1, j, k));
        if (j + 1 < s.y)
          arc(at(i, j, k), at(i, j + 1, k));
        if (k + 1 < s.z)
          arc(at(i, j, k), at(i, j, k + 1));
      }
  return g;
}

} // namespace apsp::testing
