// The conformance suite: written once, compiled once per back end (APSP_CONFORMANCE_BACKEND)
// and algorithm (APSP_CONFORMANCE_ALGORITHM, default fw), checked against the naive reference
// back end (and, for it, against Bellman-Ford).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/test_graphs.hpp"

namespace {

using apsp::backend_kind;
using apsp::dtype;

#ifndef APSP_CONFORMANCE_ALGORITHM
#define APSP_CONFORMANCE_ALGORITHM "fw"
#endif

backend_kind backend_under_test() {
  return apsp::parse_backend(APSP_CONFORMANCE_BACKEND);
}

apsp::algorithm_kind algorithm_under_test() {
  return apsp::parse_algorithm(APSP_CONFORMANCE_ALGORITHM);
}

bool backend_available() {
  for (const auto& s : apsp::list_backends()) {
    if (s.kind == backend_under_test())
      return s.available;
  }
  return false;
}

#define SKIP_UNLESS_AVAILABLE()                                                                    \
  do {                                                                                             \
    if (!backend_available())                                                                      \
      GTEST_SKIP() << APSP_CONFORMANCE_BACKEND " is unavailable";                                  \
  } while (0)

/// Weight types the back end under test must support.
std::vector<dtype> supported_types() {
  if (backend_under_test() == backend_kind::cuda)
    return {dtype::int32, dtype::float32};
  return {dtype::int32, dtype::float32, dtype::int64, dtype::float64};
}

apsp::solve_options options_for(dtype t, bool paths, std::int64_t block = 0) {
  apsp::solve_options o;
  o.backend = backend_under_test();
  o.algorithm = algorithm_under_test();
  o.type = t;
  o.paths = paths;
  o.block = block;
  return o;
}

/// The tile edge the back end's Floyd-Warshall uses when asked for `requested` (0 = its
/// default). Johnson is tested on the same sizes (there `block` is sources per progress step).
std::int64_t tile_edge(std::int64_t requested) {
  auto o = options_for(dtype::int32, false, requested);
  o.algorithm = apsp::algorithm_kind::floyd_warshall;
  return apsp::make_plan(1000, o).block;
}

/// Oracle: the reference back end in int64 (exact for the integer weights used here).
apsp::dense_matrix<std::int64_t> oracle(const apsp::graph& g) {
  apsp::solve_options o;
  o.backend = backend_kind::reference;
  o.type = dtype::int64;
  auto r = apsp::solve(g, o);
  return std::move(std::get<apsp::dense_matrix<std::int64_t>>(r.distances()));
}

/// Every distance equals the oracle's (same "unreachable" cells, same finite values).
void expect_same_distances(const apsp::result& r, const apsp::dense_matrix<std::int64_t>& want) {
  ASSERT_EQ(r.n(), want.n());
  int failures = 0;
  for (std::int64_t i = 0; i < want.n() && failures < 5; ++i) {
    for (std::int64_t j = 0; j < want.n() && failures < 5; ++j) {
      const bool reachable = want(i, j) < apsp::weight_traits<std::int64_t>::infinity;
      const double got = r.distance(i, j);
      const bool ok = reachable ? got == static_cast<double>(want(i, j)) : std::isinf(got);
      if (!ok) {
        ADD_FAILURE() << "d[" << i << "][" << j << "] = " << got << ", want "
                      << (reachable ? std::to_string(want(i, j)) : std::string("unreachable"));
        ++failures;
      }
    }
  }
}

/// The error of a solve on a graph carries one cycle, in order: consecutive vertices are joined
/// by arcs whose lightest weights add up to cycle_weight() < 0.
void expect_negative_cycle(const apsp::graph& g, const apsp::negative_cycle_error& e) {
  ASSERT_FALSE(e.cycle().empty()) << e.what();
  const auto& cycle = e.cycle();
  double total = 0;
  for (std::size_t k = 0; k < cycle.size(); ++k) {
    const std::int64_t u = cycle[k];
    const std::int64_t v = cycle[(k + 1) % cycle.size()];
    double lightest = HUGE_VAL;
    for (std::size_t a = 0; a < g.weights().size(); ++a) {
      if (g.sources()[a] == u && g.targets()[a] == v)
        lightest = std::min(lightest, g.weights()[a]);
    }
    ASSERT_LT(lightest, HUGE_VAL) << "no arc " << u << " -> " << v << " in " << e.what();
    total += lightest;
  }
  if (!cycle.empty()) {
    EXPECT_LT(total, 0);
    EXPECT_EQ(total, e.cycle_weight());
  }
}

struct size_case {
  std::int64_t n;
  std::int64_t block; // requested tile edge (0 = back end default)
};

// Sizes around tile edges: 0, 1, B-1, B, B+1, kB+r, for a small forced tile and the default one.
std::vector<size_case> sizes() {
  std::vector<size_case> out;
  for (std::int64_t requested : {std::int64_t{16}, std::int64_t{0}}) {
    const std::int64_t b = tile_edge(requested);
    for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, b - 1, b, b + 1, 2 * b + 7}) {
      if (n >= 0 && n <= 600)
        out.push_back({n, requested});
    }
  }
  return out;
}

TEST(Conformance, MatchesOracleAroundTileEdges) {
  SKIP_UNLESS_AVAILABLE();
  std::uint64_t seed = 1000;
  for (const auto& sc : sizes()) {
    for (bool negative : {false, true}) {
      ++seed;
      SCOPED_TRACE("n=" + std::to_string(sc.n) + " block=" + std::to_string(sc.block) +
                   " negative=" + std::to_string(negative) + " seed=" + std::to_string(seed));
      apsp::testing::random_graph_spec spec;
      spec.n = sc.n;
      spec.density = sc.n > 200 ? 0.02 : 0.1;
      spec.negative_edges = negative;
      const auto g = apsp::testing::make_random_graph(spec, seed);
      const auto want = oracle(g);
      for (dtype t : supported_types()) {
        SCOPED_TRACE("dtype=" + std::string(apsp::to_string(t)));
        const auto r = apsp::solve(g, options_for(t, false, sc.block));
        EXPECT_EQ(r.type(), t);
        EXPECT_EQ(r.executed_plan().algorithm, algorithm_under_test());
        expect_same_distances(r, want);
      }
    }
  }
}

TEST(Conformance, PathsAreShortestWalks) {
  SKIP_UNLESS_AVAILABLE();
  std::uint64_t seed = 2000;
  for (const auto& sc : sizes()) {
    if (sc.n > 300)
      continue; // all-pairs path checks are O(n^2 * length)
    ++seed;
    SCOPED_TRACE("n=" + std::to_string(sc.n) + " block=" + std::to_string(sc.block) +
                 " seed=" + std::to_string(seed));
    apsp::testing::random_graph_spec spec;
    spec.n = sc.n;
    spec.density = 0.08;
    spec.min_weight = 0; // zero-weight edges are edges
    spec.max_weight = 20;
    spec.negative_edges = (seed % 2) == 0;
    const auto g = apsp::testing::make_random_graph(spec, seed);
    const auto want = oracle(g);
    for (dtype t : supported_types()) {
      SCOPED_TRACE("dtype=" + std::string(apsp::to_string(t)));
      const auto r = apsp::solve(g, options_for(t, true, sc.block));
      ASSERT_TRUE(r.has_paths());
      expect_same_distances(r, want);
      apsp::testing::expect_paths_valid(g, r);
      // The SciPy-style predecessor matrix agrees with the reconstructed paths.
      const auto pred = r.predecessors();
      for (std::int64_t i = 0; i < r.n(); ++i) {
        for (std::int64_t j = 0; j < r.n(); ++j) {
          const auto p = r.path(i, j);
          const std::int32_t expected =
              p.size() >= 2 ? static_cast<std::int32_t>(p[p.size() - 2]) : apsp::no_predecessor;
          ASSERT_EQ(pred(i, j), expected) << "pred[" << i << "][" << j << "]";
        }
      }
    }
  }
}

// Positive self-loops and the heavier of parallel edges lie on no shortest path: weights there
// beyond what the type holds (5e9 for int32, 1e300 for every type) are neither refused nor cast.
// The expected answer is the same graph without them: distances from the oracle, and the path
// matrix of the same solve, bit for bit.
TEST(Conformance, EdgesNoPathUsesMayLieBeyondTheType) {
  SKIP_UNLESS_AVAILABLE();
  const std::uint64_t seed = 3101;
  SCOPED_TRACE("seed=" + std::to_string(seed));
  apsp::testing::random_graph_spec spec;
  spec.n = 70;
  spec.density = 0.1;
  spec.max_weight = 50;
  const auto light = apsp::testing::make_random_graph(spec, seed);
  apsp::graph heavy = light;
  std::mt19937_64 rng(seed);
  for (std::int64_t e = 0; e < light.num_edges(); e += 3) {
    const auto k = static_cast<std::size_t>(e);
    heavy.add_edge(light.sources()[k], light.targets()[k], (rng() % 2) != 0 ? 5e9 : 1e300);
  }
  for (std::int64_t v = 0; v < spec.n; v += 4)
    heavy.add_edge(v, v, (rng() % 2) != 0 ? 5e9 : 1e300);
  const auto want = oracle(light);
  for (dtype t : supported_types()) {
    SCOPED_TRACE("dtype=" + std::string(apsp::to_string(t)));
    for (std::int64_t block : {std::int64_t{16}, std::int64_t{0}}) {
      const auto r = apsp::solve(heavy, options_for(t, true, block));
      expect_same_distances(r, want);
      const auto expected = apsp::solve(light, options_for(t, true, block));
      ASSERT_TRUE(r.has_paths() && expected.has_paths());
      const auto got = r.via().values();
      const auto same = expected.via().values();
      EXPECT_TRUE(std::equal(got.begin(), got.end(), same.begin(), same.end()))
          << "block=" << block;
    }
  }
}

TEST(Conformance, FractionalWeightsWithinRounding) {
  SKIP_UNLESS_AVAILABLE();
  const std::uint64_t seed = 3001;
  SCOPED_TRACE("seed=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> w(0.01, 10.0);
  const std::int64_t n = 150;
  apsp::graph g(n);
  for (std::int64_t u = 0; u < n; ++u)
    for (std::int64_t v = 0; v < n; ++v)
      if (u != v && (rng() % 10) == 0)
        g.add_edge(u, v, w(rng));
  apsp::solve_options ref;
  ref.backend = backend_kind::reference;
  ref.type = dtype::float64;
  const auto want = apsp::solve(g, ref);
  for (dtype t : {dtype::float32, dtype::float64}) {
    if (t == dtype::float64 && backend_under_test() == backend_kind::cuda)
      continue;
    const auto r = apsp::solve(g, options_for(t, true));
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        const double a = r.distance(i, j);
        const double b = want.distance(i, j);
        if (std::isinf(b)) {
          ASSERT_TRUE(std::isinf(a));
        } else {
          ASSERT_NEAR(a, b, 1e-5 * std::max(1.0, b)) << "d[" << i << "][" << j << "]";
        }
      }
    }
    apsp::testing::expect_paths_valid(g, r, 1e-5);
  }
}

TEST(Conformance, NegativeCycleIsReportedWithItsVertices) {
  SKIP_UNLESS_AVAILABLE();
  for (std::int64_t n : {3, 40, 300}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    // A positive random graph whose edges only enter the cycle {a, b, c}, never leave it, so
    // exactly a, b and c lie on negative cycles.
    apsp::testing::random_graph_spec spec;
    spec.n = n;
    spec.density = 0.05;
    spec.min_weight = 1;
    spec.self_loops = false;
    auto base = apsp::testing::make_random_graph(spec, 4000 + static_cast<std::uint64_t>(n));
    const std::int64_t a = n / 4, b = n / 2, c = n - 1;
    apsp::graph g(n);
    for (std::size_t e = 0; e < base.weights().size(); ++e) {
      const auto u = base.sources()[e];
      if (u == a || u == b || u == c)
        continue;
      g.add_edge(u, base.targets()[e], base.weights()[e]);
    }
    g.add_edge(a, b, 5);
    g.add_edge(b, c, -3);
    g.add_edge(c, a, -4);
    for (dtype t : supported_types()) {
      SCOPED_TRACE("dtype=" + std::string(apsp::to_string(t)));
      for (bool paths : {false, true}) {
        try {
          (void)apsp::solve(g, options_for(t, paths));
          ADD_FAILURE() << "no negative_cycle_error";
        } catch (const apsp::negative_cycle_error& e) {
          expect_negative_cycle(g, e);
          std::vector<std::int64_t> got = e.vertices();
          std::sort(got.begin(), got.end());
          std::vector<std::int64_t> want{a, b, c};
          std::sort(want.begin(), want.end());
          want.erase(std::unique(want.begin(), want.end()), want.end());
          EXPECT_EQ(got, want);
        }
      }
    }
  }
}

TEST(Conformance, NegativeSelfLoopIsANegativeCycle) {
  SKIP_UNLESS_AVAILABLE();
  apsp::graph g(5);
  g.add_edge(0, 1, 2);
  g.add_edge(3, 3, -1);
  try {
    (void)apsp::solve(g, options_for(dtype::int32, false));
    ADD_FAILURE() << "no negative_cycle_error";
  } catch (const apsp::negative_cycle_error& e) {
    EXPECT_EQ(e.vertices(), std::vector<std::int64_t>{3});
    expect_negative_cycle(g, e);
  }
}

TEST(Conformance, DenseInitialMatrixMatchesOracle) {
  SKIP_UNLESS_AVAILABLE();
  for (bool negative : {false, true}) {
    const std::uint64_t seed = 6000 + (negative ? 1 : 0);
    SCOPED_TRACE("seed=" + std::to_string(seed));
    apsp::testing::random_graph_spec spec;
    spec.n = 90;
    spec.density = 0.05;
    spec.negative_edges = negative;
    spec.self_loops = false;
    const auto g = apsp::testing::make_random_graph(spec, seed);
    const auto want = oracle(g);
    apsp::dense_matrix<std::int32_t> initial(spec.n);
    for (auto& v : initial.values())
      v = apsp::weight_traits<std::int32_t>::infinity;
    for (std::size_t e = 0; e < g.weights().size(); ++e) {
      auto& cell = initial(g.sources()[e], g.targets()[e]);
      cell = std::min(cell, static_cast<std::int32_t>(g.weights()[e]));
    }
    const auto r = apsp::solve_dense(std::move(initial), options_for(dtype::int32, true));
    EXPECT_EQ(r.executed_plan().algorithm, algorithm_under_test());
    expect_same_distances(r, want);
    apsp::testing::expect_paths_valid(g, r);
  }
}

TEST(Conformance, ProgressCanCancel) {
  SKIP_UNLESS_AVAILABLE();
  // Large enough for several rounds on every back end (cuda tiles are 128 wide, out-of-core
  // outer blocks wider still): a one-round solve has nothing left to cancel.
  apsp::testing::random_graph_spec spec;
  spec.n = 600;
  spec.density = 0.02;
  const auto g = apsp::testing::make_random_graph(spec, 5001);
  auto o = options_for(dtype::int32, false, 16);
  std::int64_t calls = 0;
  o.progress = [&](const apsp::progress_info& p) {
    ++calls;
    EXPECT_LE(p.rounds_done, p.rounds_total);
    return p.rounds_done < 2;
  };
  EXPECT_THROW((void)apsp::solve(g, o), apsp::cancelled_error);
  EXPECT_GE(calls, 2);
}

TEST(Conformance, ProgressReachesTheEnd) {
  SKIP_UNLESS_AVAILABLE();
  apsp::testing::random_graph_spec spec;
  spec.n = 100;
  const auto g = apsp::testing::make_random_graph(spec, 5002);
  auto o = options_for(dtype::int32, false);
  apsp::progress_info last;
  o.progress = [&](const apsp::progress_info& p) {
    last = p;
    return true;
  };
  (void)apsp::solve(g, o);
  EXPECT_GT(last.rounds_total, 0);
  EXPECT_EQ(last.rounds_done, last.rounds_total);
}

} // namespace
