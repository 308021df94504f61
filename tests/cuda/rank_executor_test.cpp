// The GPU executor of a distributed rank (src/cuda/rank_executor.hpp) as one process (the 1 x 1
// grid), with and without look-ahead: distances bit-identical to the cpu back end, paths valid
// walks, a cancel stops it. Several ranks are tested end to end by bench/gpu/run.sh mpi.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "apsp/solve.hpp"
#include "common/test_graphs.hpp"
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "cpu/blocked_fw.hpp"
#include "cuda/rank_executor.hpp"

namespace apsp {
namespace {

/// device_fill: the executor builds its tiles from the graph's edges (the host tiles start as
/// garbage and are only written by the download).
template <class T>
result solve_on_engine(const graph& g, int device, std::int64_t block, bool device_fill) {
  solve_options o;
  o.type = weight_traits<T>::type;
  o.paths = true;
  const auto facts = detail::analyze_weights(g, o.type, false);
  detail::grid_layout L;
  L.n = g.num_vertices();
  L.b = block;
  dense_matrix<T> d(L.n);
  std::optional<via_matrix> via(std::in_place, L.n);
  if (device_fill) {
    std::fill(d.data(), d.data() + d.size(), T{7});
    std::fill(via->data(), via->data() + via->size(), 7);
  } else {
    detail::fill_initial_tiles(g, L, d.data());
    std::fill(via->data(), via->data() + via->size(), no_via);
  }
  auto gpu = cuda::make_rank_gpu<T>(device, detail::cpu::local_tiles<T>{L, d.data(), via->data()},
                                    facts, device_fill ? &g : nullptr);
  detail::run_context ctx(o, L.n, facts.has_negative);
  detail::grid_comm one_process;
  gpu->run(one_process, ctx, {});
  detail::normalize_unreachable_tiles(L, d.data(), via->data(), facts);
  return result(std::move(d), std::move(via), plan{});
}

template <class T>
void expect_like_cpu(const graph& g, std::int64_t block, bool device_fill = false) {
  const cuda::rank_device dev = cuda::pick_rank_device(0);
  if (!dev.available)
    GTEST_SKIP() << "no GPU: " << dev.name;
  const result gpu = solve_on_engine<T>(g, dev.device, block, device_fill);
  solve_options o;
  o.backend = backend_kind::cpu;
  o.type = weight_traits<T>::type;
  const result cpu = solve(g, o);
  const auto& a = std::get<dense_matrix<T>>(gpu.distances());
  const auto& b = std::get<dense_matrix<T>>(cpu.distances());
  ASSERT_EQ(a.n(), b.n());
  EXPECT_TRUE(std::equal(a.data(), a.data() + a.size(), b.data()));
  testing::expect_paths_valid(g, gpu);
}

testing::random_graph_spec spec(std::int64_t n, bool negative) {
  testing::random_graph_spec s;
  s.n = n;
  s.density = 0.05;
  s.max_weight = 500;
  s.negative_edges = negative;
  return s;
}

TEST(RankExecutor, Int32MatchesCpuWithValidPaths) {
  expect_like_cpu<std::int32_t>(testing::make_random_graph(spec(700, false), 3), 128);
}

TEST(RankExecutor, Int32NegativeWeightsClamp) {
  expect_like_cpu<std::int32_t>(testing::make_random_graph(spec(389, true), 4), 128);
}

TEST(RankExecutor, Float32WideTilesPartialLastRound) {
  expect_like_cpu<float>(testing::make_random_graph(spec(517, false), 5), 256);
}

TEST(RankExecutor, Int32WideTilesSeveralRounds) {
  expect_like_cpu<std::int32_t>(testing::make_random_graph(spec(1100, false), 6), 384);
}

TEST(RankExecutor, TilesBuiltOnTheDeviceFromEdges) {
  graph g = testing::make_random_graph(spec(389, true), 9);
  g.add_edge(5, 5, 0); // self-loops (the random ones are non-negative) meet the diagonal
  expect_like_cpu<std::int32_t>(g, 128, true);
  expect_like_cpu<float>(testing::make_random_graph(spec(517, false), 10), 256, true);
}

TEST(RankExecutor, CancelStopsAtARoundBoundary) {
  const cuda::rank_device dev = cuda::pick_rank_device(0);
  if (!dev.available)
    GTEST_SKIP() << "no GPU: " << dev.name;
  const graph g = testing::make_random_graph(spec(600, false), 8);
  solve_options o;
  int calls = 0;
  o.progress = [&](const progress_info&) { return ++calls < 2; };
  detail::grid_layout L;
  L.n = g.num_vertices();
  L.b = 128;
  dense_matrix<std::int32_t> d(L.n);
  detail::fill_initial_tiles(g, L, d.data());
  auto gpu = cuda::make_rank_gpu<std::int32_t>(dev.device, {L, d.data(), nullptr}, {});
  detail::run_context ctx(o, L.n, false);
  detail::grid_comm one_process;
  EXPECT_THROW(gpu->run(one_process, ctx, {}), cancelled_error);
  EXPECT_EQ(calls, 2);
}

// The cuda back end with checkpoints runs these rounds as one process: a solve cancelled after a
// saved round and resumed gives the bytes of an uninterrupted one (distances and paths), and
// the distances of the in-core driver. Saving every round (no round runs ahead), and saving only
// at the cancel (the cancelled round ran ahead: the stop is taken a round later, exactly).
class CudaCheckpoint : public ::testing::TestWithParam<double> {};

INSTANTIATE_TEST_SUITE_P(Every, CudaCheckpoint, ::testing::Values(0.0, 3600.0));

TEST_P(CudaCheckpoint, CancelThenResumeIsByteIdentical) {
  const cuda::rank_device dev = cuda::pick_rank_device(0);
  if (!dev.available)
    GTEST_SKIP() << "no GPU: " << dev.name;
  const graph g = testing::make_random_graph(spec(1700, false), 9);
  const auto dir = std::filesystem::temp_directory_path() /
                   ("apsp_cuda_checkpoint_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  solve_options o;
  o.backend = backend_kind::cuda;
  o.paths = true;
  o.checkpoint_dir = dir;
  o.checkpoint_every_seconds = GetParam();
  int calls = 0;
  o.progress = [&](const progress_info&) { return ++calls < 2; };
  EXPECT_THROW((void)solve(g, o), cancelled_error);
  ASSERT_TRUE(std::filesystem::exists(dir / "manifest"));
  solve_options resume = o;
  resume.progress = {};
  resume.resume_dir = dir;
  const result resumed = solve(g, resume);
  EXPECT_NE(resumed.executed_plan().device.find("checkpointed"), std::string::npos);
  remove_checkpoint(dir);
  solve_options whole = o;
  whole.progress = {};
  const result once = solve(g, whole);
  remove_checkpoint(dir);
  solve_options plain;
  plain.backend = backend_kind::cuda;
  const result in_core = solve(g, plain);
  const auto& a = std::get<dense_matrix<std::int32_t>>(resumed.distances());
  const auto& b = std::get<dense_matrix<std::int32_t>>(once.distances());
  const auto& c = std::get<dense_matrix<std::int32_t>>(in_core.distances());
  EXPECT_TRUE(std::equal(a.data(), a.data() + a.size(), b.data()));
  EXPECT_TRUE(std::equal(a.data(), a.data() + a.size(), c.data()));
  ASSERT_TRUE(resumed.has_paths() && once.has_paths());
  EXPECT_TRUE(std::equal(resumed.via().data(), resumed.via().data() + resumed.via().size(),
                         once.via().data()));
  testing::expect_paths_valid(g, resumed);
}

} // namespace
} // namespace apsp
