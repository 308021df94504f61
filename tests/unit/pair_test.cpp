// apsp::solve_pair against the naive O(n^3) reference back end: every pair of seeded random
// graphs (negative weights, zero weights, parallel edges, self-loops, unreachable pairs) in
// every element type, each path a walk of edges adding up to the distance; the fewest-arcs tie
// rule; negative cycles anywhere refused with one cycle; a large grid searched by few
// settlements and cancelled by its callback; errors.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/reference_solve.hpp"
#include "common/test_graphs.hpp"

namespace {

using apsp::testing::reference_solve;

/// The path's weight over the lightest edge of each step; NaN when a step is not an edge.
double walk_weight(const apsp::graph& g, const std::vector<std::int64_t>& path) {
  const auto lightest = apsp::testing::min_edge_weights(g);
  double total = 0;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    const auto it = lightest.find({path[k], path[k + 1]});
    if (it == lightest.end())
      return std::nan("");
    total += it->second;
  }
  return total;
}

struct pair_case {
  std::int64_t n;
  bool negative;
  std::uint64_t seed;
};

class solve_pair_test : public ::testing::TestWithParam<pair_case> {};

TEST_P(solve_pair_test, every_pair_matches_the_reference_in_every_type) {
  const auto c = GetParam();
  SCOPED_TRACE("seed=" + std::to_string(c.seed) + " n=" + std::to_string(c.n));
  apsp::testing::random_graph_spec spec;
  spec.n = c.n;
  spec.density = 0.08;
  spec.min_weight = 0; // zero weights: ties and zero-weight cycles
  spec.max_weight = 20;
  spec.negative_edges = c.negative;
  const apsp::graph g = apsp::testing::make_random_graph(spec, c.seed);
  for (auto type :
       {apsp::dtype::int32, apsp::dtype::float64, apsp::dtype::float32, apsp::dtype::int64}) {
    SCOPED_TRACE(std::string(apsp::to_string(type)));
    const auto want = reference_solve(g, type);
    apsp::pair_options o;
    o.type = type;
    for (std::int64_t s = 0; s < c.n; ++s) {
      for (std::int64_t t = 0; t < c.n; ++t) {
        const auto got = apsp::solve_pair(g, s, t, o);
        apsp::visit_dtype(type, [&](auto zero) {
          using T = decltype(zero);
          ASSERT_EQ(std::get<T>(got.distance), want.distances_as<T>()(s, t)) << s << " -> " << t;
        });
        ASSERT_EQ(got.reachable(), want.reachable(s, t)) << s << " -> " << t;
        if (!got.reachable())
          continue;
        ASSERT_EQ(got.path.front(), s);
        ASSERT_EQ(got.path.back(), t);
        // Integer weights: every sum is exact in every type.
        ASSERT_EQ(walk_weight(g, got.path), want.distance(s, t)) << s << " -> " << t;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(random_graphs, solve_pair_test,
                         ::testing::Values(pair_case{1, false, 1}, pair_case{2, true, 2},
                                           pair_case{17, false, 3}, pair_case{17, true, 4},
                                           pair_case{60, false, 5}, pair_case{60, true, 6}),
                         [](const auto& info) {
                           return "n" + std::to_string(info.param.n) +
                                  (info.param.negative ? "_negative" : "") + "_seed" +
                                  std::to_string(info.param.seed);
                         });

TEST(solve_pair, of_equally_short_paths_the_one_with_fewest_arcs) {
  apsp::graph g(6);
  g.add_edge(0, 1, 1); // 0 -> 1 -> 2 -> 3 weighs 3, as 0 -> 4 -> 3 and 0 -> 3
  g.add_edge(1, 2, 1);
  g.add_edge(2, 3, 1);
  g.add_edge(0, 4, 2);
  g.add_edge(4, 3, 1);
  g.add_edge(0, 3, 3);
  g.add_edge(3, 5, 0); // zero-weight arcs both ways: 5 -> 3 -> 5 must not be walked
  g.add_edge(5, 3, 0);
  for (auto type : {apsp::dtype::int32, apsp::dtype::float64}) {
    apsp::pair_options o;
    o.type = type;
    EXPECT_EQ(apsp::solve_pair(g, 0, 3, o).path, (std::vector<std::int64_t>{0, 3}));
    EXPECT_EQ(apsp::solve_pair(g, 0, 5, o).path, (std::vector<std::int64_t>{0, 3, 5}));
    EXPECT_EQ(apsp::solve_pair(g, 1, 5, o).path, (std::vector<std::int64_t>{1, 2, 3, 5}));
  }
  // With a negative weight (potentials first) the rule holds on the true lengths.
  g.add_edge(1, 3, -1); // 0 -> 1 -> 3 weighs 0 now; 0 -> 4 -> 3 and 0 -> 3 still 3
  EXPECT_EQ(apsp::solve_pair(g, 0, 5).path, (std::vector<std::int64_t>{0, 1, 3, 5}));
  EXPECT_EQ(std::get<double>(apsp::solve_pair(g, 0, 5).distance), 0);
}

TEST(solve_pair, a_negative_cycle_anywhere_refuses_naming_it) {
  apsp::graph g(4);
  g.add_edge(0, 1, 1);
  g.add_edge(2, 3, -2); // 0 reaches neither 2 nor 3
  g.add_edge(3, 2, 1);
  try {
    (void)apsp::solve_pair(g, 0, 1);
    ADD_FAILURE() << "no negative_cycle_error";
  } catch (const apsp::negative_cycle_error& e) {
    EXPECT_EQ(e.cycle(), (std::vector<std::int64_t>{2, 3}));
    EXPECT_EQ(e.cycle_weight(), -1);
  }
  apsp::graph loop(2);
  loop.add_edge(0, 1, 1);
  loop.add_edge(1, 1, -1);
  EXPECT_THROW((void)apsp::solve_pair(loop, 0, 0), apsp::negative_cycle_error);
}

/// A side x side grid, both arcs of each edge, weights 1..9 by position.
apsp::graph grid(std::int64_t side) {
  apsp::graph g(side * side);
  for (std::int64_t r = 0; r < side; ++r) {
    for (std::int64_t c = 0; c < side; ++c) {
      const std::int64_t v = r * side + c;
      const double w = static_cast<double>((r * 7 + c * 3) % 9 + 1);
      if (c + 1 < side) {
        g.add_edge(v, v + 1, w);
        g.add_edge(v + 1, v, w);
      }
      if (r + 1 < side) {
        g.add_edge(v, v + side, w);
        g.add_edge(v + side, v, w);
      }
    }
  }
  return g;
}

TEST(solve_pair, a_large_grid_settles_what_lies_between_and_can_be_cancelled) {
  const std::int64_t side = 400; // 160,000 vertices: an n x n int32 matrix would be 102 GB
  const apsp::graph g = grid(side);
  apsp::pair_options o;
  o.type = apsp::dtype::int32;
  const std::int64_t middle = side * (side / 2) + side / 2;
  const auto near = apsp::solve_pair(g, middle, middle + 2 * side + 2, o);
  EXPECT_LT(near.settled, 200); // two small balls, not a search of the whole grid
  const std::vector<std::int64_t> one{0};
  const auto rows = apsp::solve_from_sources(g, one);
  const auto corner = apsp::solve_pair(g, 0, side * side - 1, o);
  EXPECT_EQ(std::get<std::int32_t>(corner.distance),
            std::get<std::vector<double>>(rows.distances).back());
  EXPECT_EQ(walk_weight(g, corner.path), std::get<std::vector<double>>(rows.distances).back());
  int calls = 0;
  o.progress = [&](const apsp::progress_info& p) {
    EXPECT_EQ(p.rounds_total, side * side);
    ++calls;
    return false;
  };
  EXPECT_THROW((void)apsp::solve_pair(g, 0, side * side - 1, o), apsp::cancelled_error);
  EXPECT_EQ(calls, 1);
}

TEST(solve_pair, bad_vertices_and_weights_are_refused) {
  apsp::graph g(3);
  g.add_edge(0, 1, 0.5);
  EXPECT_THROW((void)apsp::solve_pair(g, 0, 3), apsp::invalid_argument_error);
  EXPECT_THROW((void)apsp::solve_pair(g, -1, 0), apsp::invalid_argument_error);
  apsp::pair_options o;
  o.type = apsp::dtype::int32;
  EXPECT_THROW((void)apsp::solve_pair(g, 0, 1, o), apsp::invalid_input_error);
  EXPECT_EQ(std::get<double>(apsp::solve_pair(g, 0, 1).distance), 0.5);
  const auto none = apsp::solve_pair(g, 1, 0);
  EXPECT_FALSE(none.reachable());
  EXPECT_EQ(std::get<double>(none.distance), apsp::weight_traits<double>::infinity);
  EXPECT_EQ(apsp::solve_pair(g, 2, 2).path, (std::vector<std::int64_t>{2}));
}

} // namespace
