// Tables of two values per cell (apsp::solve_table_along): the distances against Dijkstra's
// table, exactly, and the second sums against an independent reference with the same tie rule
// (of the paths of least weight, the least second sum): Bellman-Ford on (weight, second) pairs
// on the original weights, summed from the source as the contract says. Weights 0..3 make many
// ties; negative weights (potentials), zero weights, parallel arcs, self-loops and unreachable
// vertices; int32 and int64; refusals.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/table_cases.hpp"

namespace {

using apsp::testing::dijkstra_table;
using apsp::testing::pick;
using apsp::testing::street_grid;

/// Lexicographic Bellman-Ford from s: n rounds over every edge, (weight, second) pairs.
void reference_row(const apsp::graph& g, const std::vector<double>& second, std::int64_t s,
                   std::vector<double>& dist, std::vector<double>& sum) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  const double inf = std::numeric_limits<double>::infinity();
  dist.assign(n, inf);
  sum.assign(n, inf);
  dist[static_cast<std::size_t>(s)] = 0;
  sum[static_cast<std::size_t>(s)] = 0;
  for (std::size_t round = 0; round < n; ++round) {
    bool changed = false;
    for (std::size_t e = 0; e < second.size(); ++e) {
      const auto u = static_cast<std::size_t>(g.sources()[e]);
      const auto v = static_cast<std::size_t>(g.targets()[e]);
      if (dist[u] == inf)
        continue;
      const double d = dist[u] + g.weights()[e]; // integers: exact
      const double l = sum[u] + second[e];
      if (d < dist[v] || (d == dist[v] && l < sum[v])) {
        dist[v] = d;
        sum[v] = l;
        changed = true;
      }
    }
    if (!changed)
      break;
  }
}

template <class T> void both_values_match(apsp::dtype type) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    for (const bool negative : {false, true}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + (negative ? ", negative" : ""));
      const auto g = street_grid(13, 11, 3, negative, seed);
      std::mt19937_64 rng(seed);
      std::uniform_real_distribution<double> length(0.0, 50.0);
      std::vector<double> second(static_cast<std::size_t>(g.num_edges()));
      for (auto& l : second)
        l = std::floor(length(rng) * 8) / 8 + (rng() % 3 == 0 ? 0.1 : 0.0); // some inexact
      const auto targets = pick(g.num_vertices(), 30, seed + 10);
      const auto sources = pick(g.num_vertices(), 20, seed + 20, targets);
      apsp::solve_options o;
      o.type = type;
      o.threads = 2;
      const auto r = apsp::solve_table_along(g, second, sources, targets, o);
      const auto& d = std::get<std::vector<T>>(r.distances);
      EXPECT_EQ(d, dijkstra_table<T>(g, sources, targets));
      ASSERT_EQ(r.second.size(), sources.size() * targets.size());
      std::vector<double> dist, sum;
      std::int64_t wrong = 0;
      for (std::size_t i = 0; i < sources.size(); ++i) {
        reference_row(g, second, sources[i], dist, sum);
        for (std::size_t j = 0; j < targets.size(); ++j) {
          const double want = sum[static_cast<std::size_t>(targets[j])];
          const double got = r.second[i * targets.size() + j];
          if (got != want && wrong++ < 5) {
            ADD_FAILURE() << "row " << i << " column " << j << ": second " << got << ", reference "
                          << want;
          }
        }
      }
      EXPECT_EQ(wrong, 0);
    }
  }
}

TEST(TableAlong, Int32DistancesAndSecondSumsMatchTheReferences) {
  both_values_match<std::int32_t>(apsp::dtype::int32);
}
TEST(TableAlong, Int64DistancesAndSecondSumsMatchTheReferences) {
  both_values_match<std::int64_t>(apsp::dtype::int64);
}

TEST(TableAlong, TiesTakeTheLeastSecondSum) {
  apsp::graph g(4); // 0 -> 1 -> 3 and 0 -> 2 -> 3 both weigh 2; lengths 7 + 7 and 1 + 2
  g.add_edge(0, 1, 1);
  g.add_edge(1, 3, 1);
  g.add_edge(0, 2, 1);
  g.add_edge(2, 3, 1);
  g.add_edge(0, 3, 3); // lighter in length, heavier in weight: never chosen
  const std::vector<double> second{7, 7, 1, 2, 0.5};
  const std::vector<std::int64_t> s{0, 3};
  const std::vector<std::int64_t> t{3, 0};
  const auto r = apsp::solve_table_along(g, second, s, t, apsp::solve_options{});
  EXPECT_EQ(std::get<std::vector<std::int32_t>>(r.distances),
            (std::vector<std::int32_t>{2, 0, 0, 1073741823}));
  EXPECT_EQ(r.second, (std::vector<double>{3, 0, 0, std::numeric_limits<double>::infinity()}));
}

TEST(TableAlong, Refusals) {
  apsp::graph g(3);
  g.add_edge(0, 1, 1);
  g.add_edge(1, 2, 1);
  const std::vector<std::int64_t> s{0};
  apsp::solve_options o;
  EXPECT_THROW((void)apsp::solve_table_along(g, std::vector<double>{1}, s, s, o),
               apsp::invalid_argument_error); // one value for two edges
  EXPECT_THROW((void)apsp::solve_table_along(g, std::vector<double>{1, -1}, s, s, o),
               apsp::invalid_input_error);
  const std::vector<std::int64_t> outside{3};
  EXPECT_THROW((void)apsp::solve_table_along(g, std::vector<double>{1, 1}, outside, s, o),
               apsp::invalid_argument_error);
  o.type = apsp::dtype::float64;
  EXPECT_THROW((void)apsp::solve_table_along(g, std::vector<double>{1, 1}, s, s, o),
               apsp::invalid_argument_error);
  g.add_edge(2, 1, -3);
  o.type = apsp::dtype::int32;
  EXPECT_THROW((void)apsp::solve_table_along(g, std::vector<double>{1, 1, 1}, s, s, o),
               apsp::negative_cycle_error);
}

} // namespace
