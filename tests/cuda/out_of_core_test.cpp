// The out-of-core cuda path, forced with a tiny device-memory cap so that n = 100..2100 has
// several outer blocks (partial last blocks, n not a multiple of anything): int32 bit-identical
// to the in-core cuda solve and to the reference, float32 within rounding, paths valid,
// negative weights, negative cycles, progress.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "blocked_test_support.hpp"

namespace {

using apsp::dtype;
using namespace apsp::cuda_test;

/// Options whose cap admits outer block `bo` (and nothing larger) for n vertices.
apsp::solve_options capped(std::int64_t n, std::int64_t bo, dtype t, bool paths) {
  apsp::solve_options o = cuda_options(t, paths);
  o.device_memory_limit = out_of_core_bytes(n, bo, apsp::size_of(t), paths);
  return o;
}

/// Solves with the out-of-core path forced at the options' cap: a small problem whose padded
/// matrix fits under the cap would otherwise (rightly) run in core.
apsp::result solve_out_of_core(const apsp::graph& g, const apsp::solve_options& o) {
  const std::string cap = std::to_string(o.device_memory_limit);
  ::setenv("APSP_CUDA_FORCE_OUT_OF_CORE_BYTES", cap.c_str(), 1);
  struct unset {
    ~unset() { ::unsetenv("APSP_CUDA_FORCE_OUT_OF_CORE_BYTES"); }
  } restore;
  return apsp::solve(g, o);
}

void expect_out_of_core(const apsp::plan& p, std::int64_t n, std::int64_t bo) {
  EXPECT_TRUE(p.fits) << p.reason;
  EXPECT_NE(p.device.find("out-of-core, outer block " + std::to_string(bo)), std::string::npos)
      << p.device;
  EXPECT_EQ(p.block, bo);
  EXPECT_EQ(p.rounds, (n + bo - 1) / bo);
}

TEST(CudaOutOfCore, PlanSwitchesUnderTheCap) {
  APSP_SKIP_WITHOUT_GPU();
  const auto in_core = apsp::make_plan(1000, cuda_options(dtype::int32, false));
  EXPECT_EQ(in_core.device.find("out-of-core"), std::string::npos) << in_core.device;
  EXPECT_EQ(in_core.block, 128);
  const auto o = capped(1000, 256, dtype::int32, false);
  const auto p = apsp::make_plan(1000, o);
  expect_out_of_core(p, 1000, 256);
  EXPECT_LE(p.device_bytes, o.device_memory_limit);
  // Below one 128-tile outer block it cannot run at all.
  apsp::solve_options tiny = cuda_options(dtype::int32, false);
  tiny.device_memory_limit = 64 << 10;
  EXPECT_FALSE(apsp::make_plan(1000, tiny).fits);
}

struct ooc_case {
  std::int64_t n;
  std::int64_t bo;
  bool negative;
};

class CudaOutOfCoreSizes : public ::testing::TestWithParam<ooc_case> {};

TEST_P(CudaOutOfCoreSizes, Int32BitIdenticalToInCoreAndReference) {
  APSP_SKIP_WITHOUT_GPU();
  const auto c = GetParam();
  const std::uint64_t seed = 4000 + static_cast<std::uint64_t>(c.n);
  SCOPED_TRACE("n=" + std::to_string(c.n) + " bo=" + std::to_string(c.bo) +
               " negative=" + std::to_string(c.negative) + " seed=" + std::to_string(seed));
  const auto g = test_graph(c.n, c.negative, seed);
  const auto o = capped(c.n, c.bo, dtype::int32, false);
  const auto got = solve_out_of_core(g, o);
  expect_out_of_core(got.executed_plan(), c.n, c.bo);
  const auto in_core = apsp::solve(g, cuda_options(dtype::int32, false));
  expect_bit_identical<std::int32_t>(got, in_core);
  apsp::solve_options ref;
  // The O(n^3) reference is the oracle up to n = 1000; beyond it, the (separately tested) cpu
  // back end keeps the test fast.
  ref.backend = c.n <= 1000 ? apsp::backend_kind::reference : apsp::backend_kind::cpu;
  expect_bit_identical<std::int32_t>(got, apsp::solve(g, ref));
}

INSTANTIATE_TEST_SUITE_P(OuterBlocks, CudaOutOfCoreSizes,
                         ::testing::Values(ooc_case{100, 128, true}, ooc_case{129, 128, false},
                                           ooc_case{300, 128, true}, ooc_case{1000, 256, false},
                                           ooc_case{1000, 256, true}, ooc_case{1537, 512, true},
                                           ooc_case{2100, 512, false}),
                         [](const auto& info) {
                           return "n" + std::to_string(info.param.n) + "_bo" +
                                  std::to_string(info.param.bo) +
                                  (info.param.negative ? "_negative" : "");
                         });

/// The host takes a share of phase 3 (host_tiles.hpp): at least the one probe tile of the first
/// round with four or more tiles. The result is bit-identical with and without it
/// (APSP_CUDA_OOC_CPU=0), and to the cpu back end; float32 stays within rounding.
TEST(CudaOutOfCore, HostTakesTilesAndChangesNoResult) {
  APSP_SKIP_WITHOUT_GPU();
  const std::int64_t n = 2100;
  const auto g = test_graph(n, true, 4444);
  const auto o = capped(n, 256, dtype::int32, false);
  ::setenv("APSP_CUDA_VERBOSE", "1", 1);
  ::testing::internal::CaptureStderr();
  const auto with_host = solve_out_of_core(g, o);
  const std::string log = ::testing::internal::GetCapturedStderr();
  ::unsetenv("APSP_CUDA_VERBOSE");
  const auto at = log.find("the host updated ");
  ASSERT_NE(at, std::string::npos) << log;
  EXPECT_GE(std::stoll(log.substr(at + 17)), 1) << log;
  ::setenv("APSP_CUDA_OOC_CPU", "0", 1);
  const auto without = solve_out_of_core(g, o);
  ::unsetenv("APSP_CUDA_OOC_CPU");
  expect_bit_identical<std::int32_t>(with_host, without);
  apsp::solve_options cpu;
  cpu.backend = apsp::backend_kind::cpu;
  expect_bit_identical<std::int32_t>(with_host, apsp::solve(g, cpu));

  const auto gf = test_graph(700, true, 4445, /*fractional=*/true);
  const auto f = solve_out_of_core(gf, capped(700, 128, dtype::float32, false));
  apsp::solve_options ref;
  ref.backend = apsp::backend_kind::reference;
  ref.type = dtype::float64;
  expect_close(f, apsp::solve(gf, ref), 1e-4, 10.0);
}

TEST(CudaOutOfCore, Float32WithinRounding) {
  APSP_SKIP_WITHOUT_GPU();
  for (bool negative : {false, true}) {
    SCOPED_TRACE("negative=" + std::to_string(negative));
    const auto g = test_graph(900, negative, 77, /*fractional=*/true);
    const auto o = capped(900, 256, dtype::float32, false);
    const auto got = solve_out_of_core(g, o);
    expect_out_of_core(got.executed_plan(), 900, 256);
    // Float32 sums in another order round differently; with negative weights a small distance
    // is the difference of larger sums, so compare against the scale of the weights (~10).
    expect_close(got, apsp::solve(g, cuda_options(dtype::float32, false)), 1e-5, 10.0);
    apsp::solve_options ref;
    ref.backend = apsp::backend_kind::reference;
    ref.type = dtype::float64;
    expect_close(got, apsp::solve(g, ref), 1e-4, 10.0);
  }
}

TEST(CudaOutOfCore, PathsAreValidShortestWalks) {
  APSP_SKIP_WITHOUT_GPU();
  for (bool negative : {false, true}) {
    SCOPED_TRACE("negative=" + std::to_string(negative));
    const auto g = test_graph(700, negative, 91);
    const auto got = solve_out_of_core(g, capped(700, 256, dtype::int32, true));
    expect_out_of_core(got.executed_plan(), 700, 256);
    ASSERT_TRUE(got.has_paths());
    expect_bit_identical<std::int32_t>(got, apsp::solve(g, cuda_options(dtype::int32, false)));
    apsp::testing::expect_paths_valid(g, got);
  }
  const auto gf = test_graph(450, true, 93, /*fractional=*/true);
  const auto gotf = solve_out_of_core(gf, capped(450, 128, dtype::float32, true));
  expect_out_of_core(gotf.executed_plan(), 450, 128);
  apsp::testing::expect_paths_valid(gf, gotf, 1e-4);
}

TEST(CudaOutOfCore, TaggedPathsMatchTheRescan) {
  APSP_SKIP_WITHOUT_GPU();
  for (const auto& g : {test_graph(700, false, 95), mixed_range_graph()}) {
    const std::int64_t n = g.num_vertices();
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto o = capped(n, 256, dtype::int32, true);
    const auto got = expect_tagged_matches_rescan([&] { return solve_out_of_core(g, o); });
    expect_out_of_core(got.executed_plan(), n, 256);
    apsp::solve_options ref;
    ref.backend = apsp::backend_kind::reference;
    ref.type = dtype::int32;
    expect_bit_identical<std::int32_t>(got, apsp::solve(g, ref));
    apsp::testing::expect_paths_valid(g, got);
  }
  // float32 with whole-number weights takes the tagged route too.
  const auto g = test_graph(600, false, 97);
  const auto o = capped(600, 256, dtype::float32, true);
  const auto got = expect_tagged_matches_rescan<float>([&] { return solve_out_of_core(g, o); });
  expect_out_of_core(got.executed_plan(), 600, 256);
  expect_close(got, apsp::solve(g, cuda_options(dtype::int32, false)), 0.0);
  apsp::testing::expect_paths_valid(g, got, 0.0);
}

TEST(CudaOutOfCore, NegativeCycleIsDetected) {
  APSP_SKIP_WITHOUT_GPU();
  auto g = test_graph(400, false, 5);
  g.add_edge(310, 20, -5000);
  g.add_edge(20, 310, 1);
  EXPECT_THROW((void)solve_out_of_core(g, capped(400, 128, dtype::int32, false)),
               apsp::negative_cycle_error);
}

TEST(CudaOutOfCore, ProgressCountsOuterRounds) {
  APSP_SKIP_WITHOUT_GPU();
  const auto g = test_graph(1000, false, 8);
  auto o = capped(1000, 256, dtype::int32, false);
  std::vector<std::int64_t> done;
  std::int64_t total = 0;
  o.progress = [&](const apsp::progress_info& p) {
    done.push_back(p.rounds_done);
    total = p.rounds_total;
    return true;
  };
  (void)solve_out_of_core(g, o);
  ASSERT_FALSE(done.empty());
  EXPECT_EQ(total, 4);
  EXPECT_EQ(done.back(), 4);
  o.progress = [](const apsp::progress_info& p) { return p.rounds_done < 2; };
  EXPECT_THROW((void)solve_out_of_core(g, o), apsp::cancelled_error);
}

} // namespace
