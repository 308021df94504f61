// The GPU engine of a distributed rank (src/cuda/rank_engine.hpp) under the cpu executor, as one
// process (the 1 x 1 grid): distances bit-identical to the cpu back end, paths valid walks.
// Several ranks are tested end to end by scripts/gpu_mpi.sh.

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "apsp/solve.hpp"
#include "common/test_graphs.hpp"
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "cpu/blocked_fw.hpp"
#include "cpu/cpu_isa.hpp"
#include "cuda/rank_engine.hpp"

namespace apsp {
namespace {

template <class T> result solve_on_engine(const graph& g, int device, std::int64_t block) {
  solve_options o;
  o.type = weight_traits<T>::type;
  o.paths = true;
  const auto facts = detail::analyze_weights(g, detail::bound_needed(o.type, false));
  detail::grid_layout L;
  L.n = g.num_vertices();
  L.b = block;
  dense_matrix<T> d(L.n);
  detail::fill_initial_tiles(g, L, d.data());
  std::optional<via_matrix> via(std::in_place, L.n);
  std::fill(via->data(), via->data() + via->size(), no_via);
  auto engine = cuda::make_rank_engine<T>(device, L, d.data(), via->data(),
                                          facts.has_negative && std::is_integral_v<T>);
  engine->start();
  detail::run_context ctx(o, L.n, facts.has_negative);
  detail::cpu::blocked_config cfg;
  cfg.block = block;
  cfg.threads = 2;
  cfg.kernels = detail::cpu::selected_isa();
  detail::grid_comm one_process;
  detail::cpu::blocked_floyd_warshall(
      detail::cpu::local_tiles<T>{L, d.data(), via->data(), engine.get()}, one_process, cfg, ctx,
      {});
  detail::normalize_unreachable_tiles(L, d.data(), via->data(), facts);
  return result(std::move(d), std::move(via), plan{});
}

template <class T> void expect_like_cpu(const graph& g, std::int64_t block) {
  const cuda::rank_device dev = cuda::pick_rank_device(0);
  if (!dev.available)
    GTEST_SKIP() << "no GPU: " << dev.name;
  const result gpu = solve_on_engine<T>(g, dev.device, block);
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

TEST(RankEngine, Int32MatchesCpuWithValidPaths) {
  expect_like_cpu<std::int32_t>(testing::make_random_graph(spec(700, false), 3), 128);
}

TEST(RankEngine, Int32NegativeWeightsClamp) {
  expect_like_cpu<std::int32_t>(testing::make_random_graph(spec(389, true), 4), 128);
}

TEST(RankEngine, Float32WideTilesPartialLastRound) {
  expect_like_cpu<float>(testing::make_random_graph(spec(517, false), 5), 256);
}

} // namespace
} // namespace apsp
