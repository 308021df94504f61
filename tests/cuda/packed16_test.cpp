// The cuda back end's packed 16-bit mode (narrow_mode): bit-identical to the int32 reference
// on hop-count and small-weight graphs at sizes around the tile edges (odd n splits a lane
// pair), unreachable pairs included; refused or skipped when not provably exact; the
// C. elegans hop-count checksums on the packed path.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "apsp/apsp.hpp"
#include "apsp/io.hpp"
#include "blocked_test_support.hpp"

namespace {

constexpr std::int64_t tile = 128; // the cuda back end's tile edge

using apsp::cuda_test::have_gpu;

/// Random directed graph, weights in [1, w_max], with self-loops and parallel edges; at low
/// density many pairs are unreachable.
apsp::graph random_graph(std::int64_t n, double density, int w_max, std::uint64_t seed) {
  apsp::graph g(n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::uniform_int_distribution<int> w(1, w_max);
  for (std::int64_t u = 0; u < n; ++u) {
    for (std::int64_t v = 0; v < n; ++v) {
      if (coin(rng) < density)
        g.add_edge(u, v, w(rng));
    }
  }
  return g;
}

apsp::result solve_with(const apsp::graph& g, apsp::backend_kind b, apsp::narrow_mode narrow,
                        bool paths = false) {
  apsp::solve_options o;
  o.backend = b;
  o.type = apsp::dtype::int32;
  o.narrow = narrow;
  o.paths = paths;
  return apsp::solve(g, o);
}

/// Number of (i, j) where the two int32 results differ; the first few are reported.
std::int64_t count_mismatches(const apsp::result& got, const apsp::result& want,
                              const std::string& what) {
  const auto& a = got.distances_as<std::int32_t>();
  const auto& b = want.distances_as<std::int32_t>();
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < a.n(); ++i) {
    for (std::int64_t j = 0; j < a.n(); ++j) {
      if (a(i, j) != b(i, j) && ++bad <= 5) {
        ADD_FAILURE() << what << ": d[" << i << "][" << j << "] = " << a(i, j) << ", expected "
                      << b(i, j);
      }
    }
  }
  return bad;
}

struct packed_case {
  std::int64_t n;
  int w_max;      // 1: hop counts
  double density; // low values leave pairs unreachable
};

class PackedSizes : public ::testing::TestWithParam<packed_case> {};

TEST_P(PackedSizes, BitIdenticalToInt32Reference) {
  APSP_SKIP_WITHOUT_GPU();
  const auto c = GetParam();
  const std::uint64_t seed = 1000 + static_cast<std::uint64_t>(c.n) * 7 + c.w_max;
  SCOPED_TRACE("n = " + std::to_string(c.n) + ", w_max = " + std::to_string(c.w_max) +
               ", density = " + std::to_string(c.density) + ", seed = " + std::to_string(seed));
  const auto g = random_graph(c.n, c.density, c.w_max, seed);
  const auto want = solve_with(g, apsp::backend_kind::reference, apsp::narrow_mode::off);
  const auto got = solve_with(g, apsp::backend_kind::cuda, apsp::narrow_mode::required);
  EXPECT_EQ(got.executed_plan().narrow, c.n > 0) << "the packed path did not run";
  EXPECT_EQ(got.type(), apsp::dtype::int32);
  EXPECT_EQ(count_mismatches(got, want, "packed16"), 0);
  // when_safe takes the same path for a safe graph.
  const auto auto_got = solve_with(g, apsp::backend_kind::cuda, apsp::narrow_mode::when_safe);
  EXPECT_EQ(auto_got.executed_plan().narrow, c.n > 0);
  EXPECT_EQ(count_mismatches(auto_got, want, "packed16 (when_safe)"), 0);
}

INSTANTIATE_TEST_SUITE_P(
    TileEdges, PackedSizes,
    ::testing::Values(packed_case{0, 1, 0.1}, packed_case{1, 1, 0.5}, packed_case{2, 1, 0.5},
                      packed_case{tile - 1, 1, 0.03}, packed_case{tile, 1, 0.03},
                      packed_case{tile + 1, 1, 0.02}, packed_case{2 * tile + 37, 1, 0.01},
                      packed_case{3 * tile + 5, 9, 0.02}, packed_case{3 * tile, 20, 0.005},
                      packed_case{4 * tile + 1, 3, 0.004}, packed_case{5 * tile - 3, 1, 0.3}));

TEST(Packed16, DisconnectedGraphKeepsInfinity) {
  APSP_SKIP_WITHOUT_GPU();
  // Two components of 150 vertices: every pair across them stays unreachable.
  apsp::graph g(300);
  for (std::int64_t u = 0; u + 1 < 150; ++u) {
    g.add_edge(u, u + 1, 1);
    g.add_edge(150 + u + 1, 150 + u, 2);
  }
  const auto got = solve_with(g, apsp::backend_kind::cuda, apsp::narrow_mode::required);
  ASSERT_TRUE(got.executed_plan().narrow);
  const auto& d = got.distances_as<std::int32_t>();
  EXPECT_EQ(d(0, 149), 149);
  EXPECT_EQ(d(299, 150), 298);
  EXPECT_EQ(d(149, 0), apsp::weight_traits<std::int32_t>::infinity);
  EXPECT_EQ(d(0, 150), apsp::weight_traits<std::int32_t>::infinity);
  EXPECT_EQ(d(150, 299), apsp::weight_traits<std::int32_t>::infinity);
  const auto want = solve_with(g, apsp::backend_kind::reference, apsp::narrow_mode::off);
  EXPECT_EQ(count_mismatches(got, want, "two components"), 0);
}

TEST(Packed16, UnsafeGraphRunsUnpackedWhenSafeAndIsRefusedWhenRequired) {
  APSP_SKIP_WITHOUT_GPU();
  // A 300-vertex chain of weight 100: paths reach 29,900 > 16,383.
  apsp::graph g(300);
  for (std::int64_t u = 0; u + 1 < 300; ++u)
    g.add_edge(u, u + 1, 100);
  const auto got = solve_with(g, apsp::backend_kind::cuda, apsp::narrow_mode::when_safe);
  EXPECT_FALSE(got.executed_plan().narrow);
  EXPECT_EQ(got.distance(0, 299), 29'900);
  const auto want = solve_with(g, apsp::backend_kind::reference, apsp::narrow_mode::off);
  EXPECT_EQ(count_mismatches(got, want, "unsafe, when_safe"), 0);
  EXPECT_THROW((void)solve_with(g, apsp::backend_kind::cuda, apsp::narrow_mode::required),
               apsp::overflow_risk_error);
  // Negative weights are never packed either.
  apsp::graph neg(3);
  neg.add_edge(0, 1, 2);
  neg.add_edge(1, 2, -1);
  EXPECT_FALSE(solve_with(neg, apsp::backend_kind::cuda, apsp::narrow_mode::when_safe)
                   .executed_plan()
                   .narrow);
  EXPECT_THROW((void)solve_with(neg, apsp::backend_kind::cuda, apsp::narrow_mode::required),
               apsp::overflow_risk_error);
}

TEST(Packed16, OffAndPathsRunUnpacked) {
  APSP_SKIP_WITHOUT_GPU();
  const auto g = random_graph(tile + 3, 0.05, 1, 99);
  EXPECT_FALSE(
      solve_with(g, apsp::backend_kind::cuda, apsp::narrow_mode::off).executed_plan().narrow);
  // No packed path kernels: with paths the int32 kernels run, and the result is still right.
  const auto with_paths =
      solve_with(g, apsp::backend_kind::cuda, apsp::narrow_mode::when_safe, true);
  EXPECT_FALSE(with_paths.executed_plan().narrow);
  const auto want = solve_with(g, apsp::backend_kind::reference, apsp::narrow_mode::off);
  EXPECT_EQ(count_mismatches(with_paths, want, "paths"), 0);
}

TEST(Packed16, RequiredOnHostBackEndIsRefused) {
  // Runs without a GPU too: the refusal does not depend on one.
  apsp::graph g(3);
  g.add_edge(0, 1, 1);
  EXPECT_THROW((void)solve_with(g, apsp::backend_kind::cpu, apsp::narrow_mode::required),
               apsp::backend_unavailable_error);
}

/// The C. elegans edge list from tests/data, data/, $APSP_DATA_DIR, or ../shared/data.
std::filesystem::path find_c_elegans() {
  const std::filesystem::path name = "c_elegans_hermaphrodite/edgelist.csv.gz";
  std::vector<std::filesystem::path> dirs{APSP_TEST_DATA, APSP_REPO_DATA};
  if (const char* env = std::getenv("APSP_DATA_DIR"))
    dirs.emplace_back(env);
  dirs.emplace_back(APSP_SHARED_DATA);
  for (const auto& dir : dirs) {
    if (std::filesystem::exists(dir / name))
      return dir / name;
  }
  return {};
}

TEST(Packed16, CElegansHopCountChecksum) {
  APSP_SKIP_WITHOUT_GPU();
  const auto path = find_c_elegans();
  if (path.empty())
    GTEST_SKIP() << "c_elegans_hermaphrodite/edgelist.csv.gz not found in tests/data, "
                    "$APSP_DATA_DIR or ../shared/data";
  auto file = apsp::io::read_graph(path);
  ASSERT_EQ(file.g.num_vertices(), 473);
  apsp::graph hops(file.g.num_vertices());
  hops.assign(file.g.sources(), file.g.targets(),
              std::vector<double>(file.g.weights().size(), 1.0));
  const auto r = solve_with(hops, apsp::backend_kind::cuda, apsp::narrow_mode::required);
  ASSERT_TRUE(r.executed_plan().narrow);
  const auto& d = r.distances_as<std::int32_t>();
  const auto [pairs, sum, max] = apsp::testing::checksum_of(d);
  EXPECT_EQ(pairs, 219'952);
  EXPECT_EQ(sum, 978'234);
  EXPECT_EQ(max, 24);
}

} // namespace
