#pragma once
// Graphs and checks for the distance tables' tests (apsp::solve_table, apsp::hierarchy): street
// grids with one-way streets and closed blocks, random sparse graphs, picked vertex sets with
// repeats, and Dijkstra's table (solve_from_sources cut to the targets) to compare with.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/sources.hpp"

namespace apsp::testing {

/// A w x h street grid: each street two-way, one-way either way, or missing; a block of
/// vertices near one corner closed (no arcs: unreachable, unreaching); a few diagonals,
/// parallel arcs and self-loops. Weights 0..max_weight, shifted by random potentials when
/// `negative` (negative arcs, no negative cycle).
inline graph street_grid(std::int64_t w, std::int64_t h, std::int64_t max_weight, bool negative,
                         std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  graph g(w * h);
  std::vector<std::int64_t> shift(static_cast<std::size_t>(w * h), 0);
  if (negative) {
    for (auto& s : shift)
      s = static_cast<std::int64_t>(rng() % 40);
  }
  std::uniform_int_distribution<std::int64_t> weight(0, max_weight);
  std::uniform_int_distribution<int> kind(0, 9);
  const auto closed = [&](std::int64_t x, std::int64_t y) { return x < 2 && y < 2; };
  const auto arc = [&](std::int64_t u, std::int64_t v) {
    g.add_edge(u, v,
               static_cast<double>(weight(rng) + shift[static_cast<std::size_t>(v)] -
                                   shift[static_cast<std::size_t>(u)]));
  };
  for (std::int64_t y = 0; y < h; ++y) {
    for (std::int64_t x = 0; x < w; ++x) {
      if (closed(x, y))
        continue;
      const std::int64_t v = y * w + x;
      const std::int64_t right = x + 1 < w && !closed(x + 1, y) ? v + 1 : -1;
      const std::int64_t down = y + 1 < h && !closed(x, y + 1) ? v + w : -1;
      for (const std::int64_t to : {right, down}) {
        if (to < 0)
          continue;
        const int k = kind(rng);
        if (k < 6) {
          arc(v, to);
          arc(to, v);
        } else if (k < 7) {
          arc(v, to);
        } else if (k < 8) {
          arc(to, v);
        } // else: no street
      }
      if (kind(rng) == 0 && right >= 0 && down >= 0)
        arc(v, down + 1);
      if (kind(rng) == 0 && right >= 0)
        arc(v, right); // perhaps a parallel arc
      if (kind(rng) == 0)
        g.add_edge(v, v, static_cast<double>(weight(rng))); // a self-loop (>= 0)
    }
  }
  return g;
}

/// n vertices, m random arcs: many vertices unreachable from others.
inline graph random_sparse(std::int64_t n, std::int64_t m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  graph g(n);
  std::uniform_int_distribution<std::int64_t> vertex(0, n - 1);
  std::uniform_int_distribution<std::int64_t> weight(0, 9);
  for (std::int64_t e = 0; e < m; ++e)
    g.add_edge(vertex(rng), vertex(rng), static_cast<double>(weight(rng)));
  return g;
}

/// `count` random vertices of n, with a repeat and, when there are any, a vertex of `also`.
inline std::vector<std::int64_t> pick(std::int64_t n, std::size_t count, std::uint64_t seed,
                                      const std::vector<std::int64_t>& also = {}) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < count; ++i)
    out.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)));
  if (!out.empty())
    out.push_back(out.front()); // a duplicate
  if (!also.empty())
    out.push_back(also.back()); // a source that is also a target
  return out;
}

template <class T> constexpr dtype type_of() {
  return sizeof(T) == 4 ? dtype::int32 : dtype::int64;
}

/// Dijkstra's table: solve_from_sources' rows cut to the targets' columns.
template <class T>
inline std::vector<T> dijkstra_table(const graph& g, const std::vector<std::int64_t>& sources,
                                     const std::vector<std::int64_t>& targets) {
  source_options so;
  so.type = type_of<T>();
  so.threads = 2;
  so.cycles = cycle_scope::whole_graph;
  const auto rows = solve_from_sources(g, sources, so);
  const auto& d = std::get<std::vector<T>>(rows.distances);
  std::vector<T> out;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    for (const std::int64_t t : targets)
      out.push_back(d[i * static_cast<std::size_t>(rows.n) + static_cast<std::size_t>(t)]);
  }
  return out;
}

template <class T>
inline void expect_same_table(const std::vector<T>& got, const std::vector<T>& want,
                              std::size_t cols, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  std::int64_t wrong = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (got[k] != want[k] && wrong++ < 5) {
      ADD_FAILURE() << what << ": row " << k / cols << " column " << k % cols << ": table "
                    << got[k] << ", Dijkstra " << want[k];
    }
  }
  EXPECT_EQ(wrong, 0) << what;
}

} // namespace apsp::testing
