// Tables from a contraction hierarchy (src/cpu/ch_table.hpp, apsp::solve_table) against
// Dijkstra's rows, exactly: grids with one-way streets and closed blocks (unreachable parts),
// random sparse graphs with zero weights, parallel arcs and self-loops, negative weights
// through potentials; int32 and int64; duplicate sources and targets, sources that are targets,
// empty sets; generous and starved witness searches; 1 to 3 threads; with and without
// stall-on-demand in the searches. And the planner: auto picks a hierarchy's table (buckets or
// RPHAST) for a large road-like integer graph, Dijkstra for float weights.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "apsp/apsp.hpp"
#include "apsp/table.hpp"
#include "common/table_cases.hpp"
#include "cpu/ch_table.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/phast.hpp"
#include "cpu/potentials.hpp"

namespace {

using apsp::testing::dijkstra_table;
using apsp::testing::expect_same_table;
using apsp::testing::pick;
using apsp::testing::random_sparse;
using apsp::testing::street_grid;

/// The hierarchy's table of g (potentials first where a weight is negative) against
/// Dijkstra's, for several witness limits and thread counts.
template <class T>
void expect_dijkstra_table(const apsp::graph& g, const std::vector<std::int64_t>& sources,
                           const std::vector<std::int64_t>& targets, const std::string& what) {
  SCOPED_TRACE(what);
  const auto want = dijkstra_table<T>(g, sources, targets);
  auto csr = apsp::cpu::csr_from_edges<T>(g);
  std::vector<T> h;
  const auto summary = g.summarize_weights();
  if (summary.has_negative || csr.negative_loop >= 0) {
    h = apsp::cpu::johnson_potentials(csr);
    apsp::cpu::reweight(csr, h);
  }
  const std::vector<std::int32_t> s32(sources.begin(), sources.end());
  const std::vector<std::int32_t> t32(targets.begin(), targets.end());
  apsp::cpu::contraction_limits starved;
  starved.settle_limit = 3;
  starved.estimate_settle_limit = 2;
  starved.shortcut_budget = 1000;
  for (const auto& limits : {apsp::cpu::contraction_limits{}, starved}) {
    const auto ch = apsp::cpu::phast_hierarchy<T>(csr, limits);
    ASSERT_TRUE(ch.complete);
    for (const int threads : {1, 3}) {
      for (const bool stall : {true, false}) {
        std::vector<T> got(sources.size() * targets.size(), T{-7});
        apsp::cpu::ch_table<T>(ch, h, s32, t32, threads, got.data(), stall);
        expect_same_table(got, want, targets.size(),
                          "settle limit " + std::to_string(limits.settle_limit) + ", " +
                              std::to_string(threads) + " threads" +
                              (stall ? ", stalling" : ", no stalling"));
      }
    }
  }
}

template <class T> void tables_of_every_kind() {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    for (const bool negative : {false, true}) {
      const auto g = street_grid(23, 17, 30, negative, seed);
      const auto targets = pick(g.num_vertices(), 40, seed + 100);
      const auto sources = pick(g.num_vertices(), 35, seed + 200, targets);
      expect_dijkstra_table<T>(g, sources, targets,
                               "grid seed " + std::to_string(seed) + (negative ? " negative" : ""));
    }
    const auto sparse = random_sparse(300, 700, seed);
    const auto targets = pick(300, 25, seed + 300);
    expect_dijkstra_table<T>(sparse, pick(300, 30, seed + 400, targets), targets,
                             "sparse seed " + std::to_string(seed));
  }
}

TEST(ChTable, Int32TablesAreDijkstras) {
  tables_of_every_kind<std::int32_t>();
}
TEST(ChTable, Int64TablesAreDijkstras) {
  tables_of_every_kind<std::int64_t>();
}

TEST(ChTable, SmallAndEmptySets) {
  const auto g = street_grid(6, 5, 9, false, 7);
  expect_dijkstra_table<std::int32_t>(g, {}, {3, 4}, "no sources");
  expect_dijkstra_table<std::int32_t>(g, {3, 4}, {}, "no targets");
  expect_dijkstra_table<std::int32_t>(g, {0}, {0}, "a closed vertex to itself");
  expect_dijkstra_table<std::int32_t>(g, {29, 29}, {29, 0, 15}, "one source twice");
  expect_dijkstra_table<std::int32_t>(apsp::graph(1), {0}, {0}, "one vertex");
}

TEST(ChTable, SolveTableChoosesTheHierarchyOnRoadLikeIntegerGraphs) {
  const auto g = street_grid(120, 100, 100, false, 11);
  const auto targets = pick(g.num_vertices(), 3000, 5);
  const auto sources = pick(g.num_vertices(), 3000, 6, targets);
  apsp::solve_options o;
  o.type = apsp::dtype::int32;
  o.threads = 2;
  const apsp::table_result r = apsp::solve_table(g, sources, targets, o);
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::ch_table>(r.ran.run) ||
              std::holds_alternative<apsp::drivers::rphast_table>(r.ran.run))
      << apsp::to_string(r.ran.run) << ": " << r.ran.algorithm_reason;
  EXPECT_EQ(r.rows, static_cast<std::int64_t>(sources.size()));
  EXPECT_EQ(r.cols, static_cast<std::int64_t>(targets.size()));
  expect_same_table(std::get<std::vector<std::int32_t>>(r.distances),
                    dijkstra_table<std::int32_t>(g, sources, targets), targets.size(),
                    "solve_table");
  // Float weights keep Dijkstra (sums in floating point are not exact in any order).
  o.type = apsp::dtype::float32;
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::block_rows>(
      apsp::make_plan(g, o, apsp::plan_request::block(3000, 3000)).run));
  // Johnson asked for: Dijkstra's rows, as before.
  o.type = apsp::dtype::int32;
  o.algorithm = apsp::algorithm_kind::johnson;
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::block_rows>(
      apsp::make_plan(g, o, apsp::plan_request::block(3000, 3000)).run));
}

TEST(ChTable, SolveTableRefusesIdsOutsideTheGraph) {
  const auto g = street_grid(4, 4, 9, false, 1);
  const std::vector<std::int64_t> ok{1};
  const std::vector<std::int64_t> bad{16};
  EXPECT_THROW((void)apsp::solve_table(g, bad, ok), apsp::invalid_argument_error);
  EXPECT_THROW((void)apsp::solve_table(g, ok, bad), apsp::invalid_argument_error);
}

TEST(ChTable, ANegativeCycleRefusesTheTable) {
  apsp::graph g(3);
  g.add_edge(0, 1, 1);
  g.add_edge(1, 2, -3);
  g.add_edge(2, 1, 1);
  const std::vector<std::int64_t> s{0};
  apsp::solve_options o;
  o.type = apsp::dtype::int32;
  apsp::plan p = apsp::make_plan(g, o, apsp::plan_request::block(1, 1));
  p.run = apsp::drivers::ch_table{1};
  apsp::any_rows out;
  EXPECT_THROW((void)apsp::solve_table_into(g, s, s, p, o, out), apsp::negative_cycle_error);
}

TEST(ChTable, DijkstraRowsInBatchesWithProgressAndCancel) {
  const auto g = street_grid(9, 7, 20, true, 4);
  const auto targets = pick(g.num_vertices(), 5, 21);
  const auto sources = pick(g.num_vertices(), 11, 22, targets);
  apsp::solve_options o;
  o.type = apsp::dtype::int64;
  for (const bool from_targets : {false, true}) {
    SCOPED_TRACE(from_targets ? "from the targets" : "from the sources");
    apsp::plan p = apsp::make_plan(g, o, apsp::plan_request::block(13, 6));
    p.run = apsp::drivers::block_rows{2, from_targets, 3}; // batches of 3 searches
    std::vector<std::int64_t> seen;
    o.progress = [&](const apsp::progress_info& i) {
      seen.push_back(i.rounds_done);
      EXPECT_EQ(i.rounds_total,
                static_cast<std::int64_t>(from_targets ? targets.size() : sources.size()));
      return true;
    };
    apsp::any_rows out;
    (void)apsp::solve_table_into(g, sources, targets, p, o, out);
    expect_same_table(std::get<std::vector<std::int64_t>>(out),
                      dijkstra_table<std::int64_t>(g, sources, targets), targets.size(), "rows");
    EXPECT_TRUE(std::find(seen.begin(), seen.end(), 3) != seen.end()); // a batch boundary
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    int calls = 0;
    o.progress = [&](const apsp::progress_info&) { return ++calls < 2; };
    EXPECT_THROW((void)apsp::solve_table_into(g, sources, targets, p, o, out),
                 apsp::cancelled_error);
    o.progress = {};
  }
}

TEST(ChTable, ACycleFoundFromTheTargetsIsNamedInTheGraphsDirection) {
  apsp::graph g(4);
  g.add_edge(0, 1, 1);
  g.add_edge(1, 2, -2);
  g.add_edge(2, 3, -2);
  g.add_edge(3, 1, 1);
  const std::vector<std::int64_t> s{0, 1};
  const std::vector<std::int64_t> t{2};
  apsp::solve_options o;
  o.type = apsp::dtype::int32;
  apsp::plan p = apsp::make_plan(g, o, apsp::plan_request::block(2, 1));
  p.run = apsp::drivers::block_rows{1, true};
  apsp::any_rows out;
  try {
    (void)apsp::solve_table_into(g, s, t, p, o, out);
    ADD_FAILURE() << "no negative cycle reported";
  } catch (const apsp::negative_cycle_error& e) {
    ASSERT_EQ(e.cycle().size(), 3u) << e.what();
    EXPECT_EQ(e.cycle(), (std::vector<std::int64_t>{1, 2, 3})) << e.what();
  }
}

} // namespace
