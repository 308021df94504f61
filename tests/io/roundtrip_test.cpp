// write_graph then read_graph gives the same graph in every format (by index where the format
// keeps the numbering, by file id where it renumbers), and writers are atomic.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "io_test_util.hpp"

namespace {

using namespace apsp_io_test;
using apsp::io::graph_file;
using apsp::io::write_graph;

// Seeded random graph on n vertices: a ring (so no vertex is isolated; edge lists cannot
// express isolated vertices), plus random edges with zero, negative and parallel weights and
// self-loops.
graph_file random_graph(std::int64_t n, int extra, bool integral, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> vertex(0, static_cast<int>(n) - 1);
  std::uniform_int_distribution<int> weight(-100, 1000);
  graph_file f{apsp::graph(n), apsp::io::vertex_labels::numeric(n, 0), format::course_binary, {}};
  const auto w = [&] {
    const double x = weight(rng);
    return integral ? x : x / 7.0 + 1e-9;
  };
  for (std::int64_t i = 0; i < n; ++i)
    f.g.add_edge(i, (i + 1) % n, w());
  for (int k = 0; k < extra; ++k) {
    const int u = vertex(rng);
    f.g.add_edge(u, k % 5 == 0 ? u : vertex(rng), k % 9 == 0 ? 0.0 : w());
  }
  f.g.add_edge(0, 1, 3); // a parallel edge for sure
  return f;
}

// Minimum weight per (u, v), without diagonal entries whose minimum is 0 (what a dense matrix
// keeps: a zero diagonal reads as "no self-loop").
std::map<std::pair<int, int>, double> dense_view(const apsp::graph& g) {
  std::map<std::pair<int, int>, double> out;
  for (std::size_t e = 0; e < g.sources().size(); ++e) {
    const double w = g.weights()[e];
    auto [it, inserted] = out.try_emplace({g.sources()[e], g.targets()[e]}, w);
    if (!inserted)
      it->second = std::min(it->second, w);
  }
  std::erase_if(out,
                [](const auto& kv) { return kv.first.first == kv.first.second && kv.second == 0; });
  return out;
}

class RoundTrip : public ::testing::TestWithParam<std::tuple<std::string, bool>> {};

TEST_P(RoundTrip, EveryGraphFormat) {
  const auto [suffix, integral] = GetParam();
  const unsigned seed = 12345;
  SCOPED_TRACE("seed " + std::to_string(seed) + ", suffix " + suffix);
  const graph_file original = random_graph(57, 400, integral, seed);
  scratch_dir dir;
  const auto p = dir / ("g" + suffix);
  const format f = *apsp::io::format_from_path(p);
  write_graph(p, original, f);
  const graph_file back = read_graph(p);
  EXPECT_EQ(back.source_format, f);
  EXPECT_EQ(back.g.num_vertices(), original.g.num_vertices());
  if (suffix.ends_with(".gz"))
    EXPECT_EQ(read_bytes(p).substr(0, 2), "\x1f\x8b");
  switch (f) {
  case format::dimacs:
  case format::mtx:
  case format::course_binary:
    EXPECT_EQ(edges_by_index(back.g), edges_by_index(original.g));
    break;
  case format::edgelist: // numeric ids 0..n-1 sort back into the same order
    EXPECT_EQ(edges_by_index(back.g), edges_by_index(original.g));
    EXPECT_EQ(edges_by_label(back), edges_by_label(original));
    break;
  case format::csv: // string ids: "10" sorts before "2", so compare by id
    EXPECT_EQ(edges_by_label(back), edges_by_label(original));
    EXPECT_EQ(back.labels.label(2), "10");
    break;
  case format::npy:
    EXPECT_EQ(dense_view(back.g), dense_view(original.g));
    break;
  }
  EXPECT_EQ(dir.entries().size(), 1u) << "temporary file left behind";
}

INSTANTIATE_TEST_SUITE_P(Formats, RoundTrip,
                         ::testing::Values(std::tuple{".gr", true}, std::tuple{".mtx", true},
                                           std::tuple{".txt", true}, std::tuple{".csv", true},
                                           std::tuple{".bin", true}, std::tuple{".npy", true},
                                           std::tuple{".gr.gz", true}, std::tuple{".csv.gz", true},
                                           std::tuple{".mtx.gz", true}, std::tuple{".gr", false},
                                           std::tuple{".mtx", false}, std::tuple{".edges", false},
                                           std::tuple{".csv", false}, std::tuple{".npy", false}));

TEST(RoundTripLabels, NamedCsvKeepsNamesWithCommasAndQuotes) {
  const graph_file original = read_graph(test_data("tiny_quoted.csv"));
  scratch_dir dir;
  write_graph(dir / "out.csv", original, format::csv);
  const graph_file back = read_graph(dir / "out.csv");
  EXPECT_EQ(edges_by_index(back.g), edges_by_index(original.g));
  EXPECT_EQ(edges_by_label(back), edges_by_label(original));
}

TEST(RoundTripLabels, EdgelistKeepsArbitraryIntegerIds) {
  const graph_file original = read_graph(test_data("tiny_edges.txt"));
  scratch_dir dir;
  write_graph(dir / "out.txt", original, format::edgelist);
  const graph_file back = read_graph(dir / "out.txt");
  EXPECT_EQ(edges_by_label(back), edges_by_label(original));
  EXPECT_EQ(back.labels.label(3), "1000000000000");
}

TEST(RoundTripLabels, DimacsKeepsOneBasedIds) {
  const graph_file original = read_graph(test_data("tiny.gr"));
  scratch_dir dir;
  write_graph(dir / "out.edges", original, format::edgelist);
  const graph_file back = read_graph(dir / "out.edges");
  EXPECT_EQ(back.labels.label(0), "1");
  EXPECT_EQ(edges_by_label(back), edges_by_label(original));
}

TEST(AtomicWrite, FailedWriteLeavesNoTemporaryAndKeepsTheOldFile) {
  scratch_dir dir;
  const auto target = dir / "out.txt";
  write_bytes(target, "previous content\n");
  // Names are not integers: the edge-list writer gives up after creating its temporary.
  const graph_file named = read_graph(test_data("tiny_crlf.csv"));
  try {
    write_graph(target, named, format::edgelist);
    ADD_FAILURE() << "expected invalid_argument_error";
  } catch (const apsp::invalid_argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("out.txt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'alpha'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.txt"});
  EXPECT_EQ(read_bytes(target), "previous content\n");
}

TEST(AtomicWrite, NonIntegerWeightsCannotBeCourseBinary) {
  scratch_dir dir;
  const graph_file g = random_graph(10, 5, false, 7);
  EXPECT_THROW(write_graph(dir / "g.bin", g, format::course_binary), apsp::invalid_argument_error);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(AtomicWrite, MissingDirectoryIsAnArgumentError) {
  scratch_dir dir;
  const graph_file g = random_graph(4, 0, true, 1);
  try {
    write_graph(dir / "no" / "such" / "g.gr", g, format::dimacs);
    ADD_FAILURE() << "expected invalid_argument_error";
  } catch (const apsp::invalid_argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("g.gr"), std::string::npos) << e.what();
  }
}

TEST(AtomicWrite, OverwritesAnExistingFileCompletely) {
  scratch_dir dir;
  const auto target = dir / "g.gr";
  write_bytes(target, std::string(100000, 'x'));
  const graph_file g = random_graph(5, 0, true, 3);
  write_graph(target, g, format::dimacs);
  EXPECT_EQ(edges_by_index(read_graph(target).g), edges_by_index(g.g));
  EXPECT_EQ(dir.entries().size(), 1u);
}

TEST(WriteGraph, DefaultLabelsNumberFromZero) {
  graph_file f;
  f.g = apsp::graph(3);
  f.g.add_edge(2, 0, 1.5);
  f.g.add_edge(1, 2, 4);
  scratch_dir dir;
  write_graph(dir / "g.csv", f, format::csv);
  EXPECT_EQ(read_bytes(dir / "g.csv"), "source,target,weight\n2,0,1.5\n1,2,4\n");
}

TEST(WriteGraph, EdgeFilesRefuseAVertexOnNoEdge) {
  graph_file f;
  f.g = apsp::graph(3);
  f.g.add_edge(2, 0, 1.5); // vertex 1 lies on no edge: an edge file would lose it
  scratch_dir dir;
  for (const format fmt : {format::csv, format::edgelist}) {
    const auto target = dir / (fmt == format::csv ? "g.csv" : "g.txt");
    try {
      write_graph(target, f, fmt);
      ADD_FAILURE() << "expected invalid_argument_error";
    } catch (const apsp::invalid_argument_error& e) {
      EXPECT_NE(std::string(e.what()).find("'1'"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(target));
  }
  write_graph(dir / "g.gr", f, format::dimacs); // DIMACS keeps it
  EXPECT_EQ(read_graph(dir / "g.gr").g.num_vertices(), 3);
}

TEST(WriteGraph, DimacsTextIsExact) {
  const graph_file f = read_graph(test_data("tiny.gr"));
  scratch_dir dir;
  write_graph(dir / "g.gr", f, format::dimacs);
  EXPECT_EQ(read_bytes(dir / "g.gr"),
            "c written by apsp\np sp 4 6\na 1 2 5\na 2 3 -2\na 3 4 7\na 3 4 4\na 4 1 0\n"
            "a 1 3 10\n");
}

} // namespace
