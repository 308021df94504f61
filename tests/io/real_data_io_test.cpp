// The real graphs parse to the counts of ../shared/data/README.md. data/ is bundled with the
// repository; ../shared/data (DE.gr) is optional and skipped when absent.

#include <gtest/gtest.h>
#include <zlib.h>

#include <chrono>
#include <limits>
#include <queue>
#include <set>

#include "apsp/solve.hpp"
#include "common/test_graphs.hpp"
#include "io_test_util.hpp"

namespace {

using namespace apsp_io_test;

// Independent single-source Dijkstra (non-negative weights), int64 distances.
std::vector<std::int64_t> dijkstra(const apsp::graph& g, std::int32_t source) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  std::vector<std::vector<std::pair<std::int32_t, std::int64_t>>> adj(n);
  for (std::size_t e = 0; e < g.sources().size(); ++e) {
    adj[static_cast<std::size_t>(g.sources()[e])].emplace_back(
        g.targets()[e], static_cast<std::int64_t>(g.weights()[e]));
  }
  std::vector<std::int64_t> dist(n, std::numeric_limits<std::int64_t>::max());
  using item = std::pair<std::int64_t, std::int32_t>;
  std::priority_queue<item, std::vector<item>, std::greater<>> heap;
  dist[static_cast<std::size_t>(source)] = 0;
  heap.emplace(0, source);
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[static_cast<std::size_t>(u)])
      continue;
    for (const auto& [v, w] : adj[static_cast<std::size_t>(u)]) {
      if (d + w < dist[static_cast<std::size_t>(v)]) {
        dist[static_cast<std::size_t>(v)] = d + w;
        heap.emplace(d + w, v);
      }
    }
  }
  return dist;
}

std::string gunzip_file(const fs::path& p) {
  gzFile f = gzopen(p.c_str(), "rb");
  EXPECT_NE(f, nullptr) << p;
  std::string out;
  char buf[1 << 14];
  for (int got; f != nullptr && (got = gzread(f, buf, sizeof buf)) > 0;)
    out.append(buf, got);
  if (f != nullptr)
    gzclose(f);
  return out;
}

TEST(RealData, Rome99CountsAndDirectedDistance) {
  const auto f = read_graph(repo_data("rome99.gr"));
  ASSERT_EQ(f.g.num_vertices(), 3353);
  ASSERT_EQ(f.g.num_edges(), 8870);
  std::set<std::pair<int, int>> pairs;
  for (std::size_t e = 0; e < f.g.sources().size(); ++e) {
    pairs.emplace(f.g.sources()[e], f.g.targets()[e]);
  }
  EXPECT_EQ(pairs.size(), 8859u); // 11 parallel duplicates
  const auto s = f.g.summarize_weights();
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 12711);
  // The data README's directed d[0][n-1] (DIMACS node 1 -> node 3353).
  EXPECT_EQ(dijkstra(f.g, 0)[3352], 30305);
}

TEST(RealData, BundledCopiesMatchTheSharedOnes) {
  for (const std::string name : {"rome99.gr", "c_elegans_hermaphrodite/edgelist.csv.gz"}) {
    if (!fs::exists(shared_data(name)))
      GTEST_SKIP() << "../shared/data is not present";
    EXPECT_EQ(read_bytes(repo_data(name)), read_bytes(shared_data(name))) << name;
  }
}

TEST(RealData, CElegansCsvGzCountsAndChecksum) {
  const auto p = repo_data("c_elegans_hermaphrodite/edgelist.csv.gz");
  const auto f = read_graph(p);
  ASSERT_EQ(f.g.num_vertices(), 473);
  ASSERT_EQ(f.g.num_edges(), 6947);
  int self_loops = 0;
  for (std::size_t e = 0; e < f.g.sources().size(); ++e) {
    self_loops += f.g.sources()[e] == f.g.targets()[e];
  }
  EXPECT_EQ(self_loops, 50);
  EXPECT_EQ(f.g.summarize_weights().min, 1);
  EXPECT_EQ(f.g.summarize_weights().max, 431);
  EXPECT_EQ(f.labels.label(0), "ADAL"); // byte order, like Python's sorted() on str
  for (std::int64_t i = 1; i < 473; ++i)
    ASSERT_LT(f.labels.label(i - 1), f.labels.label(i));
  ASSERT_TRUE(f.labels.find("AVAL").has_value());

  // Pairs and exact sum of all shortest distances, from the data README (w = weight).
  apsp::solve_options o;
  o.backend = apsp::backend_kind::reference;
  o.type = apsp::dtype::int64;
  const auto r = apsp::solve(f.g, o);
  const auto& d = r.distances_as<std::int64_t>();
  [[maybe_unused]] const auto [reachable, sum, max] = apsp::testing::checksum_of(d);
  EXPECT_EQ(reachable, 219952);
  EXPECT_EQ(sum, 5039308);
}

TEST(RealData, CElegansGzipAndPlainCsvAreIdentical) {
  const auto packed_path = repo_data("c_elegans_hermaphrodite/edgelist.csv.gz");
  scratch_dir dir;
  write_bytes(dir / "edgelist.csv", gunzip_file(packed_path));
  const auto packed = read_graph(packed_path);
  const auto plain = read_graph(dir / "edgelist.csv");
  EXPECT_EQ(edges_by_index(plain.g), edges_by_index(packed.g));
  EXPECT_EQ(edges_by_label(plain), edges_by_label(packed));
}

TEST(RealData, DelawareParsesCompletely) {
  const auto p = shared_data("DE.gr");
  if (!fs::exists(p))
    GTEST_SKIP() << p << " is not present (../shared/data)";
  const auto start = std::chrono::steady_clock::now();
  const auto f = read_graph(p);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(f.g.num_vertices(), 49109);
  EXPECT_EQ(f.g.num_edges(), 121024);
  int self_loops = 0, zero = 0;
  for (std::size_t e = 0; e < f.g.sources().size(); ++e) {
    self_loops += f.g.sources()[e] == f.g.targets()[e];
    zero += f.g.weights()[e] == 0;
  }
  EXPECT_EQ(self_loops, 448);
  EXPECT_EQ(zero, 482);
  // Speed is a benchmark matter; the time is only recorded here.
  RecordProperty("de_parse_seconds", std::to_string(seconds));
}

} // namespace
