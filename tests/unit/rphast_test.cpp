// RPHAST tables (src/cpu/rphast.hpp, drivers::rphast_table) and tables in tiles
// (apsp::solve_table_tiles, plan::tiled) against Dijkstra's rows, exactly: street grids with
// one-way streets and closed blocks (unreachable targets), random sparse graphs with zero
// weights, parallel arcs and self-loops, negative weights through potentials; int32 and int64;
// every lane count, 1 and 3 threads; duplicate and empty sets. The closure's invariants (sweep
// order, arcs into earlier slots, targets inside) are checked on every case.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <variant>
#include <vector>

#include "apsp/apsp.hpp"
#include "apsp/hierarchy.hpp"
#include "apsp/table.hpp"
#include "common/table_cases.hpp"
#include "core/tuning.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/phast.hpp"
#include "cpu/potentials.hpp"
#include "cpu/rphast.hpp"

namespace {

using apsp::testing::dijkstra_table;
using apsp::testing::expect_same_table;
using apsp::testing::pick;
using apsp::testing::random_sparse;
using apsp::testing::street_grid;

/// What every closure must be: slots in increasing position, each arc from an earlier slot,
/// slot_of inverting position, every target inside.
template <class T>
void expect_valid_closure(const apsp::cpu::rphast_targets<T>& sel, std::int64_t n) {
  ASSERT_EQ(sel.slot_of.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(sel.down_offsets.size(), sel.position.size() + 1);
  for (std::size_t s = 0; s < sel.position.size(); ++s) {
    if (s > 0)
      EXPECT_LT(sel.position[s - 1], sel.position[s]);
    EXPECT_EQ(sel.slot_of[static_cast<std::size_t>(sel.position[s])], static_cast<std::int32_t>(s));
    for (auto a = sel.down_offsets[s]; a < sel.down_offsets[s + 1]; ++a)
      EXPECT_LT(sel.down_arcs[static_cast<std::size_t>(a)].other, static_cast<std::int32_t>(s));
  }
  for (const std::int32_t slot : sel.target_slot)
    EXPECT_TRUE(slot >= 0 && slot < static_cast<std::int32_t>(sel.position.size()));
}

template <class T>
void expect_rphast_table(const apsp::graph& g, const std::vector<std::int64_t>& sources,
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
  const auto ch = apsp::cpu::phast_hierarchy<T>(csr);
  ASSERT_TRUE(ch.complete);
  const auto sel = apsp::cpu::rphast_select(ch, std::span<const std::int32_t>(t32));
  expect_valid_closure(sel, g.num_vertices());
  for (const int lanes : {1, 4, 8, 16}) {
    for (const int threads : {1, 3}) {
      std::vector<T> got(sources.size() * targets.size(), T{-7});
      apsp::cpu::rphast_rows<T>(ch, sel, h, s32, t32, threads, lanes, got.data());
      expect_same_table(got, want, targets.size(),
                        std::to_string(lanes) + " lanes, " + std::to_string(threads) + " threads");
    }
  }
}

template <class T> void tables_of_every_kind() {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    for (const bool negative : {false, true}) {
      const auto g = street_grid(23, 17, 30, negative, seed);
      const auto targets = pick(g.num_vertices(), 40, seed + 100);
      const auto sources = pick(g.num_vertices(), 37, seed + 200, targets);
      expect_rphast_table<T>(g, sources, targets,
                             "grid seed " + std::to_string(seed) + (negative ? " negative" : ""));
    }
    const auto sparse = random_sparse(300, 700, seed);
    const auto targets = pick(300, 25, seed + 300);
    expect_rphast_table<T>(sparse, pick(300, 30, seed + 400, targets), targets,
                           "sparse seed " + std::to_string(seed));
  }
}

TEST(Rphast, Int32TablesAreDijkstras) {
  tables_of_every_kind<std::int32_t>();
}
TEST(Rphast, Int64TablesAreDijkstras) {
  tables_of_every_kind<std::int64_t>();
}

TEST(Rphast, SmallAndEmptySets) {
  const auto g = street_grid(6, 5, 9, false, 7);
  expect_rphast_table<std::int32_t>(g, {}, {3, 4}, "no sources");
  expect_rphast_table<std::int32_t>(g, {3, 4}, {}, "no targets");
  expect_rphast_table<std::int32_t>(g, {0}, {0}, "a closed vertex to itself");
  expect_rphast_table<std::int32_t>(g, {29, 29}, {29, 0, 15}, "one source twice");
  expect_rphast_table<std::int32_t>(apsp::graph(1), {0}, {0}, "one vertex");
}

TEST(Rphast, TheClosureOfOneTargetIsItsBackwardSearchSpace) {
  const auto g = street_grid(30, 20, 50, false, 9);
  auto csr = apsp::cpu::csr_from_edges<std::int32_t>(g);
  const auto ch = apsp::cpu::phast_hierarchy<std::int32_t>(csr);
  const std::vector<std::int32_t> one{123};
  const auto sel = apsp::cpu::rphast_select(ch, std::span<const std::int32_t>(one));
  apsp::cpu::upward_search<std::int32_t> back(ch.n, apsp::weight_traits<std::int32_t>::infinity);
  back.run(ch.down_offsets, ch.down_arcs, ch.position[123]);
  std::vector<std::int32_t> reached = back.reached();
  std::sort(reached.begin(), reached.end());
  EXPECT_EQ(sel.position, reached);
  EXPECT_LT(sel.size(), ch.n); // restricted: not the whole sweep
}

/// A planned table of a road-like graph, the engine forced, against Dijkstra's.
TEST(Rphast, SolveTableByEitherHierarchyEngine) {
  const auto g = street_grid(90, 80, 100, true, 11); // negative weights: potentials
  const auto targets = pick(g.num_vertices(), 300, 5);
  const auto sources = pick(g.num_vertices(), 500, 6, targets);
  apsp::solve_options o;
  o.type = apsp::dtype::int64;
  o.threads = 2;
  const auto want = dijkstra_table<std::int64_t>(g, sources, targets);
  apsp::plan p = apsp::make_plan(g, o, apsp::plan_request::block(500, 300));
  for (const apsp::driver d : {apsp::driver{apsp::drivers::rphast_table{2, 0}},
                               apsp::driver{apsp::drivers::rphast_table{1, 4}},
                               apsp::driver{apsp::drivers::ch_table{2}}}) {
    p.run = d;
    p.block = 77; // tiles of 77 rows, the last one short
    apsp::any_rows out;
    const apsp::plan ran = apsp::solve_table_into(g, sources, targets, p, o, out);
    EXPECT_EQ(ran.run.index(), d.index());
    expect_same_table(std::get<std::vector<std::int64_t>>(out), want, targets.size(),
                      apsp::to_string(d));
  }
}

TEST(Rphast, FullRowsSweepTheWholeHierarchy) {
  // Every vertex a target (a block of plan_request::block(S, -1)): the closure is the whole
  // hierarchy and the rows are PHAST's, in vertex order.
  const auto g = street_grid(50, 40, 80, true, 12);
  const auto sources = pick(g.num_vertices(), 70, 13);
  std::vector<std::int64_t> every(static_cast<std::size_t>(g.num_vertices()));
  for (std::size_t v = 0; v < every.size(); ++v)
    every[v] = static_cast<std::int64_t>(v);
  apsp::solve_options o;
  o.type = apsp::dtype::int32;
  apsp::plan p = apsp::make_plan(g, o, apsp::plan_request::block(70, -1));
  p.run = apsp::drivers::rphast_table{2, 0};
  apsp::any_rows out;
  (void)apsp::solve_table_into(g, sources, every, p, o, out);
  expect_same_table(std::get<std::vector<std::int32_t>>(out),
                    dijkstra_table<std::int32_t>(g, sources, every), every.size(), "full rows");
}

TEST(Rphast, ThePlannerWeighsRphastAgainstTheBucketsAndDijkstra) {
  const auto g = street_grid(120, 100, 100, false, 3);
  apsp::solve_options o;
  o.type = apsp::dtype::int32;
  o.threads = 2;
  // Both sets large: the hierarchy, and of its engines the sweeps (the cost model's constants,
  // src/core/algorithm_choice.cpp).
  const apsp::plan p = apsp::make_plan(g, o, apsp::plan_request::block(5000, 5000));
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::rphast_table>(p.run))
      << apsp::to_string(p.run) << ": " << p.algorithm_reason;
  EXPECT_NE(p.algorithm_reason.find("RPHAST"), std::string::npos) << p.algorithm_reason;
  EXPECT_NE(p.algorithm_reason.find("buckets"), std::string::npos) << p.algorithm_reason;
  // A few targets: Dijkstra from them on the reversed graph, no hierarchy to build.
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::block_rows>(
      apsp::make_plan(g, o, apsp::plan_request::block(5000, 20)).run));
  // The developer knob forces the buckets.
  {
    const apsp::detail::scoped_tuning knob(
        [](apsp::detail::tuning& t) { t.table_engine = "buckets"; });
    const apsp::plan b = apsp::make_plan(g, o, apsp::plan_request::block(5000, 5000));
    EXPECT_TRUE(std::holds_alternative<apsp::drivers::ch_table>(b.run)) << apsp::to_string(b.run);
  }
  // Float weights keep Dijkstra.
  o.type = apsp::dtype::float32;
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::block_rows>(
      apsp::make_plan(g, o, apsp::plan_request::block(5000, 5000)).run));
}

TEST(Rphast, APreparedHierarchysTablesAreDijkstrasByEitherEngine) {
  const auto g = street_grid(40, 30, 60, true, 5);
  const auto targets = pick(g.num_vertices(), 30, 8);
  const auto sources = pick(g.num_vertices(), 900, 9, targets);
  apsp::solve_options o;
  o.type = apsp::dtype::int32;
  const apsp::hierarchy h(g, o);
  const auto want = dijkstra_table<std::int32_t>(g, sources, targets);
  for (const char* engine : {"rphast", "buckets", ""}) {
    const apsp::detail::scoped_tuning knob(
        [engine](apsp::detail::tuning& t) { t.table_engine = engine; });
    const apsp::table_result r = h.table(sources, targets, 2);
    if (std::string(engine) == "rphast")
      EXPECT_TRUE(std::holds_alternative<apsp::drivers::rphast_table>(r.ran.run));
    if (std::string(engine) == "buckets")
      EXPECT_TRUE(std::holds_alternative<apsp::drivers::ch_table>(r.ran.run));
    expect_same_table(std::get<std::vector<std::int32_t>>(r.distances), want, targets.size(),
                      std::string("prepared, ") + (*engine ? engine : "the cost model's engine") +
                          ": " + r.ran.algorithm_reason);
  }
}

/// Keeps the tiles it is given in a table of its own; `held` tiles count as written already.
template <class T> class collecting_sink : public apsp::table_tile_sink {
public:
  collecting_sink(std::size_t rows, std::size_t cols) : cols_(cols), values_(rows * cols, T{-5}) {}
  [[nodiscard]] bool has(std::int64_t index) const override {
    return std::find(held.begin(), held.end(), index) != held.end();
  }
  void put(std::int64_t index, std::int64_t first, std::int64_t count,
           const void* values) override {
    put_tiles.push_back(index);
    std::memcpy(values_.data() + static_cast<std::size_t>(first) * cols_, values,
                static_cast<std::size_t>(count) * cols_ * sizeof(T));
  }
  std::vector<std::int64_t> held;
  std::vector<std::int64_t> put_tiles;
  std::size_t cols_;
  std::vector<T> values_;
};

TEST(TableTiles, ABudgetTooSmallForTheTablePlansTilesOfSources) {
  const auto g = street_grid(60, 50, 100, false, 2);
  const auto targets = pick(g.num_vertices(), 400, 1);
  const auto sources = pick(g.num_vertices(), 700, 2, targets);
  const auto rows = static_cast<std::int64_t>(sources.size());
  const auto cols = static_cast<std::int64_t>(targets.size());
  apsp::solve_options o;
  o.type = apsp::dtype::int32;
  o.threads = 2;
  const apsp::plan whole = apsp::make_plan(g, o, apsp::plan_request::block(rows, cols));
  ASSERT_FALSE(whole.tiled);
  // A budget that holds the working memory and about a fifth of the table.
  o.host_memory_limit = whole.working_host_bytes + static_cast<std::uint64_t>(rows * cols) * 4 / 5;
  const apsp::plan p = apsp::make_plan(g, o, apsp::plan_request::block(rows, cols));
  ASSERT_TRUE(p.tiled) << p.reason;
  EXPECT_TRUE(p.fits);
  EXPECT_GT(p.block, rows / 6);
  EXPECT_LT(p.block, rows / 4);
  EXPECT_EQ(p.rounds, (rows + p.block - 1) / p.block);
  EXPECT_LE(p.host_bytes, o.host_memory_limit);
  // solve_table refuses to hold it; solve_table_tiles writes it.
  EXPECT_THROW((void)apsp::solve_table(g, sources, targets, o), apsp::out_of_memory_error);
  const auto want = dijkstra_table<std::int32_t>(g, sources, targets);
  std::vector<std::int64_t> progress;
  o.progress = [&](const apsp::progress_info& i) {
    if (i.stage.empty())
      progress.push_back(i.rounds_done);
    return true;
  };
  collecting_sink<std::int32_t> all(sources.size(), targets.size());
  (void)apsp::solve_table_tiles(g, sources, targets, p, o, all);
  expect_same_table(all.values_, want, targets.size(), "tiles");
  EXPECT_EQ(static_cast<std::int64_t>(all.put_tiles.size()), p.rounds);
  EXPECT_EQ(progress.back(), p.rounds);
  // A resumed run makes only the tiles the sink lacks.
  collecting_sink<std::int32_t> resumed(sources.size(), targets.size());
  resumed.held = {0, 2};
  (void)apsp::solve_table_tiles(g, sources, targets, p, o, resumed);
  EXPECT_TRUE(std::find(resumed.put_tiles.begin(), resumed.put_tiles.end(), 0) ==
              resumed.put_tiles.end());
  EXPECT_EQ(static_cast<std::int64_t>(resumed.put_tiles.size()), p.rounds - 2);
  // Dijkstra's rows in tiles too (from the sources), and the bucket engine.
  for (const apsp::driver d : {apsp::driver{apsp::drivers::block_rows{2, true, 0}},
                               apsp::driver{apsp::drivers::ch_table{2}}}) {
    apsp::plan q = p;
    q.run = d;
    collecting_sink<std::int32_t> out(sources.size(), targets.size());
    (void)apsp::solve_table_tiles(g, sources, targets, q, o, out);
    expect_same_table(out.values_, want, targets.size(), apsp::to_string(d));
  }
  // Cancelled between tiles.
  int calls = 0;
  o.progress = [&](const apsp::progress_info&) { return ++calls < 3; };
  collecting_sink<std::int32_t> cancelled(sources.size(), targets.size());
  EXPECT_THROW((void)apsp::solve_table_tiles(g, sources, targets, p, o, cancelled),
               apsp::cancelled_error);
}

} // namespace

namespace {

TEST(TableTiles, APreparedHierarchysTableInTiles) {
  const auto g = street_grid(40, 30, 60, true, 15);
  const auto targets = pick(g.num_vertices(), 50, 16);
  const auto sources = pick(g.num_vertices(), 130, 17, targets);
  apsp::solve_options o;
  o.type = apsp::dtype::int64;
  const apsp::hierarchy h(g, o);
  collecting_sink<std::int64_t> out(sources.size(), targets.size());
  out.held = {1};
  std::vector<std::int64_t> reported;
  const apsp::plan ran =
      h.table_tiles(sources, targets, 2, 32, out, [&](const apsp::progress_info& i) {
        reported.push_back(i.sources_done);
        return true;
      });
  EXPECT_TRUE(ran.tiled);
  EXPECT_EQ(ran.block, 32);
  EXPECT_EQ(ran.rounds, (static_cast<std::int64_t>(sources.size()) + 31) / 32);
  EXPECT_EQ(static_cast<std::int64_t>(out.put_tiles.size()), ran.rounds - 1); // tile 1 held
  const auto want = dijkstra_table<std::int64_t>(g, sources, targets);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (i / 32 == 1)
      continue; // not made: the sink had it
    for (std::size_t j = 0; j < targets.size(); ++j)
      ASSERT_EQ(out.values_[i * targets.size() + j], want[i * targets.size() + j])
          << i << ", " << j;
  }
  EXPECT_EQ(reported.back(), static_cast<std::int64_t>(sources.size()));
  EXPECT_THROW((void)h.table_tiles(sources, targets, 2, 0, out), apsp::invalid_argument_error);
}

} // namespace
