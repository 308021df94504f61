// The supernodal Floyd-Warshall's pieces: the analysis (every pivot's finite rows lie in its
// step's rows, checked by a boolean Floyd-Warshall in the step order), the in-place
// relabelling, and whole solves against the blocked cpu solver and the oracle.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/test_graphs.hpp"
#include "cpu/elimination.hpp"
#include "cpu/supernodal_fw.hpp"
#include "cpu/supernodal_schedule.hpp"
#include "cpu/supernodal_step.hpp"

namespace {

struct arcs {
  std::int64_t n = 0;
  std::vector<std::int32_t> heads, tails;
  void add(std::int64_t u, std::int64_t v) {
    heads.push_back(static_cast<std::int32_t>(u));
    tails.push_back(static_cast<std::int32_t>(v));
  }
};

/// A w x h grid with some cells' diagonals, one direction or both: a road network's shape.
arcs grid(std::int64_t w, std::int64_t h, std::uint64_t seed, bool both_ways) {
  std::mt19937_64 rng(seed);
  arcs a;
  a.n = w * h;
  auto at = [w](std::int64_t x, std::int64_t y) { return y * w + x; };
  for (std::int64_t y = 0; y < h; ++y) {
    for (std::int64_t x = 0; x < w; ++x) {
      if (x + 1 < w)
        a.add(at(x, y), at(x + 1, y));
      if (y + 1 < h)
        a.add(at(x, y + 1), at(x, y));
      if (x + 1 < w && y + 1 < h && rng() % 5 == 0)
        a.add(at(x, y), at(x + 1, y + 1));
    }
  }
  if (both_ways) {
    const auto m = a.heads.size();
    for (std::size_t e = 0; e < m; ++e)
      a.add(a.tails[e], a.heads[e]);
  }
  return a;
}

/// An x * y * z grid, arcs both ways: separators of y * z vertices, wider than a kernel tile
/// from 12 x 12 x 12 on, and deep steps with hundreds of scattered ancestors.
arcs grid3(std::int64_t x, std::int64_t y, std::int64_t z) {
  arcs a;
  a.n = x * y * z;
  for (std::int64_t v = 0; v < a.n; ++v) {
    const std::int64_t i = v % x, j = v / x % y, k = v / (x * y);
    for (const std::int64_t u :
         {i + 1 < x ? v + 1 : -1, j + 1 < y ? v + x : -1, k + 1 < z ? v + x * y : -1}) {
      if (u >= 0) {
        a.add(v, u);
        a.add(u, v);
      }
    }
  }
  return a;
}

arcs random_arcs(std::int64_t n, std::int64_t m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  arcs a;
  a.n = n;
  for (std::int64_t e = 0; e < m; ++e)
    a.add(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)),
          static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)));
  return a;
}

/// The analysis's promise, checked by definition: a boolean Floyd-Warshall over the
/// symmetrised pattern in the steps' pivot order; at each pivot k every row i with a path to k
/// (F[i][k]) is among the rows of k's step.
void expect_plan_sound(const arcs& a) {
  SCOPED_TRACE("n = " + std::to_string(a.n) + ", arcs = " + std::to_string(a.heads.size()));
  const auto p = apsp::cpu::plan_elimination(a.n, a.heads, a.tails, a.n * a.n);
  const auto n = static_cast<std::size_t>(a.n);
  ASSERT_EQ(p.order.size(), n);
  std::vector<std::int32_t> sorted = p.order;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t v = 0; v < n; ++v) {
    ASSERT_EQ(sorted[v], static_cast<std::int32_t>(v));
    ASSERT_EQ(p.label[static_cast<std::size_t>(p.order[v])], static_cast<std::int32_t>(v));
  }
  std::vector<char> f(n * n, 0);
  for (std::size_t v = 0; v < n; ++v)
    f[v * n + v] = 1;
  for (std::size_t e = 0; e < a.heads.size(); ++e) {
    const auto u = static_cast<std::size_t>(p.label[static_cast<std::size_t>(a.heads[e])]);
    const auto v = static_cast<std::size_t>(p.label[static_cast<std::size_t>(a.tails[e])]);
    f[u * n + v] = f[v * n + u] = 1;
  }
  std::vector<int> pivoted(n, 0);
  double updates = 0;
  for (const auto& s : p.steps) {
    std::set<std::int32_t> rows;
    for (std::int32_t i = s.first; i <= s.top(); ++i)
      rows.insert(i);
    for (std::int64_t t = s.ancestors_begin; t < s.ancestors_end; ++t) {
      const std::int32_t anc = p.ancestors[static_cast<std::size_t>(t)];
      ASSERT_GT(anc, s.top());
      if (t > s.ancestors_begin)
        ASSERT_GT(anc, p.ancestors[static_cast<std::size_t>(t) - 1]);
      rows.insert(anc);
    }
    ASSERT_EQ(static_cast<std::int64_t>(rows.size()), s.rows());
    updates += s.updates();
    for (const std::int32_t k : s.members) {
      ASSERT_GE(k, s.first);
      ASSERT_LE(k, s.top());
      ++pivoted[static_cast<std::size_t>(k)];
      const auto ku = static_cast<std::size_t>(k);
      for (std::size_t i = 0; i < n; ++i) {
        if (f[i * n + ku])
          ASSERT_TRUE(rows.count(static_cast<std::int32_t>(i)))
              << "pivot " << k << " reaches row " << i << " outside its step";
      }
      for (std::size_t i = 0; i < n; ++i) {
        if (!f[i * n + ku])
          continue;
        for (std::size_t j = 0; j < n; ++j)
          f[i * n + j] = static_cast<char>(f[i * n + j] | f[ku * n + j]);
      }
    }
  }
  for (std::size_t v = 0; v < n; ++v)
    ASSERT_EQ(pivoted[v], 1) << "label " << v << " is pivoted " << pivoted[v] << " times";
  EXPECT_DOUBLE_EQ(updates, p.updates);
}

TEST(SupernodalPlan, EveryPivotsRowsLieInItsStep) {
  expect_plan_sound(grid(12, 9, 1, true));
  expect_plan_sound(grid(15, 15, 2, false));
  expect_plan_sound(random_arcs(120, 200, 3)); // several components, isolated vertices
  expect_plan_sound(random_arcs(60, 600, 4));  // dense: wide supernodes
  expect_plan_sound(random_arcs(2, 3, 5));     // self-loops and parallel arcs only
  arcs star;
  star.n = 40;
  for (int v = 1; v < 40; ++v)
    star.add(0, v);
  expect_plan_sound(star);
  arcs path;
  path.n = 50;
  for (int v = 0; v + 1 < 50; ++v)
    path.add(v, v + 1);
  expect_plan_sound(path);
  arcs none;
  none.n = 7;
  expect_plan_sound(none);
}

TEST(SupernodalPlan, NestedDissectionSavesMostUpdatesOnAGrid) {
  if (!apsp::cpu::have_metis())
    GTEST_SKIP() << "built without METIS (libmetis-dev)";
  const auto a = grid(40, 40, 6, true);
  const auto p = apsp::cpu::plan_elimination(a.n, a.heads, a.tails, a.n * a.n);
  EXPECT_EQ(p.order_name, "METIS nested dissection");
  const double n3 = static_cast<double>(a.n) * static_cast<double>(a.n) * static_cast<double>(a.n);
  EXPECT_LT(p.updates, n3 / 10) << p.updates; // a 40 x 40 grid: separators of about 40
}

TEST(SupernodalPlan, TooMuchFillIsReportedNotAnalysed) {
  const auto a = random_arcs(200, 2000, 7);
  const auto p = apsp::cpu::plan_elimination(a.n, a.heads, a.tails, 500);
  EXPECT_TRUE(p.steps.empty());
  EXPECT_TRUE(std::isinf(p.updates));
  EXPECT_NE(p.order_name.find("exceeds 500"), std::string::npos) << p.order_name;
}

template <class E> void expect_permuted(std::int64_t n, const std::vector<std::int32_t>& to) {
  std::vector<E> d(static_cast<std::size_t>(n * n));
  std::iota(d.begin(), d.end(), E{0});
  const std::vector<E> before = d;
  for (const int threads : {1, 2, 3, 5}) {
    d = before;
    apsp::cpu::permute_symmetric(d.data(), n, to, threads);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        const auto moved = static_cast<std::size_t>(to[static_cast<std::size_t>(i)] * n +
                                                    to[static_cast<std::size_t>(j)]);
        ASSERT_EQ(d[moved], before[static_cast<std::size_t>(i * n + j)])
            << "n " << n << " threads " << threads << " at " << i << ", " << j;
      }
    }
  }
}

TEST(SupernodalPermute, MovesEveryCellOnce) {
  std::mt19937_64 rng(8);
  for (const std::int64_t n : {1, 2, 7, 64, 301}) {
    std::vector<std::int32_t> to(static_cast<std::size_t>(n));
    std::iota(to.begin(), to.end(), 0);
    expect_permuted<std::int32_t>(n, to); // identity: n cycles of one
    std::reverse(to.begin(), to.end());
    expect_permuted<double>(n, to); // 2-cycles
    std::rotate(to.begin(), to.begin() + 1, to.end());
    expect_permuted<std::int64_t>(n, to);
    for (std::int64_t v = 0; v < n; ++v) // one cycle of n
      to[static_cast<std::size_t>(v)] = static_cast<std::int32_t>((v + 1) % n);
    expect_permuted<float>(n, to);
    std::shuffle(to.begin(), to.end(), rng);
    expect_permuted<std::int32_t>(n, to);
  }
}

apsp::graph weighted(const arcs& a, std::uint64_t seed, int lo, int hi) {
  std::mt19937_64 rng(seed);
  apsp::graph g(a.n);
  for (std::size_t e = 0; e < a.heads.size(); ++e) {
    const auto w = lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
    g.add_edge(a.heads[e], a.tails[e], w);
  }
  return g;
}

TEST(SupernodalSolve, BitIdenticalToBlockedCpuOnRoadShapedGraphs) {
  // Arcs both ways on a grid, and a one-way grid (x never decreases, y never increases: no
  // cycle, so negative weights are safe; many pairs unreachable).
  const auto both = weighted(grid(31, 29, 9, true), 10, 1, 1000);
  const auto one_way = weighted(grid(30, 30, 11, false), 12, -5, 40);
  for (const auto* g : {&both, &one_way}) {
    apsp::solve_options fw;
    fw.backend = apsp::backend_kind::cpu;
    fw.algorithm = apsp::algorithm_kind::floyd_warshall;
    fw.paths = true;
    const auto want = apsp::solve(*g, fw);
    for (const int threads : {1, 2, 3}) {
      auto o = fw;
      o.algorithm = apsp::algorithm_kind::supernodal;
      o.threads = threads;
      const auto r = apsp::solve(*g, o);
      EXPECT_EQ(r.executed_plan().algorithm, apsp::algorithm_kind::supernodal);
      const auto got = std::get<apsp::dense_matrix<std::int32_t>>(r.distances()).values();
      const auto ref = std::get<apsp::dense_matrix<std::int32_t>>(want.distances()).values();
      EXPECT_TRUE(std::equal(got.begin(), got.end(), ref.begin(), ref.end()))
          << "threads " << threads;
      apsp::testing::expect_paths_valid(*g, r);
    }
  }
}

TEST(SupernodalSolve, AutoPicksItForARoadShapedGraphOnTheCpu) {
  if (!apsp::cpu::have_metis())
    GTEST_SKIP() << "built without METIS (libmetis-dev)";
  const auto g = weighted(grid(60, 50, 13, true), 14, 1, 100);
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  o.threads = 2;
  const auto p = apsp::make_plan(g, o);
  EXPECT_EQ(p.algorithm, apsp::algorithm_kind::supernodal) << p.algorithm_reason;
  EXPECT_NE(p.algorithm_reason.find("supernodal FW on cpu"), std::string::npos);
  EXPECT_NE(p.device.find("METIS nested dissection"), std::string::npos) << p.device;
  // A random graph of the same size and arc count has no small separators: not supernodal.
  apsp::testing::random_graph_spec spec;
  spec.n = 3000;
  spec.density = static_cast<double>(g.num_edges()) / (3000.0 * 3000.0);
  const auto r = apsp::make_plan(apsp::testing::make_random_graph(spec, 15), o);
  EXPECT_NE(r.algorithm, apsp::algorithm_kind::supernodal) << r.algorithm_reason;
}

TEST(SupernodalSolve, RefusesOtherBackEndsAndCheckpoints) {
  const auto g = weighted(grid(5, 5, 16, true), 17, 1, 9);
  apsp::solve_options o;
  o.algorithm = apsp::algorithm_kind::supernodal;
  o.backend = apsp::backend_kind::reference;
  EXPECT_THROW((void)apsp::make_plan(g, o), apsp::backend_unavailable_error);
  o.backend = apsp::backend_kind::cpu;
  o.checkpoint_dir = "unused_checkpoint_dir";
  EXPECT_THROW((void)apsp::make_plan(g, o), apsp::invalid_argument_error);
}

} // namespace

namespace {

/// The schedule's promise: every step once, in a subtree (a contiguous range of steps closed
/// under children, run by one thread) or among the top steps (whose children may be anywhere,
/// whose parents are top steps too); subtrees heaviest first.
void expect_schedule_sound(const apsp::cpu::elimination_plan& p, int threads) {
  SCOPED_TRACE("threads " + std::to_string(threads));
  const auto s = apsp::cpu::schedule_steps(p, threads);
  const auto parent = apsp::cpu::step_parents(p);
  const auto count = static_cast<std::int64_t>(p.steps.size());
  std::vector<int> seen(static_cast<std::size_t>(count), 0);
  std::vector<char> top(static_cast<std::size_t>(count), 0);
  for (const std::int64_t t : s.top_steps) {
    ++seen[static_cast<std::size_t>(t)];
    top[static_cast<std::size_t>(t)] = 1;
  }
  for (std::size_t u = 0; u < s.subtrees.size(); ++u) {
    const auto& sub = s.subtrees[u];
    if (u > 0)
      EXPECT_GE(s.subtrees[u - 1].updates, sub.updates);
    double updates = 0;
    for (std::int64_t t = sub.first_step; t <= sub.root_step; ++t) {
      ++seen[static_cast<std::size_t>(t)];
      updates += p.steps[static_cast<std::size_t>(t)].updates();
      const std::int64_t up = parent[static_cast<std::size_t>(t)];
      if (t < sub.root_step) // inside: its parent is in the same subtree
        EXPECT_TRUE(up > t && up <= sub.root_step) << "step " << t;
    }
    EXPECT_DOUBLE_EQ(updates, sub.updates);
    // Nothing outside the range hangs below it.
    for (std::int64_t t = 0; t < count; ++t) {
      const std::int64_t up = parent[static_cast<std::size_t>(t)];
      if (up >= sub.first_step && up <= sub.root_step)
        EXPECT_TRUE(t >= sub.first_step && t < sub.root_step) << "step " << t;
    }
  }
  for (std::int64_t t = 0; t < count; ++t) {
    EXPECT_EQ(seen[static_cast<std::size_t>(t)], 1) << "step " << t;
    const std::int64_t up = parent[static_cast<std::size_t>(t)];
    if (top[static_cast<std::size_t>(t)] && up >= 0)
      EXPECT_TRUE(top[static_cast<std::size_t>(up)]) << "step " << t;
  }
  if (threads == 1)
    EXPECT_TRUE(s.subtrees.empty());
}

TEST(SupernodalSchedule, SubtreesAndTopStepsCoverEveryStepOnce) {
  for (const auto& a : {grid3(12, 12, 12), grid(31, 29, 9, true), random_arcs(120, 200, 3)}) {
    const auto p = apsp::cpu::plan_elimination(a.n, a.heads, a.tails, a.n * a.n);
    for (const int threads : {1, 2, 3, 16})
      expect_schedule_sound(p, threads);
  }
  const auto a = grid3(12, 12, 12);
  const auto p = apsp::cpu::plan_elimination(a.n, a.heads, a.tails, a.n * a.n);
  EXPECT_GE(apsp::cpu::schedule_steps(p, 2).subtrees.size(), 2u);
}

template <class T> std::vector<T> values_of(const apsp::result& r) {
  const auto v = std::get<apsp::dense_matrix<T>>(r.distances()).values();
  return {v.begin(), v.end()};
}

std::vector<std::int32_t> vias_of(const apsp::result& r) {
  const auto& v = r.via();
  return {v.data(), v.data() + v.n() * v.n()};
}

/// Whole solves on 1, 2 and 3 threads: identical distances and vias (the subtrees' merges give
/// what one thread gives); distances equal to the blocked solver's where `compare_blocked`;
/// paths valid on graphs small enough to expand every pair.
template <class T>
void expect_same_on_any_threads(const apsp::graph& g, apsp::dtype type, bool compare_blocked) {
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  o.algorithm = apsp::algorithm_kind::supernodal;
  o.type = type;
  o.paths = true;
  o.threads = 1;
  const auto one = apsp::solve(g, o);
  ASSERT_EQ(one.executed_plan().algorithm, apsp::algorithm_kind::supernodal);
  if (g.num_vertices() <= 1000)
    apsp::testing::expect_paths_valid(g, one);
  if (compare_blocked) {
    auto fw = o;
    fw.algorithm = apsp::algorithm_kind::floyd_warshall;
    EXPECT_TRUE(values_of<T>(apsp::solve(g, fw)) == values_of<T>(one));
  }
  for (const int threads : {2, 3}) {
    o.threads = threads;
    const auto r = apsp::solve(g, o);
    EXPECT_TRUE(values_of<T>(r) == values_of<T>(one)) << "threads " << threads;
    EXPECT_TRUE(vias_of(r) == vias_of(one)) << "threads " << threads;
    auto no_paths = o; // ancestor cells then take their minima in place, under the locks
    no_paths.paths = false;
    EXPECT_TRUE(values_of<T>(apsp::solve(g, no_paths)) == values_of<T>(one))
        << "threads " << threads;
  }
}

TEST(SupernodalSolve, WideStepsAndManyAncestorsGiveTheSameBitsOnAnyThreads) {
  const auto a = grid3(14, 14, 14);
  const auto p = apsp::cpu::plan_elimination(a.n, a.heads, a.tails, a.n * a.n);
  // The cases this test is for: steps wider than a kernel tile (several rounds) and steps with
  // more scattered ancestors than a gathered block holds.
  if (apsp::cpu::have_metis()) {
    EXPECT_GT(p.widest, apsp::cpu::supernodal_tile);
    std::int64_t most = 0;
    for (const auto& s : p.steps)
      most = std::max(most, s.ancestors_end - s.ancestors_begin);
    EXPECT_GT(most, apsp::cpu::supernodal_tile);
  }
  // Small weights: many ties between paths, so the vias show any merge order.
  const auto g = weighted(a, 21, 1, 3);
  expect_same_on_any_threads<std::int32_t>(g, apsp::dtype::int32, true);
  expect_same_on_any_threads<float>(weighted(a, 22, 1, 100), apsp::dtype::float32, false);
  expect_same_on_any_threads<std::int64_t>(weighted(a, 23, 0, 2), apsp::dtype::int64, true);
}

TEST(SupernodalSolve, WideStepsGiveValidPathsOnAnyThreads) {
  // Dense enough that the top supernode is wider than a tile; 3D grids of 500 vertices (steps
  // of several rounds only with METIS's order of a denser one, so both).
  const auto dense = weighted(random_arcs(400, 5000, 27), 28, 0, 5);
  expect_same_on_any_threads<std::int32_t>(dense, apsp::dtype::int32, true);
  expect_same_on_any_threads<float>(weighted(grid3(10, 10, 5), 29, 1, 4), apsp::dtype::float32,
                                    false);
}

TEST(SupernodalSolve, NegativeWeightsWithoutCyclesOnAnyThreads) {
  // One-way grid (no cycle), negative and zero weights, many unreachable pairs.
  const auto g = weighted(grid(40, 36, 24, false), 25, -20, 30);
  expect_same_on_any_threads<std::int32_t>(g, apsp::dtype::int32, true);
  expect_same_on_any_threads<double>(g, apsp::dtype::float64, false);
}

TEST(SupernodalSolve, NegativeCycleIsReportedOnAnyThreads) {
  auto g = weighted(grid3(6, 6, 6), 26, 1, 9);
  g.add_edge(100, 101, -30); // 100 <-> 101 exists both ways: a cycle of weight <= -21
  for (const int threads : {1, 2, 3}) {
    apsp::solve_options o;
    o.backend = apsp::backend_kind::cpu;
    o.algorithm = apsp::algorithm_kind::supernodal;
    o.threads = threads;
    EXPECT_THROW((void)apsp::solve(g, o), apsp::negative_cycle_error) << "threads " << threads;
  }
}

} // namespace
