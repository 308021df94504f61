// The multi-GPU cuda path on devices {0, 1} (and "all"): int32 bit-identical to the single-GPU
// solve, float32 within rounding, paths valid, negative weights, checkpoints; skips unless two
// devices exist. With APSP_CUDA_FORCE_MULTI_GPU one device listed several times runs the same
// code, exchange included, on any machine with a GPU; the device group's broadcasts and
// decisions are also tested alone.

#include <gtest/gtest.h>

#include <unistd.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "blocked_test_support.hpp"
#include "core/round_schedule.hpp"
#include "core/tuning.hpp"
#include "cuda/device_group.hpp"

namespace {

using apsp::dtype;
using namespace apsp::cuda_test;

apsp::solve_options two_devices(dtype t, bool paths) {
  apsp::solve_options o = cuda_options(t, paths);
  o.devices = {0, 1};
  return o;
}

bool have_two_gpus() {
  if (!have_gpu())
    return false;
  try {
    (void)apsp::make_plan(256, two_devices(dtype::int32, false));
    return true;
  } catch (const apsp::invalid_argument_error&) {
    return false; // device 1 does not exist
  }
}

#define SKIP_WITHOUT_TWO_GPUS()                                                                    \
  if (!have_two_gpus())                                                                            \
  GTEST_SKIP() << "needs two CUDA devices"

TEST(CudaMultiGpu, PlanNamesBothDevices) {
  SKIP_WITHOUT_TWO_GPUS();
  const auto p = apsp::make_plan(1000, two_devices(dtype::int32, false));
  EXPECT_TRUE(p.fits) << p.reason;
  EXPECT_EQ(p.device.rfind("2x ", 0), 0u) << p.device;
  EXPECT_NE(p.device.find("multi-GPU"), std::string::npos) << p.device;
  EXPECT_EQ(p.block, 256);
  EXPECT_EQ(p.rounds, 4);
  // One tile row cannot be split: a single device does the work.
  EXPECT_EQ(apsp::make_plan(100, two_devices(dtype::int32, false)).device.rfind("1x ", 0), 0u);
  // --devices all splits only where that pays (multi_gpu.cpp): one GPU at n = 1000, both at
  // n = 40000.
  apsp::solve_options all = cuda_options(dtype::int32, false);
  all.devices = {-1};
  EXPECT_EQ(apsp::make_plan(1000, all).device.find("multi-GPU"), std::string::npos);
  EXPECT_NE(apsp::make_plan(40000, all).device.find("multi-GPU"), std::string::npos);
}

struct multi_case {
  std::int64_t n;
  bool negative;
};

class CudaMultiGpuSizes : public ::testing::TestWithParam<multi_case> {};

TEST_P(CudaMultiGpuSizes, Int32BitIdenticalToOneGpu) {
  SKIP_WITHOUT_TWO_GPUS();
  const auto c = GetParam();
  const std::uint64_t seed = 6000 + static_cast<std::uint64_t>(c.n);
  SCOPED_TRACE("n=" + std::to_string(c.n) + " negative=" + std::to_string(c.negative) +
               " seed=" + std::to_string(seed));
  const auto g = test_graph(c.n, c.negative, seed);
  const auto got = apsp::solve(g, two_devices(dtype::int32, false));
  expect_bit_identical<std::int32_t>(got, apsp::solve(g, cuda_options(dtype::int32, false)));
  if (c.n <= 1000) {
    apsp::solve_options ref;
    ref.backend = apsp::backend_kind::reference;
    expect_bit_identical<std::int32_t>(got, apsp::solve(g, ref));
  }
}

INSTANTIATE_TEST_SUITE_P(RowSplits, CudaMultiGpuSizes,
                         ::testing::Values(multi_case{100, true}, multi_case{129, false},
                                           multi_case{257, true}, multi_case{1000, true},
                                           multi_case{1000, false}, multi_case{2900, true}),
                         [](const auto& info) {
                           return "n" + std::to_string(info.param.n) +
                                  (info.param.negative ? "_negative" : "");
                         });

TEST(CudaMultiGpu, Float32WithinRounding) {
  SKIP_WITHOUT_TWO_GPUS();
  const auto g = test_graph(900, true, 61, /*fractional=*/true);
  const auto got = apsp::solve(g, two_devices(dtype::float32, false));
  expect_close(got, apsp::solve(g, cuda_options(dtype::float32, false)), 1e-5, 10.0);
}

TEST(CudaMultiGpu, PathsAreValidShortestWalks) {
  SKIP_WITHOUT_TWO_GPUS();
  for (bool negative : {false, true}) {
    SCOPED_TRACE("negative=" + std::to_string(negative));
    const auto g = test_graph(600, negative, 63);
    const auto got = apsp::solve(g, two_devices(dtype::int32, true));
    ASSERT_TRUE(got.has_paths());
    expect_bit_identical<std::int32_t>(got, apsp::solve(g, cuda_options(dtype::int32, false)));
    apsp::testing::expect_paths_valid(g, got);
  }
}

TEST(CudaMultiGpu, NegativeCycleIsDetected) {
  SKIP_WITHOUT_TWO_GPUS();
  auto g = test_graph(400, false, 5);
  g.add_edge(310, 20, -5000);
  g.add_edge(20, 310, 1);
  EXPECT_THROW((void)apsp::solve(g, two_devices(dtype::int32, false)), apsp::negative_cycle_error);
}

/// APSP_CUDA_FORCE_MULTI_GPU lets device 0 be listed twice: two "devices" with their own
/// rows, streams and exchange buffers on one GPU, so the whole exchange runs on any machine
/// with a GPU.
class CudaMultiGpuOnOneDevice : public ::testing::Test {
protected:
  apsp::detail::scoped_tuning tuning_{
      [](apsp::detail::tuning& t) { t.cuda_force_multi_gpu = true; }};
  /// The tuning record the test's solves start with (core/tuning.hpp).
  apsp::detail::tuning& knobs() noexcept { return tuning_.record(); }
  static apsp::solve_options twice(dtype t, bool paths, int copies = 2) {
    apsp::solve_options o = cuda_options(t, paths);
    o.devices.assign(static_cast<std::size_t>(copies), 0);
    return o;
  }
};

TEST_F(CudaMultiGpuOnOneDevice, Int32BitIdenticalToInCore) {
  APSP_SKIP_WITHOUT_GPU();
  for (const auto& [n, copies] : std::vector<std::pair<std::int64_t, int>>{
           {100, 2}, {300, 2}, {1000, 2}, {1000, 3}, {1000, 1}, {2100, 2}}) {
    for (bool negative : {false, true}) {
      const std::uint64_t seed = 7000 + static_cast<std::uint64_t>(n);
      SCOPED_TRACE("n=" + std::to_string(n) + " copies=" + std::to_string(copies) +
                   " negative=" + std::to_string(negative) + " seed=" + std::to_string(seed));
      const auto g = test_graph(n, negative, seed);
      const auto got = apsp::solve(g, twice(dtype::int32, false, copies));
      EXPECT_NE(got.executed_plan().device.find("multi-GPU"), std::string::npos);
      knobs().cuda_force_multi_gpu = false;
      const auto want = apsp::solve(g, cuda_options(dtype::int32, false));
      knobs().cuda_force_multi_gpu = true;
      expect_bit_identical<std::int32_t>(got, want);
    }
  }
}

TEST_F(CudaMultiGpuOnOneDevice, Float32AndPaths) {
  APSP_SKIP_WITHOUT_GPU();
  const auto gf = test_graph(700, true, 71, /*fractional=*/true);
  const auto f = apsp::solve(gf, twice(dtype::float32, false));
  apsp::solve_options ref;
  ref.backend = apsp::backend_kind::reference;
  ref.type = dtype::float64;
  expect_close(f, apsp::solve(gf, ref), 1e-4, 10.0);
  for (bool negative : {false, true}) {
    SCOPED_TRACE("negative=" + std::to_string(negative));
    const auto g = test_graph(600, negative, 73);
    const auto got = apsp::solve(g, twice(dtype::int32, true));
    ASSERT_TRUE(got.has_paths());
    ref.type = dtype::int32;
    expect_bit_identical<std::int32_t>(got, apsp::solve(g, ref));
    apsp::testing::expect_paths_valid(g, got);
  }
}

// The split's products and pivot blocks take float32 minima two pivots at a time without
// negative weights (gemm_args::three_way): the same bits as the two-operand minima, with
// fractional weights (no tagged route then) and with paths.
TEST_F(CudaMultiGpuOnOneDevice, ThreeWayFloatMinimaMatchTheTwoOperandOnes) {
  APSP_SKIP_WITHOUT_GPU();
  const auto g = test_graph(700, false, 72, /*fractional=*/true);
  for (bool paths : {false, true}) {
    SCOPED_TRACE("paths=" + std::to_string(paths));
    const auto three = apsp::solve(g, twice(dtype::float32, paths, 3));
    EXPECT_NE(three.executed_plan().device.find("multi-GPU"), std::string::npos);
    knobs().cuda_three_way = false;
    const auto two = apsp::solve(g, twice(dtype::float32, paths, 3));
    knobs().cuda_three_way = true;
    expect_bit_identical<float>(three, two);
    if (paths) {
      expect_same_vias(three, two);
      apsp::testing::expect_paths_valid(g, three, 1e-4);
    }
  }
}

TEST_F(CudaMultiGpuOnOneDevice, TaggedPathsMatchTheRescan) {
  APSP_SKIP_WITHOUT_GPU();
  for (const auto& g : {test_graph(600, false, 75), mixed_range_graph(), test_graph(600, true, 76),
                        mixed_range_graph(true)}) {
    SCOPED_TRACE("n=" + std::to_string(g.num_vertices()));
    const auto got =
        expect_tagged_matches_rescan([&] { return apsp::solve(g, twice(dtype::int32, true)); });
    EXPECT_NE(got.executed_plan().device.find("multi-GPU"), std::string::npos);
    apsp::solve_options ref;
    ref.backend = apsp::backend_kind::reference;
    ref.type = dtype::int32;
    expect_bit_identical<std::int32_t>(got, apsp::solve(g, ref));
    apsp::testing::expect_paths_valid(g, got);
  }
}

// Checkpoints of a split: cancelled after a saved round and resumed, the bytes of an
// uninterrupted split (distances and paths) and the distances of one device.
TEST_F(CudaMultiGpuOnOneDevice, CheckpointCancelThenResumeIsByteIdentical) {
  APSP_SKIP_WITHOUT_GPU();
  const auto g = test_graph(1700, false, 7700); // 7 tile rows of 256 over 3 "devices"
  const auto dir = std::filesystem::temp_directory_path() /
                   ("apsp_multi_gpu_checkpoint_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  apsp::solve_options o = twice(dtype::int32, true, 3);
  o.checkpoint_dir = dir;
  o.checkpoint_every_seconds = 0;
  int calls = 0;
  o.progress = [&](const apsp::progress_info&) { return ++calls < 3; };
  EXPECT_THROW((void)apsp::solve(g, o), apsp::cancelled_error);
  ASSERT_TRUE(std::filesystem::exists(dir / "manifest"));
  apsp::solve_options resume = o;
  resume.progress = {};
  resume.resume_dir = dir;
  const auto resumed = apsp::solve(g, resume);
  const auto& device = resumed.executed_plan().device;
  EXPECT_NE(device.find("multi-GPU"), std::string::npos) << device;
  EXPECT_NE(device.find("checkpointed"), std::string::npos) << device;
  std::filesystem::remove_all(dir);
  apsp::solve_options whole = o;
  whole.progress = {};
  const auto once = apsp::solve(g, whole);
  std::filesystem::remove_all(dir);
  expect_bit_identical<std::int32_t>(resumed, once);
  ASSERT_TRUE(resumed.has_paths() && once.has_paths());
  EXPECT_TRUE(std::equal(resumed.via().data(), resumed.via().data() + resumed.via().size(),
                         once.via().data()));
  knobs().cuda_force_multi_gpu = false;
  expect_bit_identical<std::int32_t>(resumed, apsp::solve(g, cuda_options(dtype::int32, false)));
  knobs().cuda_force_multi_gpu = true;
  apsp::testing::expect_paths_valid(g, resumed);
}

// The device group alone: three members on one device (a 3 x 1 grid), each broadcasting in
// turn down the column on its own stream; every member ends with the root's bytes, and all_or
// ORs every member's bits.
TEST(DeviceGroup, BroadcastsDownTheColumnAndAgrees) {
  APSP_SKIP_WITHOUT_GPU();
  constexpr int members = 3;
  constexpr std::size_t count = 1 << 20;
  apsp::cuda::device_group group(members, 1, std::vector<int>(members, 0));
  std::vector<std::vector<int>> got(members);
  std::vector<std::uint32_t> agreed(members);
  std::vector<std::thread> threads;
  for (int i = 0; i < members; ++i) {
    threads.emplace_back([&, i] {
      ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
      cudaStream_t s = nullptr;
      ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
      int* d = nullptr;
      ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d), count * sizeof(int)), cudaSuccess);
      std::vector<int> mine(count, -1 - i);
      for (int root = 0; root < members; ++root) {
        if (i == root) {
          for (std::size_t k = 0; k < count; ++k)
            mine[k] = static_cast<int>(k) * 7 + root;
        }
        ASSERT_EQ(cudaMemcpyAsync(d, mine.data(), count * sizeof(int), cudaMemcpyHostToDevice, s),
                  cudaSuccess);
        group.comm(i).device_bcast_col(d, count * sizeof(int), root, s);
        ASSERT_EQ(cudaMemcpyAsync(mine.data(), d, count * sizeof(int), cudaMemcpyDeviceToHost, s),
                  cudaSuccess);
        ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
        got[static_cast<std::size_t>(i)] = mine;
        // Everyone has checked before the next root writes.
        (void)group.comm(i).all_or(0);
        const auto& v = got[static_cast<std::size_t>(i)];
        for (std::size_t k = 0; k < count; k += 4099)
          ASSERT_EQ(v[k], static_cast<int>(k) * 7 + root) << "member " << i << " root " << root;
      }
      agreed[static_cast<std::size_t>(i)] = group.comm(i).all_or(i == 1 ? 2u : 0u);
      (void)cudaFree(d);
      (void)cudaStreamDestroy(s);
    });
  }
  for (auto& t : threads)
    t.join();
  for (int i = 0; i < members; ++i) {
    EXPECT_EQ(agreed[static_cast<std::size_t>(i)], 2u);
    EXPECT_FALSE(group.failure(i));
  }
  EXPECT_TRUE(group.comm(0).distributed());
}

/// Out of core on several devices: the multi-GPU plan falls back to it when the rows do not
/// fit (here a small --gpu-memory cap) or when APSP_CUDA_FORCE_OUT_OF_CORE_BYTES forces it.
class CudaMultiGpuOutOfCoreOnOneDevice : public CudaMultiGpuOnOneDevice {
protected:
  static bool is_multi_out_of_core(const apsp::plan& p) {
    return p.device.find("multi-GPU") != std::string::npos &&
           p.device.find("out-of-core") != std::string::npos;
  }
};

TEST_F(CudaMultiGpuOutOfCoreOnOneDevice, CapPlansOutOfCoreOnAllDevices) {
  APSP_SKIP_WITHOUT_GPU();
  apsp::solve_options o = twice(dtype::int32, false);
  EXPECT_FALSE(is_multi_out_of_core(apsp::make_plan(3000, o)));
  o.device_memory_limit = std::uint64_t{8} << 20; // 3000^2 int32 is 36 MB: two halves do not fit
  const auto p = apsp::make_plan(3000, o);
  EXPECT_TRUE(p.fits) << p.reason;
  EXPECT_TRUE(is_multi_out_of_core(p)) << p.device;
  EXPECT_LE(p.device_bytes, o.device_memory_limit);
  EXPECT_GT(p.block, 128);
  const auto g = test_graph(3000, true, 7300);
  const auto got = apsp::solve(g, o);
  EXPECT_TRUE(is_multi_out_of_core(got.executed_plan())) << got.executed_plan().device;
  knobs().cuda_force_multi_gpu = false;
  expect_bit_identical<std::int32_t>(got, apsp::solve(g, cuda_options(dtype::int32, false)));
}

TEST_F(CudaMultiGpuOutOfCoreOnOneDevice, Int32BitIdenticalAndPathsValid) {
  APSP_SKIP_WITHOUT_GPU();
  apsp::solve_options ref;
  ref.backend = apsp::backend_kind::reference;
  ref.type = dtype::int32;
  // 1536K: 128-wide outer blocks, so a few hundred vertices make many blocks per device.
  for (const std::uint64_t cap : {std::uint64_t{1536} << 10, std::uint64_t{6} << 20}) {
    knobs().cuda_force_out_of_core_bytes = cap;
    for (const auto& [n, copies] :
         std::vector<std::pair<std::int64_t, int>>{{300, 2}, {700, 3}, {1000, 2}}) {
      for (bool negative : {false, true}) {
        const std::uint64_t seed = 7400 + static_cast<std::uint64_t>(n);
        SCOPED_TRACE("cap=" + std::to_string(cap) + " n=" + std::to_string(n) +
                     " copies=" + std::to_string(copies) + " negative=" + std::to_string(negative) +
                     " seed=" + std::to_string(seed));
        const auto g = test_graph(n, negative, seed);
        const auto got = apsp::solve(g, twice(dtype::int32, false, copies));
        EXPECT_TRUE(is_multi_out_of_core(got.executed_plan())) << got.executed_plan().device;
        expect_bit_identical<std::int32_t>(got, apsp::solve(g, ref));
        const auto with_paths = apsp::solve(g, twice(dtype::int32, true, copies));
        ASSERT_TRUE(with_paths.has_paths());
        expect_bit_identical<std::int32_t>(with_paths, got);
        apsp::testing::expect_paths_valid(g, with_paths);
      }
    }
  }
  knobs().cuda_force_out_of_core_bytes = std::uint64_t{1536} << 10;
  const auto gf = test_graph(500, true, 75, /*fractional=*/true);
  const auto f = apsp::solve(gf, twice(dtype::float32, false));
  ref.type = dtype::float64;
  expect_close(f, apsp::solve(gf, ref), 1e-4, 10.0);
}

TEST_F(CudaMultiGpuOutOfCoreOnOneDevice, NegativeCycleIsDetected) {
  APSP_SKIP_WITHOUT_GPU();
  knobs().cuda_force_out_of_core_bytes = std::uint64_t{1536} << 10;
  auto g = test_graph(400, false, 5);
  g.add_edge(310, 20, -5000);
  g.add_edge(20, 310, 1);
  EXPECT_THROW((void)apsp::solve(g, twice(dtype::int32, false)), apsp::negative_cycle_error);
}

TEST(CudaMultiGpu, OutOfCoreOnTwoDevicesBitIdentical) {
  SKIP_WITHOUT_TWO_GPUS();
  for (bool paths : {false, true}) {
    apsp::solve_options o = two_devices(dtype::int32, paths);
    o.device_memory_limit = std::uint64_t{24} << 20; // 5000^2 int32 is 100 MB
    const auto g = test_graph(5000, true, 7500);
    const auto got = apsp::solve(g, o);
    const auto& device = got.executed_plan().device;
    EXPECT_NE(device.find("multi-GPU"), std::string::npos) << device;
    EXPECT_NE(device.find("out-of-core"), std::string::npos) << device;
    expect_bit_identical<std::int32_t>(got, apsp::solve(g, cuda_options(dtype::int32, false)));
    if (paths)
      apsp::testing::expect_paths_valid(g, got);
  }
}

} // namespace
