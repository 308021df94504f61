// Text readers on small fixtures whose every edge is known.

#include <gtest/gtest.h>

#include "io_test_util.hpp"

namespace {

using namespace apsp_io_test;

TEST(ReadDimacs, TinyGraphOneBasedWithParallelArcs) {
  const auto f = read_graph(test_data("tiny.gr"));
  EXPECT_EQ(f.source_format, format::dimacs);
  EXPECT_EQ(f.g.num_vertices(), 4);
  EXPECT_EQ(f.g.num_edges(), 6);
  EXPECT_TRUE(f.labels.is_numeric());
  EXPECT_EQ(f.labels.base(), 1);
  const std::vector<edge> want = {{0, 1, 5}, {0, 2, 10}, {1, 2, -2},
                                  {2, 3, 4}, {2, 3, 7},  {3, 0, 0}};
  EXPECT_EQ(edges_by_index(f.g), want);
}

TEST(ReadMtx, SymmetricPatternGivesBothDirectionsWithUnitWeights) {
  const auto f = read_graph(test_data("tiny_symmetric_pattern.mtx"));
  EXPECT_EQ(f.source_format, format::mtx);
  EXPECT_EQ(f.g.num_vertices(), 4);
  const std::vector<edge> want = {{0, 1, 1}, {1, 0, 1}, {1, 2, 1}, {2, 1, 1}, {3, 3, 1}};
  EXPECT_EQ(edges_by_index(f.g), want);
}

TEST(ReadMtx, GeneralRealKeepsExplicitZeroAndNegative) {
  const auto f = read_graph(test_data("tiny_general_real.mtx"));
  const std::vector<edge> want = {{0, 0, 0}, {0, 1, 0.5}, {1, 2, 1.25}, {2, 0, -0.75}};
  EXPECT_EQ(edges_by_index(f.g), want);
}

TEST(ReadMtx, SniffedByBannerWhenTheSuffixIsUnknown) {
  scratch_dir dir;
  const auto p = dir / "graph.data";
  write_bytes(p, "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 7\n");
  const auto f = read_graph(p);
  EXPECT_EQ(f.source_format, format::mtx);
  EXPECT_EQ(edges_by_index(f.g), (std::vector<edge>{{0, 1, 7}}));
}

TEST(ReadEdgelist, ArbitraryIntegerIdsAreRemappedInNumericOrder) {
  const auto f = read_graph(test_data("tiny_edges.txt"));
  EXPECT_EQ(f.source_format, format::edgelist);
  ASSERT_EQ(f.g.num_vertices(), 4);
  EXPECT_FALSE(f.labels.is_numeric());
  EXPECT_EQ(f.labels.label(0), "-5");
  EXPECT_EQ(f.labels.label(1), "7");
  EXPECT_EQ(f.labels.label(2), "100");
  EXPECT_EQ(f.labels.label(3), "1000000000000");
  // Missing weights are 1.
  const std::vector<edge> want = {{0, 1, 1}, {1, 2, 3}, {2, 0, 2.5}, {3, 1, 1}};
  EXPECT_EQ(edges_by_index(f.g), want);
  EXPECT_EQ(f.labels.find("100"), 2);
}

TEST(ReadCsv, QuotedFieldsEmbeddedNewlinesAndByteOrderIds) {
  const auto f = read_graph(test_data("tiny_quoted.csv"));
  EXPECT_EQ(f.source_format, format::csv);
  ASSERT_EQ(f.g.num_vertices(), 4);
  EXPECT_EQ(f.labels.label(0), "a");
  EXPECT_EQ(f.labels.label(1), "b, the second");
  EXPECT_EQ(f.labels.label(2), "c");
  EXPECT_EQ(f.labels.label(3), "say \"hi\"");
  const std::vector<edge> want = {{0, 1, 1.5}, {1, 0, 2}, {2, 2, 4}, {3, 0, 3}};
  EXPECT_EQ(edges_by_index(f.g), want);
}

TEST(ReadCsv, LineNumbersCountNewlinesInsideQuotes) {
  scratch_dir dir;
  const auto p = dir / "bad.csv";
  write_bytes(p, "source,target,weight\n\"x\ny\",z,1\nz,x,oops\n");
  expect_input_error([&] { (void)read_graph(p); }, p, {"line 4", "'oops'"});
}

TEST(ReadCsv, WeightColumnOption) {
  apsp::io::read_options o;
  o.weight_column = "absent";
  const auto unit = read_graph(test_data("tiny_quoted.csv"), o);
  for (double w : unit.g.weights())
    EXPECT_EQ(w, 1.0);
  o.weight_column = "label"; // a text column: the first row's 'x' is not a number
  expect_input_error([&] { (void)read_graph(test_data("tiny_quoted.csv"), o); }, "tiny_quoted.csv",
                     {"line 2", "'x'"});
}

TEST(ReadCsv, GzipAndPlainGiveIdenticalGraphs) {
  const auto plain = read_graph(test_data("tiny_crlf.csv"));
  const auto packed = read_graph(test_data("tiny_crlf.csv.gz"));
  const std::vector<edge> want = {{0, 2, 1}, {1, 0, 3}, {2, 1, 2}};
  EXPECT_EQ(edges_by_index(plain.g), want); // CRLF line ends are not part of the weights
  EXPECT_EQ(edges_by_index(packed.g), want);
  EXPECT_EQ(edges_by_label(plain), edges_by_label(packed));
  EXPECT_EQ(packed.labels.label(1), "beta");
}

TEST(ReadCsv, GzipDetectedByMagicWithoutTheSuffix) {
  scratch_dir dir;
  const auto p = dir / "renamed.csv";
  write_bytes(p, read_bytes(test_data("tiny_crlf.csv.gz")));
  EXPECT_EQ(read_graph(p).g.num_edges(), 3);
}

TEST(ReadGraph, FormatOptionOverridesTheSuffix) {
  scratch_dir dir;
  const auto p = dir / "graph.txt";
  write_bytes(p, "p sp 2 1\na 2 1 9\n");
  apsp::io::read_options o;
  o.fmt = format::dimacs;
  const auto f = read_graph(p, o);
  EXPECT_EQ(f.source_format, format::dimacs);
  EXPECT_EQ(edges_by_index(f.g), (std::vector<edge>{{1, 0, 9}}));
}

TEST(ReadDimacs, AcceptsCrlfBlankLinesAndNoFinalNewline) {
  scratch_dir dir;
  const auto p = dir / "crlf.gr";
  write_bytes(p, "c x\r\n\r\np sp 3 2\r\na 1 2 4\r\n\r\na 2 3 1e3");
  const auto f = read_graph(p);
  EXPECT_EQ(edges_by_index(f.g), (std::vector<edge>{{0, 1, 4}, {1, 2, 1000}}));
}

TEST(ReadDimacs, EmptyGraphIsAllowed) {
  scratch_dir dir;
  const auto p = dir / "empty.gr";
  write_bytes(p, "p sp 0 0\n");
  const auto f = read_graph(p);
  EXPECT_EQ(f.g.num_vertices(), 0);
  EXPECT_EQ(f.g.num_edges(), 0);
}

} // namespace
