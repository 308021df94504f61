// The out-of-core cuda path, forced with a tiny device-memory cap so that n = 100..2100 has
// several outer blocks (partial last blocks, n not a multiple of anything): int32 bit-identical
// to the in-core cuda solve and to the reference, float32 within rounding, paths valid,
// negative weights, negative cycles, progress; checkpoints, on one device and several, and the
// resumed plan's outer block (that part needs no GPU).

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "blocked_test_support.hpp"
#include "core/checkpoint.hpp"
#include "cuda/out_of_core.hpp"

namespace {

using apsp::dtype;
using namespace apsp::cuda_test;
namespace fs = std::filesystem;

using apsp::detail::scoped_tuning;
using apsp::detail::tuning;

/// Options whose cap admits outer block `bo` (and nothing larger) for n vertices.
apsp::solve_options capped(std::int64_t n, std::int64_t bo, dtype t, bool paths) {
  apsp::solve_options o = cuda_options(t, paths);
  o.device_memory_limit = out_of_core_bytes(n, bo, apsp::size_of(t), paths);
  return o;
}

/// Solves with the out-of-core path forced at the options' cap: a small problem whose padded
/// matrix fits under the cap would otherwise (rightly) run in core.
apsp::result solve_out_of_core(const apsp::graph& g, const apsp::solve_options& o) {
  const scoped_tuning cap(
      [&](tuning& t) { t.cuda_force_out_of_core_bytes = o.device_memory_limit; });
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
  std::string log;
  const apsp::result with_host = [&] {
    const scoped_tuning verbose([](tuning& t) { t.cuda_verbose = true; });
    ::testing::internal::CaptureStderr();
    apsp::result r = solve_out_of_core(g, o);
    log = ::testing::internal::GetCapturedStderr();
    return r;
  }();
  const auto at = log.find("the host updated ");
  ASSERT_NE(at, std::string::npos) << log;
  EXPECT_GE(std::stoll(log.substr(at + 17)), 1) << log;
  const apsp::result without = [&] {
    const scoped_tuning gpus_only([](tuning& t) { t.cuda_ooc_cpu = false; });
    return solve_out_of_core(g, o);
  }();
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

// float32 without negative weights takes its minima two pivots at a time, in the products
// (gemm_args::three_way) and the pivot blocks alike: the same bits as the two-operand minima,
// with fractional weights (which also keep paths off the tagged route) and with paths.
TEST(CudaOutOfCore, ThreeWayFloatMinimaMatchTheTwoOperandOnes) {
  APSP_SKIP_WITHOUT_GPU();
  const auto g = test_graph(900, false, 79, /*fractional=*/true);
  for (bool paths : {false, true}) {
    SCOPED_TRACE("paths=" + std::to_string(paths));
    const auto o = capped(900, 256, dtype::float32, paths);
    const auto three = solve_out_of_core(g, o);
    expect_out_of_core(three.executed_plan(), 900, 256);
    const apsp::result two = [&] {
      const scoped_tuning off([](tuning& t) { t.cuda_three_way = false; });
      return solve_out_of_core(g, o);
    }();
    expect_bit_identical<float>(three, two);
    if (paths) {
      expect_same_vias(three, two);
      apsp::testing::expect_paths_valid(g, three, 1e-4);
    }
  }
}

TEST(CudaOutOfCore, TaggedPathsMatchTheRescan) {
  APSP_SKIP_WITHOUT_GPU();
  for (const auto& g : {test_graph(700, false, 95), mixed_range_graph(), test_graph(700, true, 96),
                        mixed_range_graph(true)}) {
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

// Checkpoints out of core. n = 1700 at Bo = 256: 7 rounds, the last one partial.

/// A fresh checkpoint directory, removed at the end.
struct temp_dir {
  fs::path path;
  explicit temp_dir(const std::string& name)
      : path(fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
  }
  ~temp_dir() { fs::remove_all(path); }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
};

/// `o` saving into `dir` after every round.
apsp::solve_options saving(apsp::solve_options o, const fs::path& dir) {
  o.checkpoint_dir = dir;
  o.checkpoint_every_seconds = 0;
  return o;
}

/// Solves with o saving into dir, cancelled by the progress callback after `rounds` rounds.
void cancel_after(const apsp::graph& g, const apsp::solve_options& o, const fs::path& dir,
                  int rounds) {
  apsp::solve_options c = saving(o, dir);
  int calls = 0;
  c.progress = [&](const apsp::progress_info&) { return ++calls < rounds; };
  EXPECT_THROW((void)solve_out_of_core(g, c), apsp::cancelled_error);
  EXPECT_EQ(calls, rounds);
  ASSERT_TRUE(fs::exists(dir / "manifest"));
}

/// Cancelled after 3 of 7 rounds, then resumed: the distances (and paths) of an uninterrupted
/// solve with the same options byte for byte, the distances of the in-core solve, valid paths.
void expect_resume_identical(const apsp::graph& g, const apsp::solve_options& o, std::int64_t bo,
                             const std::string& name) {
  const std::int64_t n = g.num_vertices();
  const temp_dir dir(name);
  cancel_after(g, o, dir.path, 3);
  apsp::solve_options resume = saving(o, dir.path);
  resume.resume_dir = dir.path;
  const auto resumed = solve_out_of_core(g, resume);
  expect_out_of_core(resumed.executed_plan(), n, bo);
  fs::remove_all(dir.path);
  const auto once = solve_out_of_core(g, saving(o, dir.path));
  expect_bit_identical<std::int32_t>(resumed, once);
  expect_bit_identical<std::int32_t>(resumed, apsp::solve(g, cuda_options(dtype::int32, false)));
  ASSERT_EQ(resumed.has_paths(), o.paths);
  if (!o.paths)
    return;
  ASSERT_TRUE(once.has_paths());
  EXPECT_TRUE(std::equal(resumed.via().data(), resumed.via().data() + resumed.via().size(),
                         once.via().data()));
  apsp::testing::expect_paths_valid(g, resumed);
}

TEST(CudaOutOfCoreCheckpoint, CancelThenResumeIsByteIdentical) {
  APSP_SKIP_WITHOUT_GPU();
  // With paths the devices do every tile; without, the host takes a share of them.
  for (const bool paths : {true, false}) {
    const bool negative = !paths;
    const std::uint64_t seed = 8100 + (paths ? 1 : 0);
    SCOPED_TRACE("paths=" + std::to_string(paths) + " negative=" + std::to_string(negative) +
                 " seed=" + std::to_string(seed));
    const auto g = test_graph(1700, negative, seed);
    expect_resume_identical(g, capped(1700, 256, dtype::int32, paths), 256, "apsp_ooc_checkpoint");
  }
}

TEST(CudaOutOfCoreCheckpoint, SeveralDevicesCancelThenResumeIsByteIdentical) {
  APSP_SKIP_WITHOUT_GPU();
  // Device 0 twice: the multi-device rounds (tiles dealt out, panels home from the first one)
  // on one GPU (multi_gpu_test.cpp).
  const scoped_tuning twice([](tuning& t) { t.cuda_force_multi_gpu = true; });
  for (const bool paths : {true, false}) {
    const std::uint64_t seed = 8200 + (paths ? 1 : 0);
    SCOPED_TRACE("paths=" + std::to_string(paths) + " seed=" + std::to_string(seed));
    const auto g = test_graph(1700, !paths, seed);
    apsp::solve_options o = capped(1700, 256, dtype::int32, paths);
    o.devices = {0, 0};
    const auto p = apsp::make_plan(1700, o);
    EXPECT_NE(p.device.find("multi-GPU"), std::string::npos) << p.device;
    expect_resume_identical(g, o, 256, "apsp_ooc_multi_checkpoint");
  }
}

// The outer block follows the free memory; a resume keeps the saved one where it fits, so a
// checkpoint resumes under another cap, and names the block when it cannot.
TEST(CudaOutOfCoreCheckpoint, ResumeKeepsTheSavedOuterBlock) {
  APSP_SKIP_WITHOUT_GPU();
  const std::int64_t n = 1700;
  const auto g = test_graph(n, false, 8300);
  const temp_dir dir("apsp_ooc_saved_block");
  cancel_after(g, capped(n, 256, dtype::int32, false), dir.path, 2);
  apsp::solve_options roomier = saving(capped(n, 384, dtype::int32, false), dir.path);
  roomier.resume_dir = dir.path;
  const auto resumed = solve_out_of_core(g, roomier);
  expect_out_of_core(resumed.executed_plan(), n, 256);
  expect_bit_identical<std::int32_t>(resumed, apsp::solve(g, cuda_options(dtype::int32, false)));

  fs::remove_all(dir.path);
  cancel_after(g, capped(n, 384, dtype::int32, false), dir.path, 2);
  apsp::solve_options tighter = saving(capped(n, 256, dtype::int32, false), dir.path);
  tighter.resume_dir = dir.path;
  try {
    (void)solve_out_of_core(g, tighter);
    ADD_FAILURE() << "resumed a block-384 checkpoint with room for 256 only";
  } catch (const apsp::invalid_argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("block 384"), std::string::npos) << e.what();
  }
}

// The same rule in the plan alone (no device needed): with room for Bo = 384, a resume of a
// block-256 checkpoint plans 256; a saved block that does not fit, or is not a multiple of the
// tile edge, leaves the chosen one.
TEST(CudaOutOfCorePlan, ResumeTakesTheSavedBlockWhereItFits) {
  const std::int64_t n = 1700;
  const temp_dir dir("apsp_ooc_plan_resume");
  const auto with_manifest = [&](std::int64_t block) {
    apsp::detail::checkpoint_identity id;
    id.n = n;
    id.block = block;
    fs::create_directories(dir.path); // a store makes it at its first save, which this skips
    apsp::detail::checkpoint_store(dir.path, id, 0, 0.0).commit(1, (n + block - 1) / block);
  };
  const auto planned = [&](std::int64_t room_for, bool resume) {
    apsp::plan p;
    p.type = dtype::int32;
    p.n = n;
    apsp::solve_options o;
    if (resume)
      o.resume_dir = dir.path;
    EXPECT_TRUE(apsp::cuda::plan_out_of_core(p, "test device",
                                             out_of_core_bytes(n, room_for, 4, false), o, {0}));
    return p;
  };
  EXPECT_EQ(planned(384, true).block, 384); // no checkpoint there yet
  with_manifest(256);
  const apsp::plan p = planned(384, true);
  EXPECT_EQ(p.block, 256);
  EXPECT_EQ(p.rounds, 7);
  EXPECT_EQ(p.device_bytes, apsp::cuda::out_of_core_device_bytes(n, 256, 4, false));
  EXPECT_NE(p.device.find("outer block 256"), std::string::npos) << p.device;
  EXPECT_EQ(planned(384, false).block, 384);
  EXPECT_EQ(planned(128, true).block, 128); // 256 does not fit
  with_manifest(200);
  EXPECT_EQ(planned(384, true).block, 384);
}

} // namespace
