// io::peek_vertex_count: the count a file declares up front, the reader's where both have one,
// nothing where the format declares none or the first 64 KiB do not say it plainly.

#include <gtest/gtest.h>

#include <string>

#include "io_test_util.hpp"

namespace {

using namespace apsp_io_test;
using apsp::io::peek_vertex_count;
using apsp::io::write_graph;

apsp::io::graph_file ring(std::int64_t n) {
  apsp::io::graph_file f{
      apsp::graph(n), apsp::io::vertex_labels::numeric(n, 0), format::course_binary, {}};
  for (std::int64_t i = 0; i < n; ++i)
    f.g.add_edge(i, (i + 1) % n, 1.0 + static_cast<double>(i % 5));
  return f;
}

// Every format with a header gives the reader's count; edge lists and CSV give none.
TEST(PeekVertexCount, AgreesWithTheReaderWhereTheFormatDeclaresIt) {
  const scratch_dir dir;
  const auto g = ring(37);
  const std::pair<const char*, bool> files[] = {{"g.gr", true},   {"g.mtx", true},
                                                {"g.bin", true},  {"g.npy", true},
                                                {"g.txt", false}, {"g.csv", false}};
  for (const auto& [name, declared] : files) {
    const auto p = dir / name;
    write_graph(p, g, *apsp::io::format_from_path(p));
    const auto n = peek_vertex_count(p);
    if (declared) {
      ASSERT_TRUE(n.has_value()) << name;
      EXPECT_EQ(*n, read_graph(p).g.num_vertices()) << name;
      EXPECT_EQ(*n, 37) << name;
    } else {
      EXPECT_FALSE(n.has_value()) << name;
    }
  }
}

TEST(PeekVertexCount, SkipsCommentsAndHonoursTheFormatOverride) {
  const scratch_dir dir;
  write_bytes(dir / "g.gr", "c a comment\n\nc another\np sp 5 1\na 1 2 3\n");
  EXPECT_EQ(peek_vertex_count(dir / "g.gr"), 5);
  write_bytes(dir / "g.mtx",
              "%%MatrixMarket matrix coordinate integer general\n% c\n4 4 1\n1 2 3\n");
  EXPECT_EQ(peek_vertex_count(dir / "g.mtx"), 4);
  // No suffix: only with the format named.
  write_bytes(dir / "graph", "p sp 9 0\n");
  EXPECT_FALSE(peek_vertex_count(dir / "graph").has_value());
  apsp::io::read_options o;
  o.fmt = format::dimacs;
  EXPECT_EQ(peek_vertex_count(dir / "graph", o), 9);
}

// Where the first bytes do not say it plainly, nothing: the reader will.
TEST(PeekVertexCount, GivesNothingWhenInDoubt) {
  const scratch_dir dir;
  EXPECT_FALSE(peek_vertex_count(dir / "missing.gr").has_value());
  write_bytes(dir / "arc_first.gr", "a 1 2 3\np sp 5 1\n");
  EXPECT_FALSE(peek_vertex_count(dir / "arc_first.gr").has_value());
  write_bytes(dir / "negative.gr", "p sp -5 1\n");
  EXPECT_FALSE(peek_vertex_count(dir / "negative.gr").has_value());
  write_bytes(dir / "not_square.mtx", "%%MatrixMarket matrix coordinate real general\n3 4 0\n");
  EXPECT_FALSE(peek_vertex_count(dir / "not_square.mtx").has_value());
  write_bytes(dir / "short.bin", std::string(3, '\0'));
  EXPECT_FALSE(peek_vertex_count(dir / "short.bin").has_value());
  // The p line beyond the first 64 KiB (only a cut-off part of it would be seen).
  std::string long_comments;
  while (long_comments.size() < (std::size_t{64} << 10) - 4)
    long_comments += "c padding padding padding padding\n";
  write_bytes(dir / "late.gr", long_comments + "p sp 123456 0\n");
  EXPECT_FALSE(peek_vertex_count(dir / "late.gr").has_value());
  EXPECT_EQ(read_graph(dir / "late.gr").g.num_vertices(), 123456);
  // gzip: the header is compressed.
  write_graph(dir / "g.gr.gz", ring(8), format::dimacs);
  EXPECT_FALSE(peek_vertex_count(dir / "g.gr.gz").has_value());
  EXPECT_EQ(read_graph(dir / "g.gr.gz").g.num_vertices(), 8);
}

} // namespace
