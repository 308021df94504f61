// PHAST's sweeps on one GPU (src/cuda/cuda_phast.cpp, cuda/phast_sweep.hpp): tables and full
// rows bit for bit Dijkstra's (solve_from_sources) on street grids with one-way streets and
// closed blocks (unreachable parts), random sparse graphs, negative weights through
// potentials, and data/rome99.gr; sweeps of 32, 64 and 256 sources that do not divide the
// source counts; the levels launched one by one and replayed as a CUDA graph; the metrics
// through drivers::cuda_phast equal to the cpu's PHAST metrics, in one reduction and in many.
// Any sweep structure (a random one, as RPHAST's would come) against the same sweep on the
// host. The levels' regrouping is checked on the host. Skips without a device.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "apsp/apsp.hpp"
#include "apsp/io.hpp"
#include "common/same_metrics.hpp"
#include "common/sparse_graphs.hpp"
#include "common/table_cases.hpp"
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "core/metrics_accumulator.hpp"
#include "core/tuning.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/phast.hpp"
#include "cpu/potentials.hpp"
#include "cuda/phast_sweep.hpp"
#include "cuda/phast_table.hpp"
#include "gpu_skip.hpp"

namespace {

using apsp::testing::dijkstra_table;
using apsp::testing::expect_same_table;
using apsp::testing::pick;

/// A graph's hierarchy as the GPU sweeps take it: potentials first where a weight is negative.
struct prepared {
  apsp::cpu::contraction_hierarchy<std::int32_t> ch;
  std::vector<std::int32_t> h;
};

prepared prepare(const apsp::graph& g) {
  auto csr = apsp::cpu::csr_from_edges<std::int32_t>(g);
  prepared p;
  if (g.summarize_weights().has_negative || csr.negative_loop >= 0) {
    p.h = apsp::cpu::johnson_potentials(csr);
    apsp::cpu::reweight(csr, p.h);
  }
  p.ch = apsp::cpu::phast_hierarchy<std::int32_t>(csr);
  return p;
}

/// The GPU's table (targets empty: full rows) against Dijkstra's, for several lanes and
/// thread counts, the levels launched one by one and replayed as a CUDA graph.
void expect_dijkstra_table(const apsp::graph& g, const std::vector<std::int64_t>& sources,
                           std::vector<std::int64_t> targets, const std::string& what,
                           std::vector<int> lanes = {32, 64}) {
  SCOPED_TRACE(what);
  const bool full_rows = targets.empty();
  if (full_rows) {
    targets.resize(static_cast<std::size_t>(g.num_vertices()));
    std::iota(targets.begin(), targets.end(), std::int64_t{0});
  }
  const auto want = dijkstra_table<std::int32_t>(g, sources, targets);
  const prepared p = prepare(g);
  ASSERT_TRUE(p.ch.complete);
  for (const int l : lanes) {
    for (const int threads : {1, 3}) {
      apsp::cuda::gpu_sweep_config cfg;
      cfg.lanes = l;
      cfg.threads = threads;
      cfg.launch_graph = threads == 1; // both ways, on different thread counts
      std::vector<std::int32_t> got(sources.size() * targets.size(), -7);
      apsp::cuda::phast_table_on_gpu(p.ch, p.h, sources.data(),
                                     static_cast<std::int64_t>(sources.size()),
                                     full_rows ? nullptr : targets.data(),
                                     static_cast<std::int64_t>(targets.size()), cfg, got.data());
      expect_same_table(got, want, targets.size(),
                        std::to_string(l) + " lanes, " + std::to_string(threads) + " threads" +
                            (cfg.launch_graph ? ", a CUDA graph" : ", a launch a level") +
                            (full_rows ? ", full rows" : ""));
    }
  }
}

TEST(CudaPhast, TablesAndRowsAreDijkstras) {
  APSP_SKIP_WITHOUT_GPU();
  for (const std::uint64_t seed : {1u, 2u}) {
    for (const bool negative : {false, true}) {
      const auto g = apsp::testing::street_grid(23, 17, 30, negative, seed);
      const auto targets = pick(g.num_vertices(), 40, seed + 100);
      // 37 and 38 sources: sweeps of 32 and 64 lanes with a part-filled last batch.
      const auto sources = pick(g.num_vertices(), 35, seed + 200, targets);
      const std::string what = "grid seed " + std::to_string(seed) + (negative ? " negative" : "");
      expect_dijkstra_table(g, sources, targets, what);
      expect_dijkstra_table(g, sources, {}, what);
    }
    const auto sparse = apsp::testing::random_sparse(300, 700, seed);
    const auto targets = pick(300, 25, seed + 300);
    expect_dijkstra_table(sparse, pick(300, 70, seed + 400, targets), targets,
                          "sparse seed " + std::to_string(seed));
  }
}

TEST(CudaPhast, SmallAndEmptySets) {
  APSP_SKIP_WITHOUT_GPU();
  const auto g = apsp::testing::street_grid(6, 5, 9, false, 7);
  expect_dijkstra_table(g, {}, {3, 4}, "no sources");
  expect_dijkstra_table(g, {0}, {0}, "a closed vertex to itself");
  expect_dijkstra_table(g, {29, 29}, {29, 0, 15}, "one source twice");
  expect_dijkstra_table(apsp::graph(1), {0}, {}, "one vertex");
}

TEST(CudaPhast, Rome99RowsAndTableAreDijkstras) {
  APSP_SKIP_WITHOUT_GPU();
  const std::filesystem::path path = std::filesystem::path(APSP_REPO_DATA) / "rome99.gr";
  if (!std::filesystem::exists(path))
    GTEST_SKIP() << path << " is missing";
  const apsp::graph g = apsp::io::read_graph(path).g;
  ASSERT_EQ(g.num_vertices(), 3353);
  // 600 sources: two full sweeps of 256 and one of 88.
  std::vector<std::int64_t> sources(600);
  for (std::size_t i = 0; i < sources.size(); ++i)
    sources[i] = static_cast<std::int64_t>(i * 5 + 3);
  expect_dijkstra_table(g, sources, {}, "rome99 rows", {256});
  expect_dijkstra_table(g, sources, pick(g.num_vertices(), 500, 9), "rome99 table", {256, 32});
}

TEST(CudaPhast, AnyStructureSweptAsTheHostSweepsIt) {
  APSP_SKIP_WITHOUT_GPU();
  // A random structure (as a restricted one, RPHAST's, would come): 500 slots, up to 3 arcs
  // into each from earlier slots, some slots with none; 70 sources seeded at 1 to 4 slots
  // each; columns with repeats; potentials on both sides. Against the sweep done on the host.
  std::mt19937_64 rng(45);
  const std::int32_t cap = apsp::weight_traits<std::int32_t>::infinity;
  const std::int64_t n = 500;
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> arcs;
  for (std::int64_t p = 0; p < n; ++p) {
    const auto k = p == 0 ? 0 : static_cast<int>(rng() % 4);
    for (int a = 0; a < k; ++a) {
      arcs.push_back(static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(p)));
      arcs.push_back(static_cast<std::int32_t>(rng() % 21));
    }
    offsets.push_back(static_cast<std::int64_t>(arcs.size() / 2));
  }
  const std::int64_t rows = 70;
  std::vector<std::vector<apsp::cuda::sweep_seed>> seeds_of(rows);
  for (auto& s : seeds_of) {
    const int k = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < k; ++i) {
      const auto slot = static_cast<std::int32_t>(rng() % n);
      bool seen = false;
      for (const auto& x : s)
        seen = seen || x.slot == slot;
      if (!seen)
        s.push_back({slot, 0, static_cast<std::int32_t>(rng() % 50)});
    }
  }
  const std::int64_t cols = 90;
  std::vector<std::int32_t> col_slot(cols), col_h(cols), source_h(rows);
  for (auto& c : col_slot)
    c = static_cast<std::int32_t>(rng() % n);
  for (auto& h : col_h)
    h = static_cast<std::int32_t>(rng() % 30) - 15;
  for (auto& h : source_h)
    h = static_cast<std::int32_t>(rng() % 30) - 15;
  std::vector<std::int32_t> want(static_cast<std::size_t>(rows * cols));
  for (std::int64_t i = 0; i < rows; ++i) {
    std::vector<std::int32_t> d(static_cast<std::size_t>(n), cap);
    for (const auto& x : seeds_of[static_cast<std::size_t>(i)])
      d[static_cast<std::size_t>(x.slot)] = x.dist;
    for (std::int64_t p = 0; p < n; ++p)
      for (std::int64_t a = offsets[static_cast<std::size_t>(p)];
           a < offsets[static_cast<std::size_t>(p) + 1]; ++a) {
        const std::int32_t c = d[static_cast<std::size_t>(arcs[2 * a])] + arcs[2 * a + 1];
        d[static_cast<std::size_t>(p)] = std::min(d[static_cast<std::size_t>(p)], c);
      }
    for (std::int64_t j = 0; j < cols; ++j) {
      const std::int32_t raw = d[static_cast<std::size_t>(col_slot[static_cast<std::size_t>(j)])];
      want[static_cast<std::size_t>(i * cols + j)] =
          raw >= cap
              ? cap
              : raw + col_h[static_cast<std::size_t>(j)] - source_h[static_cast<std::size_t>(i)];
    }
  }
  const apsp::cuda::sweep_structure structure{n, offsets.data(), arcs.data()};
  const apsp::cuda::seed_source seeds = [&seeds_of](std::int64_t first, int count,
                                                    std::vector<apsp::cuda::sweep_seed>& out) {
    out.clear();
    for (int k = 0; k < count; ++k)
      for (auto x : seeds_of[static_cast<std::size_t>(first + k)]) {
        x.lane = k;
        out.push_back(x);
      }
  };
  for (const bool graph : {true, false}) {
    apsp::cuda::gpu_sweep_config cfg;
    cfg.lanes = 32; // 70 sources: two full batches and one of 6
    cfg.launch_graph = graph;
    std::vector<std::int32_t> got(want.size(), -7);
    apsp::cuda::sweep_table_on_gpu(structure, seeds, rows, col_slot.data(), col_h.data(), cols,
                                   source_h.data(), cfg, got.data());
    expect_same_table(got, want, static_cast<std::size_t>(cols),
                      graph ? "a CUDA graph" : "a launch a level");
  }
}

/// The metrics of g on the GPU's sweeps and on the cpu's PHAST: the same.
void expect_cpu_metrics(const apsp::graph& g, const std::string& what) {
  SCOPED_TRACE(what);
  apsp::solve_options cpu;
  cpu.backend = apsp::backend_kind::cpu;
  cpu.type = apsp::dtype::int32;
  apsp::solve_options gpu = cpu;
  gpu.backend = apsp::backend_kind::cuda;
  apsp::metrics_options m;
  m.histogram_bins = 16;
  const apsp::graph_metrics want = apsp::compute_metrics(g, cpu, m);
  ASSERT_TRUE(std::holds_alternative<apsp::drivers::phast_rows>(want.executed_plan.run))
      << apsp::to_string(want.executed_plan.run);
  const apsp::graph_metrics got = apsp::compute_metrics(g, gpu, m);
  ASSERT_TRUE(std::holds_alternative<apsp::drivers::cuda_phast>(got.executed_plan.run))
      << apsp::to_string(got.executed_plan.run) << ": " << got.executed_plan.algorithm_reason;
  EXPECT_FALSE(got.host_matrix);
  apsp::testing::expect_same_metrics(got, want);
}

TEST(CudaPhast, MetricsAreTheCpusPhastMetrics) {
  APSP_SKIP_WITHOUT_GPU();
  // Road-like (PHAST's test: at least 5,000 vertices, at most 4 arcs a vertex).
  apsp::testing::lattice_spec s;
  s.x = 97;
  s.y = 83;
  s.drop_percent = 6; // one-way streets, and some vertices cut off
  expect_cpu_metrics(apsp::testing::make_lattice(s, 5), "lattice 97 x 83");
  expect_cpu_metrics(apsp::testing::street_grid(90, 70, 50, true, 3),
                     "street grid 90 x 70, negative weights");
}

/// The metrics of g by drivers::cuda_phast with the lanes and held rows of `how` (not the
/// planner's), run as compute_metrics runs a plan reduced where it is solved.
apsp::graph_metrics gpu_metrics_by(const apsp::graph& g, apsp::drivers::cuda_phast how,
                                   const apsp::metrics_options& m) {
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cuda;
  o.type = apsp::dtype::int32;
  apsp::plan p = apsp::make_plan(g, o, apsp::plan_request::metrics());
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::cuda_phast>(p.run)) << apsp::to_string(p.run);
  p.run = how;
  const auto facts = apsp::detail::analyze_weights(g, o.type, false);
  apsp::detail::metrics_accumulator<std::int32_t> acc(g.num_vertices(), m);
  apsp::detail::metrics_reduction_sink<std::int32_t> sink(
      acc, apsp::detail::path_limit<std::int32_t>(facts));
  apsp::detail::run_context ctx(o, g.num_vertices(), facts.has_negative, &g);
  ctx.set_reduction(&sink);
  apsp::any_matrix unset = apsp::dense_matrix<std::int32_t>(0);
  apsp::detail::backend_for(p)->run(unset, nullptr, p, ctx);
  return acc.finish();
}

TEST(CudaPhast, MetricsInManyReductionsAreTheCpusPhastMetrics) {
  APSP_SKIP_WITHOUT_GPU();
  // 32 lanes and one or three batches a reduction: many blocks of rows, the last part-filled
  // (n = 6,231 is no multiple of 32 or 96), with and without the CUDA graph.
  apsp::testing::lattice_spec s;
  s.x = 93;
  s.y = 67;
  s.drop_percent = 4;
  const apsp::graph g = apsp::testing::make_lattice(s, 11);
  apsp::solve_options cpu;
  cpu.backend = apsp::backend_kind::cpu;
  cpu.type = apsp::dtype::int32;
  apsp::metrics_options m;
  m.histogram_bins = 24;
  const apsp::graph_metrics want = apsp::compute_metrics(g, cpu, m);
  for (const std::int64_t held : {32, 96}) {
    const bool graph = held == 96;
    SCOPED_TRACE("rows held " + std::to_string(held) + (graph ? ", a CUDA graph" : ""));
    const apsp::detail::scoped_tuning levels(
        [graph](apsp::detail::tuning& t) { t.cuda_phast_graph = graph; });
    apsp::testing::expect_same_metrics(gpu_metrics_by(g, {0, 32, 2, held}, m), want);
  }
}

TEST(CudaPhast, PlannedForCudaMetricsOnRoadGraphs) {
  APSP_SKIP_WITHOUT_GPU();
  apsp::testing::lattice_spec s;
  s.x = 80;
  s.y = 80;
  const apsp::graph g = apsp::testing::make_lattice(s, 2);
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cuda;
  o.type = apsp::dtype::int32;
  const apsp::plan p = apsp::make_plan(g, o, apsp::plan_request::metrics());
  ASSERT_TRUE(std::holds_alternative<apsp::drivers::cuda_phast>(p.run)) << apsp::to_string(p.run);
  EXPECT_EQ(p.backend, apsp::backend_kind::cuda);
  EXPECT_NE(apsp::to_string(p.run).find("cuda phast sweeps"), std::string::npos);
  o.type = apsp::dtype::float32; // float weights keep Dijkstra's exactness rules: no sweeps
  EXPECT_FALSE(std::holds_alternative<apsp::drivers::cuda_phast>(
      apsp::make_plan(g, o, apsp::plan_request::metrics()).run));
}

TEST(CudaPhastLevels, EveryArcComesFromAnEarlierLevel) {
  // Slots 0..5; arcs (tail -> head): 0->2, 1->2, 2->3, 0->4, 4->5, 3->5.
  const std::vector<std::int64_t> offsets{0, 0, 0, 2, 3, 4, 6};
  const std::vector<std::int32_t> arcs{0, 1, 1, 1, 2, 1, 0, 1, 4, 1, 3, 1};
  const apsp::cuda::sweep_structure s{6, offsets.data(), arcs.data()};
  const apsp::cuda::sweep_levels l = apsp::cuda::levels_of(s);
  // Levels: {0, 1}, {2, 4}, {3}, {5}.
  EXPECT_EQ(l.offsets, (std::vector<std::int64_t>{0, 2, 4, 5, 6}));
  EXPECT_EQ(l.order, (std::vector<std::int32_t>{0, 1, 2, 4, 3, 5}));
  for (std::size_t i = 0; i < l.order.size(); ++i)
    EXPECT_EQ(l.slot_of[static_cast<std::size_t>(l.order[i])], static_cast<std::int32_t>(i));
  // An arc from a later slot is refused.
  const std::vector<std::int32_t> backwards{0, 1, 1, 1, 5, 1, 0, 1, 4, 1, 3, 1};
  EXPECT_THROW((void)apsp::cuda::levels_of({6, offsets.data(), backwards.data()}),
               apsp::invalid_argument_error);
}

} // namespace
