// read_options::undirected (every edge also the other way, in every format) and write_matrix
// with vertex ids (a CSV header row and id column).

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "apsp/types.hpp"
#include "io_test_util.hpp"

namespace {

using namespace apsp_io_test;
using apsp::io::read_options;
using apsp::io::vertex_labels;
using apsp::io::write_matrix;

TEST(Undirected, EveryEdgeGoesBothWaysAndSelfLoopsStayOne) {
  scratch_dir dir;
  write_bytes(dir / "e.txt", "30 10 2.5\n10 10 7\n10 30 4\n20 30 1\n");
  read_options o;
  const apsp::io::graph_file directed = read_graph(dir / "e.txt", o);
  o.undirected = true;
  const apsp::io::graph_file both = read_graph(dir / "e.txt", o);
  labelled_edges want = edges_by_label(directed);
  for (const auto& [uv, ws] : edges_by_label(directed)) {
    if (uv.first == uv.second)
      continue;
    auto& back = want[{uv.second, uv.first}];
    back.insert(back.end(), ws.begin(), ws.end());
    std::sort(back.begin(), back.end());
  }
  EXPECT_EQ(edges_by_label(both), want);
  EXPECT_EQ(both.g.num_edges(), 2 * directed.g.num_edges() - 1);
  EXPECT_EQ(want[(std::pair<std::string, std::string>{"10", "30"})], (std::vector<double>{2.5, 4}));
}

TEST(Undirected, AppliesToNumericFormatsToo) {
  scratch_dir dir;
  write_bytes(dir / "g.gr", "p sp 3 2\na 1 2 5\na 3 2 1\n");
  read_options o;
  o.undirected = true;
  const auto g = read_graph(dir / "g.gr", o);
  EXPECT_EQ(edges_by_index(g.g), (std::vector<std::tuple<int, int, double>>{
                                     {0, 1, 5}, {1, 0, 5}, {1, 2, 1}, {2, 1, 1}}));
}

apsp::dense_matrix<std::int32_t> small_matrix() {
  apsp::dense_matrix<std::int32_t> d(3);
  const std::int32_t inf = apsp::weight_traits<std::int32_t>::infinity;
  const std::int32_t values[3][3] = {{0, 4, inf}, {-2, 0, 7}, {inf, inf, 0}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      d(i, j) = values[i][j];
  return d;
}

TEST(WriteMatrixLabels, CsvGetsAHeaderRowAndAnIdColumnQuotedWhereNeeded) {
  scratch_dir dir;
  const auto labels = vertex_labels::named({"a,b", "plain", "say \"hi\""});
  write_matrix(dir / "d.csv", apsp::any_matrix(small_matrix()), format::csv, labels);
  EXPECT_EQ(read_bytes(dir / "d.csv"), ",\"a,b\",plain,\"say \"\"hi\"\"\"\n"
                                       "\"a,b\",0,4,inf\n"
                                       "plain,-2,0,7\n"
                                       "\"say \"\"hi\"\"\",inf,inf,0\n");
  write_matrix(dir / "n.csv", apsp::any_matrix(small_matrix()), format::csv,
               vertex_labels::numeric(3, 1));
  EXPECT_EQ(read_bytes(dir / "n.csv"), ",1,2,3\n1,0,4,inf\n2,-2,0,7\n3,inf,inf,0\n");
  write_matrix(dir / "plain.csv", apsp::any_matrix(small_matrix()), format::csv);
  EXPECT_EQ(read_bytes(dir / "plain.csv"), "0,4,inf\n-2,0,7\ninf,inf,0\n");
}

TEST(WriteMatrixLabels, BinaryFormatsHaveNoPlaceForIds) {
  scratch_dir dir;
  const auto labels = vertex_labels::numeric(3, 1);
  for (const auto& [name, f] :
       {std::pair{"d.npy", format::npy}, {"d.bin", format::course_binary}}) {
    write_matrix(dir / (std::string("l") + name), apsp::any_matrix(small_matrix()), f, labels);
    write_matrix(dir / name, apsp::any_matrix(small_matrix()), f);
    EXPECT_EQ(read_bytes(dir / (std::string("l") + name)), read_bytes(dir / name)) << name;
  }
}

TEST(WriteMatrixLabels, AWrongNumberOfIdsIsRefusedAndWritesNothing) {
  scratch_dir dir;
  EXPECT_THROW(write_matrix(dir / "d.csv", apsp::any_matrix(small_matrix()), format::csv,
                            vertex_labels::numeric(4, 0)),
               apsp::invalid_argument_error);
  EXPECT_TRUE(dir.entries().empty());
}

} // namespace
