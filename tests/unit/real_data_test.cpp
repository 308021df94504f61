// Real graphs reproduce the independent all-sources Dijkstra checksums of
// ../shared/data/README.md (pairs = finite off-diagonal entries, their exact sum, the max).
// Compiled per back end (APSP_REAL_DATA_BACKEND) and algorithm (APSP_REAL_DATA_ALGORITHM,
// default fw); DE.gr runs where a GPU makes it quick, and with Johnson when APSP_SLOW_TESTS=1
// (about a minute on two cores, 9.6 GB of RAM).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "apsp/apsp.hpp"
#include "common/test_graphs.hpp"

namespace {

namespace fs = std::filesystem;

using apsp::testing::checksum;

checksum checksum_of(const apsp::result& r) {
  return apsp::testing::checksum_of(r.distances_as<std::int32_t>());
}

#ifndef APSP_REAL_DATA_ALGORITHM
#define APSP_REAL_DATA_ALGORITHM "fw"
#endif

apsp::backend_kind backend() {
  return apsp::parse_backend(APSP_REAL_DATA_BACKEND);
}

apsp::algorithm_kind algorithm() {
  return apsp::parse_algorithm(APSP_REAL_DATA_ALGORITHM);
}

/// Why the back end under test cannot run here (empty when it can).
std::string unavailable_reason() {
  for (const auto& s : apsp::list_backends()) {
    if (s.kind == backend() && !s.available)
      return s.detail;
  }
  return {};
}

// A macro, so that GTEST_SKIP returns from the test itself.
#define skip_unless_available()                                                                    \
  do {                                                                                             \
    if (const auto why = unavailable_reason(); !why.empty())                                       \
      GTEST_SKIP() << why;                                                                         \
  } while (0)

/// The bundled copy when there is one, else ../shared/data; empty when neither exists.
fs::path find_data(const std::string& name) {
  for (const fs::path dir : {fs::path(APSP_REPO_DATA), fs::path(APSP_SHARED_DATA)}) {
    if (fs::exists(dir / name))
      return dir / name;
  }
  return {};
}

apsp::result solve_file(const fs::path& p, bool unit_weights = false) {
  auto file = apsp::io::read_graph(p);
  if (unit_weights) {
    auto g = file.g;
    std::vector<double> ones(g.weights().size(), 1.0);
    apsp::graph unit(g.num_vertices());
    unit.assign(g.sources(), g.targets(), std::move(ones));
    file.g = std::move(unit);
  }
  apsp::solve_options o;
  o.backend = backend();
  o.algorithm = algorithm();
  auto r = apsp::solve(file.g, o);
  EXPECT_EQ(r.executed_plan().algorithm, algorithm());
  return r;
}

TEST(RealData, Rome99Directed) {
  skip_unless_available();
  const auto p = find_data("rome99.gr");
  if (p.empty())
    GTEST_SKIP() << "rome99.gr is in neither data/ nor ../shared/data";
  const auto r = solve_file(p);
  ASSERT_EQ(r.n(), 3353);
  const auto c = checksum_of(r);
  EXPECT_EQ(c.pairs, 11'239'256);
  EXPECT_EQ(c.sum, 160'839'610'183);
  EXPECT_EQ(c.max, 77'403);
  EXPECT_EQ(r.distance(0, 3352), 30'305);
  EXPECT_EQ(r.distance(784, 2981), 77'403); // "784 -> 2981" are 0-based indices
}

TEST(RealData, CElegansWeighted) {
  skip_unless_available();
  const auto p = find_data("c_elegans_hermaphrodite/edgelist.csv.gz");
  if (p.empty())
    GTEST_SKIP() << "the C. elegans edge list is in neither data/ nor ../shared/data";
  const auto c = checksum_of(solve_file(p));
  EXPECT_EQ(c.pairs, 219'952);
  EXPECT_EQ(c.sum, 5'039'308);
  EXPECT_EQ(c.max, 378);
}

TEST(RealData, CElegansHops) {
  skip_unless_available();
  const auto p = find_data("c_elegans_hermaphrodite/edgelist.csv.gz");
  if (p.empty())
    GTEST_SKIP() << "the C. elegans edge list is in neither data/ nor ../shared/data";
  const auto c = checksum_of(solve_file(p, true));
  EXPECT_EQ(c.pairs, 219'952);
  EXPECT_EQ(c.sum, 978'234);
  EXPECT_EQ(c.max, 24);
}

TEST(RealData, DelawareRoads) {
  skip_unless_available();
  const char* slow = std::getenv("APSP_SLOW_TESTS");
  const bool johnson_allowed = (algorithm() == apsp::algorithm_kind::johnson ||
                                algorithm() == apsp::algorithm_kind::supernodal) &&
                               slow != nullptr && std::string(slow) == "1";
  if (backend() != apsp::backend_kind::cuda && !johnson_allowed) {
    GTEST_SKIP() << "DE.gr (49,109 vertices, 1.2e14 updates) runs in the GPU suite and benchmarks; "
                    "with Johnson or the supernodal solver on the cpu when APSP_SLOW_TESTS=1 (about a minute on 2 cores, "
                    "9.6 GB of RAM)";
  }
  const auto p = find_data("DE.gr");
  if (p.empty())
    GTEST_SKIP() << "DE.gr is not in ../shared/data (it is not bundled: 2 MB)";
  const auto r = solve_file(p);
  ASSERT_EQ(r.n(), 49'109);
  const auto c = checksum_of(r);
  EXPECT_EQ(c.pairs, 2'382'568'394);
  EXPECT_EQ(c.sum, 176'041'374'850'866);
  EXPECT_EQ(c.max, 182'796);
  EXPECT_EQ(r.distance(0, 49'108), 69'204);
  EXPECT_EQ(r.distance(17'223, 31'346), 182'796);
}

} // namespace
