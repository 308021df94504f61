// RPHAST's tables on one GPU (src/cuda/rphast_gpu.hpp, drivers::cuda_table): the targets'
// closure swept on the device, bit for bit Dijkstra's (solve_from_sources) and the cpu's
// RPHAST (cpu::rphast_rows) on street grids with one-way streets and closed blocks (unreachable
// targets), negative weights through potentials, and data/rome99.gr; source counts that are no
// multiple of the lanes (32, 64, 256), repeated sources and targets; and through
// apsp::solve_table, whose plan under --backend cuda names the driver (int32 only). Skips
// without a device.

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "apsp/apsp.hpp"
#include "apsp/io.hpp"
#include "common/table_cases.hpp"
#include "cpu/prepared_hierarchy.hpp"
#include "cpu/rphast.hpp"
#include "cuda/rphast_gpu.hpp"
#include "gpu_skip.hpp"

namespace {

using apsp::testing::dijkstra_table;
using apsp::testing::expect_same_table;
using apsp::testing::pick;

std::vector<std::int32_t> narrow(const std::vector<std::int64_t>& ids) {
  return {ids.begin(), ids.end()};
}

/// The GPU's RPHAST table against Dijkstra's and the cpu's RPHAST, for several lanes and
/// thread counts, the levels launched one by one and replayed as a CUDA graph.
void expect_dijkstra_table(const apsp::graph& g, const std::vector<std::int64_t>& sources,
                           const std::vector<std::int64_t>& targets, const std::string& what,
                           const std::vector<int>& lanes = {32, 64}) {
  SCOPED_TRACE(what);
  const auto want = dijkstra_table<std::int32_t>(g, sources, targets);
  const auto prepared = apsp::cpu::prepare_hierarchy<std::int32_t>(g, 2);
  ASSERT_TRUE(prepared.ch.complete);
  const auto s = narrow(sources);
  const auto t = narrow(targets);
  const auto sel = apsp::cpu::rphast_select(prepared.ch, std::span<const std::int32_t>(t));
  if (!targets.empty()) {
    // The closure is what makes RPHAST pay: never more than the hierarchy.
    EXPECT_LE(sel.size(), prepared.ch.n);
  }
  std::vector<std::int32_t> cpu(want.size(), -5);
  apsp::cpu::rphast_rows(prepared.ch, sel, prepared.h, std::span<const std::int32_t>(s),
                         std::span<const std::int32_t>(t), 2, 16, cpu.data());
  expect_same_table(cpu, want, targets.size(), "the cpu's RPHAST");
  for (const int l : lanes) {
    for (const int threads : {1, 3}) {
      apsp::cuda::gpu_sweep_config cfg;
      cfg.lanes = l;
      cfg.threads = threads;
      cfg.launch_graph = threads == 1; // both ways, on different thread counts
      std::vector<std::int32_t> got(want.size(), -7);
      apsp::cuda::rphast_table_on_gpu(prepared.ch, sel, prepared.h,
                                      std::span<const std::int32_t>(s),
                                      std::span<const std::int32_t>(t), cfg, got.data());
      const std::string how = std::to_string(l) + " lanes, " + std::to_string(threads) +
                              " threads" +
                              (cfg.launch_graph ? ", a CUDA graph" : ", a launch a level");
      expect_same_table(got, want, targets.size(), how);
      EXPECT_EQ(got, cpu) << how << ": not the cpu's RPHAST bit for bit";
    }
  }
}

TEST(CudaRphast, TablesAreDijkstras) {
  APSP_SKIP_WITHOUT_GPU();
  for (const std::uint64_t seed : {1u, 2u}) {
    for (const bool negative : {false, true}) {
      const auto g = apsp::testing::street_grid(23, 17, 30, negative, seed);
      const auto targets = pick(g.num_vertices(), 40, seed + 100);
      // 37 and 38 sources: sweeps of 32 and 64 lanes with a part-filled last batch.
      const auto sources = pick(g.num_vertices(), 35, seed + 200, targets);
      expect_dijkstra_table(g, sources, targets,
                            "grid seed " + std::to_string(seed) + (negative ? " negative" : ""));
    }
    const auto sparse = apsp::testing::random_sparse(300, 700, seed);
    const auto targets = pick(300, 25, seed + 300);
    expect_dijkstra_table(sparse, pick(300, 70, seed + 400, targets), targets,
                          "sparse seed " + std::to_string(seed));
  }
}

TEST(CudaRphast, SmallEmptyAndRepeatedSets) {
  APSP_SKIP_WITHOUT_GPU();
  const auto g = apsp::testing::street_grid(6, 5, 9, false, 7);
  expect_dijkstra_table(g, {}, {3, 4}, "no sources");
  expect_dijkstra_table(g, {3, 4}, {}, "no targets");
  expect_dijkstra_table(g, {0}, {0}, "a closed vertex to itself");
  expect_dijkstra_table(g, {29, 29}, {29, 0, 15, 0}, "one source twice, one target twice");
  expect_dijkstra_table(apsp::graph(1), {0}, {0}, "one vertex");
  // Two components: every target of the other one unreachable.
  apsp::graph split(6);
  split.add_edge(0, 1, 4);
  split.add_edge(1, 2, 1);
  split.add_edge(3, 4, 2);
  split.add_edge(4, 5, 7);
  expect_dijkstra_table(split, {0, 3, 2}, {2, 5, 0, 4}, "two components");
}

TEST(CudaRphast, Rome99TableIsDijkstras) {
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
  expect_dijkstra_table(g, sources, pick(g.num_vertices(), 500, 9), "rome99 table", {256, 32});
}

/// solve_table under `backend` (int32 unless `type`).
apsp::table_result table_on(const apsp::graph& g, const std::vector<std::int64_t>& sources,
                            const std::vector<std::int64_t>& targets, apsp::backend_kind backend,
                            apsp::dtype type = apsp::dtype::int32) {
  apsp::solve_options o;
  o.backend = backend;
  o.type = type;
  o.threads = 2;
  return apsp::solve_table(g, sources, targets, o);
}

TEST(CudaRphast, SolveTableRunsItUnderBackendCuda) {
  APSP_SKIP_WITHOUT_GPU();
  for (const bool negative : {false, true}) {
    SCOPED_TRACE(negative ? "negative weights" : "non-negative weights");
    // 6,000 vertices: road-like for the planner (PHAST's test).
    const auto g = apsp::testing::street_grid(80, 75, 40, negative, 11);
    const auto targets = pick(g.num_vertices(), 300, 12);
    const auto sources = pick(g.num_vertices(), 333, 13); // no multiple of the lanes
    const apsp::table_result r = table_on(g, sources, targets, apsp::backend_kind::cuda);
    ASSERT_TRUE(std::holds_alternative<apsp::drivers::cuda_table>(r.ran.run))
        << apsp::to_string(r.ran.run) << ": " << r.ran.algorithm_reason;
    EXPECT_EQ(r.ran.backend, apsp::backend_kind::cuda);
    EXPECT_NE(r.ran.algorithm_reason.find("requested (cuda)"), std::string::npos)
        << r.ran.algorithm_reason;
    expect_same_table(std::get<std::vector<std::int32_t>>(r.distances),
                      dijkstra_table<std::int32_t>(g, sources, targets), targets.size(),
                      "solve_table");
    // The same table from the cpu's engines.
    const apsp::table_result c = table_on(g, sources, targets, apsp::backend_kind::cpu);
    EXPECT_EQ(std::get<std::vector<std::int32_t>>(r.distances),
              std::get<std::vector<std::int32_t>>(c.distances));
  }
}

TEST(CudaRphast, OtherTypesKeepTheirEngines) {
  APSP_SKIP_WITHOUT_GPU();
  const auto g = apsp::testing::street_grid(80, 75, 40, false, 11);
  const auto targets = pick(g.num_vertices(), 30, 12);
  const auto sources = pick(g.num_vertices(), 20, 13);
  const auto block = apsp::plan_request::block(static_cast<std::int64_t>(sources.size()),
                                               static_cast<std::int64_t>(targets.size()));
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cuda;
  // float32: the GPU's whole matrix, the block cut from it.
  o.type = apsp::dtype::float32;
  const apsp::plan p = apsp::make_plan(g, o, block);
  EXPECT_FALSE(std::holds_alternative<apsp::drivers::cuda_table>(p.run)) << apsp::to_string(p.run);
  // int64: no engine of the cuda back end takes it; refused as the whole matrix is.
  o.type = apsp::dtype::int64;
  EXPECT_THROW((void)apsp::make_plan(g, o, block), apsp::invalid_argument_error);
}

} // namespace
