// The cuda back end against the reference (int32 bit-identical, float32 within rounding), at
// sizes around every tile edge, with paths, negative weights, negative cycles, cancellation,
// memory limits, and the rome99 checksums.

#include <gtest/gtest.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "apsp/apsp.hpp"
#include "blocked_test_support.hpp"

namespace {

constexpr std::int64_t tile = 128; // the cuda back end's tile edge

using apsp::cuda_test::have_gpu;
using apsp::detail::scoped_tuning;
using apsp::detail::tuning;

struct graph_spec {
  std::int64_t n = 0;
  double density = 0.05;
  int w_min = 1;
  int w_max = 100;
  bool integral = true;
  std::uint64_t seed = 1;
};

/// Random directed graph with self-loops, parallel edges and (at low density) unreachable pairs.
apsp::graph random_graph(const graph_spec& s) {
  apsp::graph g(s.n);
  std::mt19937_64 rng(s.seed);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::uniform_int_distribution<int> wi(s.w_min, s.w_max);
  std::uniform_real_distribution<double> wf(s.w_min, s.w_max);
  for (std::int64_t u = 0; u < s.n; ++u) {
    for (std::int64_t v = 0; v < s.n; ++v) {
      if (coin(rng) >= s.density)
        continue;
      const double w = s.integral ? wi(rng) : wf(rng);
      g.add_edge(u, v, w);
      if (coin(rng) < 0.05)
        g.add_edge(u, v, s.integral ? wi(rng) : wf(rng)); // parallel
    }
  }
  return g;
}

apsp::result solve_with(const apsp::graph& g, apsp::backend_kind b, apsp::dtype t, bool paths) {
  apsp::solve_options o;
  o.backend = b;
  o.type = t;
  o.paths = paths;
  return apsp::solve(g, o);
}

/// Every reconstructed path is a walk of graph edges whose weight equals d[i][j].
template <class T>
void expect_paths_valid(const apsp::graph& g, const apsp::result& r, double tol) {
  std::map<std::pair<std::int64_t, std::int64_t>, double> edge;
  for (std::size_t e = 0; e < g.sources().size(); ++e) {
    const auto key = std::make_pair<std::int64_t, std::int64_t>(g.sources()[e], g.targets()[e]);
    auto it = edge.find(key);
    if (it == edge.end() || g.weights()[e] < it->second)
      edge[key] = g.weights()[e];
  }
  const auto& d = r.distances_as<T>();
  int failures = 0;
  for (std::int64_t i = 0; i < r.n() && failures < 5; ++i) {
    for (std::int64_t j = 0; j < r.n() && failures < 5; ++j) {
      const auto p = r.path(i, j);
      if (!r.reachable(i, j)) {
        EXPECT_TRUE(p.empty()) << i << "->" << j;
        continue;
      }
      ASSERT_FALSE(p.empty()) << i << "->" << j;
      EXPECT_EQ(p.front(), i);
      EXPECT_EQ(p.back(), j);
      double w = 0;
      bool ok = true;
      for (std::size_t s = 0; s + 1 < p.size(); ++s) {
        auto it = edge.find({p[s], p[s + 1]});
        if (it == edge.end()) {
          ok = false;
          break;
        }
        w += it->second;
      }
      const double expected = static_cast<double>(d(i, j));
      if (!ok || std::fabs(w - expected) > tol * std::max(1.0, std::fabs(expected))) {
        ++failures;
        ADD_FAILURE() << "path " << i << "->" << j << " is not a walk of weight " << expected
                      << " (walk ok: " << ok << ", weight " << w << ")";
      }
    }
  }
}

/// float32 distances farther than rounding (1e-5 relative) from float64 ones.
std::int64_t float_mismatches(const apsp::result& f32, const apsp::result& f64) {
  const auto& a = f32.distances_as<float>();
  const auto& b = f64.distances_as<double>();
  std::int64_t bad = 0;
  for (std::size_t e = 0; e < a.size(); ++e) {
    const double x = a.data()[e];
    const double y = b.data()[e];
    bad += std::isinf(y) ? !std::isinf(x) : std::fabs(x - y) > 1e-5 * std::max(1.0, std::fabs(y));
  }
  return bad;
}

class CudaSizes : public ::testing::TestWithParam<std::int64_t> {};

TEST_P(CudaSizes, Int32MatchesReferenceExactly) {
  APSP_SKIP_WITHOUT_GPU();
  graph_spec s{GetParam(), 0.03, 0, 50, true, 1000 + static_cast<std::uint64_t>(GetParam())};
  SCOPED_TRACE("n = " + std::to_string(s.n) + ", seed = " + std::to_string(s.seed));
  const auto g = random_graph(s);
  const auto ref = solve_with(g, apsp::backend_kind::reference, apsp::dtype::int32, false);
  const auto got = solve_with(g, apsp::backend_kind::cuda, apsp::dtype::int32, true);
  EXPECT_EQ(got.executed_plan().backend, apsp::backend_kind::cuda);
  const auto& a = got.distances_as<std::int32_t>();
  const auto& b = ref.distances_as<std::int32_t>();
  ASSERT_EQ(a.n(), b.n());
  std::int64_t mismatches = 0;
  for (std::size_t e = 0; e < a.size(); ++e)
    mismatches += a.data()[e] != b.data()[e];
  EXPECT_EQ(mismatches, 0);
  expect_paths_valid<std::int32_t>(g, got, 0);
}

TEST_P(CudaSizes, Float32MatchesReferenceWithinRounding) {
  APSP_SKIP_WITHOUT_GPU();
  graph_spec s{GetParam(), 0.05, 1, 10, false, 2000 + static_cast<std::uint64_t>(GetParam())};
  SCOPED_TRACE("n = " + std::to_string(s.n) + ", seed = " + std::to_string(s.seed));
  const auto g = random_graph(s);
  const auto ref = solve_with(g, apsp::backend_kind::reference, apsp::dtype::float64, false);
  const auto got = solve_with(g, apsp::backend_kind::cuda, apsp::dtype::float32, true);
  EXPECT_EQ(float_mismatches(got, ref), 0);
  expect_paths_valid<float>(g, got, 1e-5);
}

INSTANTIATE_TEST_SUITE_P(TileEdges, CudaSizes,
                         ::testing::Values(0, 1, 2, tile - 1, tile, tile + 1, 2 * tile - 1,
                                           2 * tile, 3 * tile + 37));

/// Distances without paths run the rounds with look-ahead (fw_driver.hpp: round r + 1's pivot
/// and cross on a second stream beside round r's phase 3): bit-identical to the cpu back end
/// for int32, with and without negative weights (clamped sums), from 3 to 9 tiles, and float32
/// within rounding of float64. Last tile columns of 1, 14 and 32 live columns take the
/// transposed tiles (min_plus_pipelined.cuh), 37 and 123 the usual ones.
TEST(Cuda, LookaheadRoundsMatchTheCpuBackEnd) {
  APSP_SKIP_WITHOUT_GPU();
  for (const std::int64_t n :
       {2 * tile + 1, 3 * tile + 37, 9 * tile - 5, 3 * tile + 32, 4 * tile + 14}) {
    for (const int w_min : {1, -1}) {
      graph_spec s{n, 0.04, w_min, 60, true, 77 + static_cast<std::uint64_t>(n)};
      SCOPED_TRACE("n = " + std::to_string(n) + ", w_min = " + std::to_string(w_min));
      // Without negative self-loops (each one a negative cycle); longer cycles stay positive.
      const auto all = random_graph(s);
      apsp::graph g(n);
      for (std::size_t e = 0; e < all.sources().size(); ++e) {
        if (all.sources()[e] != all.targets()[e] || all.weights()[e] >= 0)
          g.add_edge(all.sources()[e], all.targets()[e], all.weights()[e]);
      }
      apsp::result cpu;
      try {
        cpu = solve_with(g, apsp::backend_kind::cpu, apsp::dtype::int32, false);
      } catch (const apsp::negative_cycle_error&) {
        // A negative self-loop or cycle: the GPU must say so too.
        EXPECT_THROW((void)solve_with(g, apsp::backend_kind::cuda, apsp::dtype::int32, false),
                     apsp::negative_cycle_error);
        continue;
      }
      const auto got = solve_with(g, apsp::backend_kind::cuda, apsp::dtype::int32, false);
      const auto& a = got.distances_as<std::int32_t>();
      const auto& b = cpu.distances_as<std::int32_t>();
      EXPECT_TRUE(std::equal(a.data(), a.data() + a.size(), b.data()));
    }
    graph_spec f{n, 0.05, 1, 10, false, 3000 + static_cast<std::uint64_t>(n)};
    const auto g = random_graph(f);
    const auto ref = solve_with(g, apsp::backend_kind::cpu, apsp::dtype::float64, false);
    const auto got = solve_with(g, apsp::backend_kind::cuda, apsp::dtype::float32, false);
    EXPECT_EQ(float_mismatches(got, ref), 0);
  }
}

/// The initial matrix is built on the device from the edges (initial_matrix.hpp). With an edge
/// for every pair and every weight in [1, 2), no two-edge path beats an edge, so the float32
/// distances are exactly the initial matrix: each pair's minimum parallel edge, converted to
/// float as on the host, and 0 on the diagonal (positive self-loops ignored). Pairs without
/// edges (infinity) are covered by the int32 comparison with the cpu back end.
TEST(Cuda, InitialMatrixFromEdgesMatchesHostFill) {
  APSP_SKIP_WITHOUT_GPU();
  for (std::int64_t n : {1, 2, 127, 129, 300}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    apsp::graph g(n);
    std::mt19937_64 rng(90 + static_cast<std::uint64_t>(n));
    std::uniform_real_distribution<double> w(1.0, 2.0);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    for (std::int64_t u = 0; u < n; ++u) {
      for (std::int64_t v = 0; v < n; ++v) {
        g.add_edge(u, v, w(rng)); // every pair: no pair's distance comes from a longer path
        if (coin(rng) < 0.2)
          g.add_edge(u, v, w(rng)); // parallel: the smaller one counts
      }
    }
    apsp::solve_options o;
    o.backend = apsp::backend_kind::cuda;
    o.type = apsp::dtype::float32;
    const auto got = apsp::solve(g, o);
    const auto& d = got.distances_as<float>();
    std::vector<float> want(static_cast<std::size_t>(n * n),
                            std::numeric_limits<float>::infinity());
    for (std::size_t e = 0; e < g.weights().size(); ++e) {
      float& cell = want[static_cast<std::size_t>(g.sources()[e] * n + g.targets()[e])];
      cell = std::min(cell, static_cast<float>(g.weights()[e]));
    }
    int bad = 0;
    for (std::int64_t i = 0; i < n && bad < 5; ++i) {
      for (std::int64_t j = 0; j < n && bad < 5; ++j) {
        const float expected = i == j ? 0.0f : want[static_cast<std::size_t>(i * n + j)];
        if (d(i, j) != expected) {
          ++bad;
          ADD_FAILURE() << "d[" << i << "][" << j << "] = " << d(i, j) << ", want " << expected;
        }
      }
    }
    // int32 on part of the same edges (weights 500..999): exact vs the cpu back end.
    apsp::graph gi(n);
    for (std::size_t e = 0; e < g.weights().size(); ++e) {
      const std::int64_t u = g.sources()[e];
      const std::int64_t v = g.targets()[e];
      // Pairs without an edge (reached through others) and a last vertex nobody reaches.
      if ((u + v) % 3 != 0 && (v != n - 1 || n == 1))
        gi.add_edge(u, v, std::floor(g.weights()[e] * 500.0));
    }
    o.type = apsp::dtype::int32;
    apsp::solve_options cpu = o;
    cpu.backend = apsp::backend_kind::cpu;
    apsp::cuda_test::expect_bit_identical<std::int32_t>(apsp::solve(gi, o), apsp::solve(gi, cpu));
  }
}

/// Tagged and rescanned phase 3 agree (blocked_test_support.hpp); both match the reference.
void expect_tagged_and_rescan_agree(const apsp::graph& g) {
  const auto tagged = apsp::cuda_test::expect_tagged_matches_rescan(
      [&] { return solve_with(g, apsp::backend_kind::cuda, apsp::dtype::int32, true); });
  apsp::cuda_test::expect_bit_identical<std::int32_t>(
      tagged, solve_with(g, apsp::backend_kind::reference, apsp::dtype::int32, false));
  expect_paths_valid<std::int32_t>(g, tagged, 0);
}

TEST(Cuda, TaggedPathsPickTheSamePivotsAsTheRescan) {
  APSP_SKIP_WITHOUT_GPU();
  // Zero weights and a small range: many ties between pivots of one round.
  expect_tagged_and_rescan_agree(random_graph({5 * tile + 19, 0.05, 0, 9, true, 77}));
}

TEST(Cuda, TaggedPathsFallBackWhereValuesDoNotFit) {
  APSP_SKIP_WITHOUT_GPU();
  // Rounds whose pivots lie in the large-weight component cannot be tagged.
  expect_tagged_and_rescan_agree(apsp::cuda_test::mixed_range_graph());
}

// Negative weights take the signed range of tagged values: the same pivots as the rescan,
// int32 and float32 whole numbers; rounds with values outside both ranges rescan.
TEST(Cuda, TaggedPathsWithNegativeWeights) {
  APSP_SKIP_WITHOUT_GPU();
  apsp::testing::random_graph_spec s;
  s.n = 5 * tile + 19;
  s.density = 0.05;
  s.max_weight = 9; // potentials 0..9: weights -9..18, zero weights and ties
  s.negative_edges = true;
  const auto g = apsp::testing::make_random_graph(s, 79);
  expect_tagged_and_rescan_agree(g);
  const auto tagged = apsp::cuda_test::expect_tagged_matches_rescan<float>(
      [&] { return solve_with(g, apsp::backend_kind::cuda, apsp::dtype::float32, true); });
  apsp::cuda_test::expect_close(
      tagged, solve_with(g, apsp::backend_kind::reference, apsp::dtype::float64, false), 0.0);
  expect_paths_valid<float>(g, tagged, 0);
  expect_tagged_and_rescan_agree(apsp::cuda_test::mixed_range_graph(true));
}

TEST(Cuda, Float32WholeNumbersTakeTheTaggedRoute) {
  APSP_SKIP_WITHOUT_GPU();
  // Whole-number weights in float32: every slice can be tagged, and every sum is exact, so the
  // distances equal the float64 reference exactly. (Fractional weights, which fall back to the
  // rescan, are covered by Float32MatchesReferenceWithinRounding.)
  const auto g = random_graph({5 * tile + 19, 0.05, 0, 9, true, 78});
  const auto tagged = apsp::cuda_test::expect_tagged_matches_rescan<float>(
      [&] { return solve_with(g, apsp::backend_kind::cuda, apsp::dtype::float32, true); });
  apsp::cuda_test::expect_close(
      tagged, solve_with(g, apsp::backend_kind::reference, apsp::dtype::float64, false), 0.0);
  expect_paths_valid<float>(g, tagged, 0);
}

/// Deferred pivots (kernels/deferred_pivots.cuh, the default) and pivots found in the round
/// (APSP_CUDA_DEFERRED_PIVOTS=0): the same distances and bit-identical path matrices, with
/// some intermediate vertices recorded; the deferred result's paths are valid.
template <class T> void expect_deferred_matches_in_round(const apsp::graph& g, apsp::dtype t) {
  const auto deferred = solve_with(g, apsp::backend_kind::cuda, t, true);
  apsp::result in_round = [&] {
    const scoped_tuning off([](tuning& t) { t.cuda_deferred_pivots = false; });
    return solve_with(g, apsp::backend_kind::cuda, t, true);
  }();
  apsp::cuda_test::expect_bit_identical<T>(deferred, in_round);
  apsp::cuda_test::expect_same_vias(deferred, in_round);
  const auto& v = deferred.via();
  EXPECT_GT(std::count_if(v.data(), v.data() + v.size(), [](auto x) { return x != apsp::no_via; }),
            0);
  expect_paths_valid<T>(g, deferred, std::is_same_v<T, float> ? 1e-5 : 0);
}

TEST(Cuda, DeferredPivotsMatchThePivotsFoundInTheRound) {
  APSP_SKIP_WITHOUT_GPU();
  // Fractional float32 weights (never tagged), ties among small ones; int32 with tagging off,
  // without and with negative weights (the clamp kernels); a single tile (nothing deferred).
  const std::int64_t n = 5 * tile + 19;
  expect_deferred_matches_in_round<float>(random_graph({n, 0.05, 1, 4, false, 91}),
                                          apsp::dtype::float32);
  expect_deferred_matches_in_round<float>(random_graph({tile - 3, 0.05, 1, 4, false, 92}),
                                          apsp::dtype::float32);
  const scoped_tuning untagged([](tuning& t) { t.cuda_tagged_paths = false; });
  expect_deferred_matches_in_round<std::int32_t>(random_graph({n, 0.05, 0, 9, true, 93}),
                                                 apsp::dtype::int32);
  apsp::testing::random_graph_spec neg;
  neg.n = n;
  neg.density = 0.05;
  neg.max_weight = 9;
  neg.negative_edges = true;
  expect_deferred_matches_in_round<std::int32_t>(apsp::testing::make_random_graph(neg, 94),
                                                 apsp::dtype::int32);
}

/// float32 without negative weights takes its minima on the bit patterns, two pivots and the
/// running minimum at a time (device_problem::three_way, DPX VIMNMX3): the distances and path
/// matrices are bit-identical to the two-operand minima (APSP_CUDA_THREE_WAY=0), with and
/// without paths (phases 2 and 3, deferred pivots), on fractional weights with ties and on
/// sizes with a partial last tile, and within rounding of float64. A -0.0 weight, whose bit
/// pattern would order below every other value, counts as negative: the two-operand route.
TEST(Cuda, ThreeWayFloatMinimaMatchTheTwoOperandOnes) {
  APSP_SKIP_WITHOUT_GPU();
  for (const std::int64_t n : {tile - 3, 3 * tile + 37, 5 * tile + 19}) {
    const auto g = random_graph({n, 0.05, 1, 4, false, 95 + static_cast<std::uint64_t>(n)});
    const auto ref = solve_with(g, apsp::backend_kind::reference, apsp::dtype::float64, false);
    for (const bool paths : {false, true}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", paths = " + std::to_string(paths));
      const auto three = solve_with(g, apsp::backend_kind::cuda, apsp::dtype::float32, paths);
      apsp::result two = [&] {
        const scoped_tuning off([](tuning& t) { t.cuda_three_way = false; });
        return solve_with(g, apsp::backend_kind::cuda, apsp::dtype::float32, paths);
      }();
      apsp::cuda_test::expect_bit_identical<float>(three, two);
      EXPECT_EQ(float_mismatches(three, ref), 0);
      if (!paths)
        continue;
      apsp::cuda_test::expect_same_vias(three, two);
      expect_paths_valid<float>(g, three, 1e-5);
    }
  }
  // Zero-weight two-cycles written as -0.0 beside positive arcs: read as bit patterns, -0.0 +
  // -0.0 would order below the diagonal's +0.0 and record an improvement that is none. As a
  // negative weight the graph takes the two-operand minima: the same distances (sign bits
  // included) and path matrix as with them forced.
  auto g = random_graph({2 * tile + 5, 0.05, 1, 4, false, 96});
  for (std::int64_t v = 0; v + 1 < g.num_vertices(); v += 3) {
    g.add_edge(v, v + 1, -0.0);
    g.add_edge(v + 1, v, -0.0);
  }
  const auto got = solve_with(g, apsp::backend_kind::cuda, apsp::dtype::float32, true);
  apsp::result forced = [&] {
    const scoped_tuning off([](tuning& t) { t.cuda_three_way = false; });
    return solve_with(g, apsp::backend_kind::cuda, apsp::dtype::float32, true);
  }();
  const auto& a = got.distances_as<float>();
  const auto& b = forced.distances_as<float>();
  std::int64_t differ = 0;
  for (std::size_t e = 0; e < a.size(); ++e) {
    differ += std::memcmp(a.data() + e, b.data() + e, sizeof(float)) != 0 ||
              got.via().data()[e] != forced.via().data()[e];
  }
  EXPECT_EQ(differ, 0);
  EXPECT_EQ(float_mismatches(
                got, solve_with(g, apsp::backend_kind::reference, apsp::dtype::float64, false)),
            0);
  expect_paths_valid<float>(g, got, 1e-5);
}

TEST(Cuda, DeferredPivotsAreSettledBeforeACheckpoint) {
  APSP_SKIP_WITHOUT_GPU();
  // Deferring, saved after every round and cancelled after 3 of 6 rounds; resumed without
  // deferring, so nothing would settle a deferred entry the checkpoint kept: the resumed
  // matrices equal an uninterrupted solve's byte for byte, every path entry a real one.
  const auto g = random_graph({6 * tile, 0.05, 1, 4, false, 95});
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("apsp_deferred_checkpoint_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cuda;
  o.type = apsp::dtype::float32;
  o.paths = true;
  apsp::solve_options saving = o;
  saving.checkpoint_dir = dir;
  saving.checkpoint_every_seconds = 0;
  int calls = 0;
  saving.progress = [&](const apsp::progress_info&) { return ++calls < 3; };
  EXPECT_THROW((void)apsp::solve(g, saving), apsp::cancelled_error);
  ASSERT_TRUE(std::filesystem::exists(dir / "manifest"));
  apsp::solve_options resume = o;
  resume.resume_dir = dir;
  const apsp::result resumed = [&] {
    const scoped_tuning off([](tuning& t) { t.cuda_deferred_pivots = false; });
    return apsp::solve(g, resume);
  }();
  std::filesystem::remove_all(dir);
  const auto once = apsp::solve(g, o);
  apsp::cuda_test::expect_bit_identical<float>(resumed, once);
  ASSERT_TRUE(resumed.has_paths());
  std::int32_t least = 0;
  for (std::size_t e = 0; e < resumed.via().size(); ++e)
    least = std::min(least, resumed.via().data()[e]);
  EXPECT_EQ(least, apsp::no_via);
  EXPECT_TRUE(std::equal(resumed.via().data(), resumed.via().data() + resumed.via().size(),
                         once.via().data()));
  expect_paths_valid<float>(g, resumed, 1e-5);
}

TEST(Cuda, NegativeWeightsWithoutCyclesMatchReference) {
  APSP_SKIP_WITHOUT_GPU();
  // A DAG (u < v) with weights in [-20, 30]: no cycles, and the clamp kernels run.
  const std::int64_t n = 2 * tile + 19;
  apsp::graph g(n);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<int> w(-20, 30);
  for (std::int64_t u = 0; u < n; ++u) {
    for (std::int64_t v = u + 1; v < n; ++v) {
      if (coin(rng) < 0.05)
        g.add_edge(u, v, w(rng));
    }
  }
  const auto ref = solve_with(g, apsp::backend_kind::reference, apsp::dtype::int32, false);
  const auto got = solve_with(g, apsp::backend_kind::cuda, apsp::dtype::int32, true);
  const auto& a = got.distances_as<std::int32_t>();
  const auto& b = ref.distances_as<std::int32_t>();
  std::int64_t mismatches = 0;
  for (std::size_t e = 0; e < a.size(); ++e)
    mismatches += a.data()[e] != b.data()[e];
  EXPECT_EQ(mismatches, 0);
  expect_paths_valid<std::int32_t>(g, got, 0);
}

TEST(Cuda, NegativeCycleIsDetected) {
  APSP_SKIP_WITHOUT_GPU();
  for (apsp::dtype t : {apsp::dtype::int32, apsp::dtype::float32}) {
    graph_spec s{300, 0.02, 1, 9, true, 42};
    auto g = random_graph(s);
    // A cycle 5 -> 200 -> 131 -> 5 of weight -3, spread over three tiles.
    g.add_edge(5, 200, 1);
    g.add_edge(200, 131, 1);
    g.add_edge(131, 5, -5);
    EXPECT_THROW((void)solve_with(g, apsp::backend_kind::cuda, t, false),
                 apsp::negative_cycle_error);
  }
}

TEST(Cuda, LargerInt32AgreesWithCpuBackend) {
  APSP_SKIP_WITHOUT_GPU();
  graph_spec s{1000, 0.1, 1, 1000, true, 99};
  const auto g = random_graph(s);
  const auto cpu = solve_with(g, apsp::backend_kind::cpu, apsp::dtype::int32, false);
  const auto got = solve_with(g, apsp::backend_kind::cuda, apsp::dtype::int32, false);
  const auto& a = got.distances_as<std::int32_t>();
  const auto& b = cpu.distances_as<std::int32_t>();
  std::int64_t mismatches = 0;
  for (std::size_t e = 0; e < a.size(); ++e)
    mismatches += a.data()[e] != b.data()[e];
  EXPECT_EQ(mismatches, 0);
}

TEST(Cuda, CancelStopsTheSolveAndTheNextSolveWorks) {
  APSP_SKIP_WITHOUT_GPU();
  const auto g = random_graph({6 * tile, 0.05, 1, 9, true, 3});
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cuda;
  std::int64_t calls = 0;
  o.progress = [&calls](const apsp::progress_info& p) {
    ++calls;
    EXPECT_EQ(p.rounds_total, 6);
    return p.rounds_done < 2;
  };
  EXPECT_THROW((void)apsp::solve(g, o), apsp::cancelled_error);
  EXPECT_EQ(calls, 2);
  o.progress = nullptr;
  const auto got = apsp::solve(g, o);
  const auto ref = solve_with(g, apsp::backend_kind::reference, apsp::dtype::int32, false);
  EXPECT_EQ(got.distance(3, 700), ref.distance(3, 700));
}

/// Whether device d's primary context is active, from the driver (reached through cudart).
bool primary_context_active(int d) {
  void* get_state = nullptr;
  void* get_device = nullptr;
  cudaDriverEntryPointQueryResult found{};
  EXPECT_EQ(cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &get_state, 12000,
                                             cudaEnableDefault, &found),
            cudaSuccess);
  EXPECT_EQ(cudaGetDriverEntryPointByVersion("cuDeviceGet", &get_device, 12000, cudaEnableDefault,
                                             &found),
            cudaSuccess);
  if (get_state == nullptr || get_device == nullptr)
    return false;
  CUdevice dev{};
  unsigned flags = 0;
  int active = 0;
  EXPECT_EQ(reinterpret_cast<CUresult (*)(CUdevice*, int)>(get_device)(&dev, d), CUDA_SUCCESS);
  EXPECT_EQ(
      reinterpret_cast<CUresult (*)(CUdevice, unsigned*, int*)>(get_state)(dev, &flags, &active),
      CUDA_SUCCESS);
  return active != 0;
}

TEST(Cuda, ReleaseDevicesEndsTheContextAndTheNextSolveStartsItAgain) {
  APSP_SKIP_WITHOUT_GPU();
  const auto g = random_graph({3 * tile + 5, 0.05, 1, 9, true, 11});
  const auto ref = solve_with(g, apsp::backend_kind::reference, apsp::dtype::int32, false);
  const auto first = solve_with(g, apsp::backend_kind::cuda, apsp::dtype::int32, true);
  EXPECT_TRUE(primary_context_active(0));
  apsp::release_devices();
  EXPECT_FALSE(primary_context_active(0));
  apsp::release_devices(); // nothing left to release: harmless
  const auto again = solve_with(g, apsp::backend_kind::cuda, apsp::dtype::int32, true);
  EXPECT_TRUE(primary_context_active(0));
  int mismatches = 0;
  for (std::int64_t i = 0; i < g.num_vertices(); ++i) {
    for (std::int64_t j = 0; j < g.num_vertices(); ++j) {
      mismatches += first.distance(i, j) != ref.distance(i, j);
      mismatches += again.distance(i, j) != ref.distance(i, j);
    }
  }
  EXPECT_EQ(mismatches, 0);
  expect_paths_valid<std::int32_t>(g, again, 0.0);
}

TEST(Cuda, PlanReportsMemoryAndRefusesWhatDoesNotFit) {
  APSP_SKIP_WITHOUT_GPU();
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cuda;
  o.paths = true;
  const auto p = apsp::make_plan(1000, o);
  EXPECT_TRUE(p.fits);
  EXPECT_EQ(p.block, tile);
  EXPECT_EQ(p.rounds, 8);
  // Distances and path matrix (8 bytes a cell, padded to 1024) and two pairs (even and odd
  // rounds, for look-ahead) of the tagged pivot panels of int32 paths (128 x 1024 each) with
  // one overflow flag per round.
  EXPECT_EQ(p.device_bytes, 1024u * 1024u * 8u + 2u * 2u * 128u * 1024u * 4u + 8u * 4u);
  o.device_memory_limit = 1 << 20;
  const auto small = apsp::make_plan(1000, o);
  EXPECT_FALSE(small.fits);
  EXPECT_NE(small.reason.find("device memory"), std::string::npos) << small.reason;
  EXPECT_THROW((void)apsp::solve(random_graph({1000, 0.01, 1, 9, true, 5}), o),
               apsp::out_of_memory_error);
  // A whole-card problem: 200,000 vertices (160 GB in int32) cannot be resident on any current
  // GPU; it either runs out of core (hosts with enough RAM) or is refused with a reason.
  o.device_memory_limit = 0;
  o.paths = false;
  const auto big = apsp::make_plan(200000, o);
  if (big.fits) {
    EXPECT_NE(big.device.find("out-of-core"), std::string::npos) << big.device;
  } else {
    EXPECT_FALSE(big.reason.empty());
  }
}

TEST(Cuda, UnavailableWithoutDeviceIsReportedCleanly) {
  if (have_gpu()) {
    apsp::solve_options o;
    o.backend = apsp::backend_kind::automatic;
    // Large enough that the GPU wins even when it has to start (algorithm_choice.hpp).
    EXPECT_EQ(apsp::make_plan(20000, o).backend, apsp::backend_kind::cuda);
    return;
  }
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cuda;
  EXPECT_THROW((void)apsp::solve(apsp::graph(3), o), apsp::backend_unavailable_error);
  o.backend = apsp::backend_kind::automatic;
  EXPECT_EQ(apsp::make_plan(500, o).backend, apsp::backend_kind::cpu);
}

/// rome99.gr from tests/data, $APSP_DATA_DIR, or ../shared/data; empty when none has it.
std::filesystem::path find_rome99() {
  std::vector<std::filesystem::path> dirs{APSP_TEST_DATA};
  if (const char* env = std::getenv("APSP_DATA_DIR"))
    dirs.emplace_back(env);
  dirs.emplace_back(APSP_SHARED_DATA);
  for (const auto& dir : dirs) {
    if (std::filesystem::exists(dir / "rome99.gr"))
      return dir / "rome99.gr";
  }
  return {};
}

/// A minimal DIMACS reader, independent of src/io (which has its own tests).
apsp::graph read_dimacs(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string line;
  apsp::graph g;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tag;
    ls >> tag;
    if (tag == "p") {
      std::string sp;
      std::int64_t n = 0;
      std::int64_t m = 0;
      ls >> sp >> n >> m;
      g = apsp::graph(n);
    } else if (tag == "a") {
      std::int64_t u = 0;
      std::int64_t v = 0;
      double w = 0;
      ls >> u >> v >> w;
      g.add_edge(u - 1, v - 1, w);
    }
  }
  return g;
}

TEST(Cuda, Rome99MatchesPublishedChecksums) {
  APSP_SKIP_WITHOUT_GPU();
  const auto path = find_rome99();
  if (path.empty())
    GTEST_SKIP() << "rome99.gr not found in tests/data, $APSP_DATA_DIR or ../shared/data";
  const auto g = read_dimacs(path);
  ASSERT_EQ(g.num_vertices(), 3353);
  for (bool paths : {false, true}) {
    const auto r = solve_with(g, apsp::backend_kind::cuda, apsp::dtype::int32, paths);
    const auto& d = r.distances_as<std::int32_t>();
    const auto [pairs, sum, max] = apsp::testing::checksum_of(d);
    EXPECT_EQ(pairs, 11239256);
    EXPECT_EQ(sum, 160839610183);
    EXPECT_EQ(max, 77403);
    EXPECT_EQ(d(0, 3352), 30305);
    if (paths) {
      const auto p = r.path(783, 2980); // the farthest pair, 784 -> 2981 in file ids
      ASSERT_GE(p.size(), 2u);
      EXPECT_EQ(p.front(), 783);
      EXPECT_EQ(p.back(), 2980);
    }
  }
}

} // namespace
