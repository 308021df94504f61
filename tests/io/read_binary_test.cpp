// Binary readers: the course graph format (bytes built here) and .npy graphs written by NumPy
// (fixtures in tests/data, made with numpy.save).

#include <gtest/gtest.h>

#include <cstring>

#include "io_test_util.hpp"

namespace {

using namespace apsp_io_test;

TEST(ReadCourseBinary, ZeroBasedTriples) {
  scratch_dir dir;
  const auto p = dir / "g.bin";
  write_bytes(p, int32_bytes({3, 4, 0, 1, 7, 1, 2, -3, 2, 0, 0, 2, 0, 1}));
  const auto f = read_graph(p);
  EXPECT_EQ(f.source_format, format::course_binary);
  EXPECT_EQ(f.g.num_vertices(), 3);
  EXPECT_TRUE(f.labels.is_numeric());
  EXPECT_EQ(f.labels.base(), 0);
  const std::vector<edge> want = {{0, 1, 7}, {1, 2, -3}, {2, 0, 0}, {2, 0, 1}};
  EXPECT_EQ(edges_by_index(f.g), want);
}

TEST(ReadCourseBinary, ManyEdgesConvertInParallel) {
  // Large enough to be split across threads; every edge is checked.
  const std::int32_t n = 1000;
  const std::int32_t m = 300000;
  std::vector<std::int32_t> words = {n, m};
  for (std::int32_t e = 0; e < m; ++e) {
    words.insert(words.end(), {e % n, (e * 7 + 3) % n, e % 1000 - 500});
  }
  scratch_dir dir;
  const auto p = dir / "big.course";
  write_bytes(p, int32_bytes(words));
  const auto f = read_graph(p);
  ASSERT_EQ(f.g.num_edges(), m);
  for (std::int32_t e = 0; e < m; ++e) {
    const auto k = static_cast<std::size_t>(e);
    ASSERT_EQ(f.g.sources()[k], e % n);
    ASSERT_EQ(f.g.targets()[k], (e * 7 + 3) % n);
    ASSERT_EQ(f.g.weights()[k], e % 1000 - 500);
  }
}

TEST(ReadCourseBinary, FilesOf64MiBAndMoreAreMappedWithTheSameResultAndErrors) {
  // 5.7 M edges = 68 MB: read_file maps it instead of copying (file_bytes.cpp).
  const std::int32_t n = 5000;
  const std::int32_t m = 5700000;
  std::vector<std::int32_t> words = {n, m};
  words.reserve(2 + 3 * static_cast<std::size_t>(m));
  for (std::int32_t e = 0; e < m; ++e)
    words.insert(words.end(), {e % n, (e / n) % n, e % 997 - 400});
  scratch_dir dir;
  const auto p = dir / "mapped.bin";
  std::string bytes = int32_bytes(words);
  ASSERT_GE(bytes.size(), std::size_t{64} << 20);
  write_bytes(p, bytes);
  {
    const auto f = read_graph(p);
    ASSERT_EQ(f.g.num_edges(), m);
    for (std::int32_t e = 0; e < m; e += 997) {
      const auto k = static_cast<std::size_t>(e);
      ASSERT_EQ(f.g.sources()[k], e % n);
      ASSERT_EQ(f.g.targets()[k], (e / n) % n);
      ASSERT_EQ(f.g.weights()[k], e % 997 - 400);
    }
    const auto last = static_cast<std::size_t>(m - 1);
    EXPECT_EQ(f.g.sources()[last], (m - 1) % n);
    EXPECT_EQ(f.g.weights()[last], (m - 1) % 997 - 400);
  }
  // A bad vertex in the last edge and a truncated body are reported as for small files.
  const std::size_t last_dst = bytes.size() - 8;
  std::memcpy(bytes.data() + last_dst, int32_bytes({n}).data(), 4);
  write_bytes(p, bytes);
  expect_input_error([&] { (void)read_graph(p); }, p,
                     {"edge " + std::to_string(m - 1), "out of range"});
  bytes.resize(bytes.size() - 6);
  write_bytes(p, bytes);
  expect_input_error([&] { (void)read_graph(p); }, p, {"truncated"});
}

TEST(ReadNpyGraph, Float64InfAndNanMeanNoEdgeZeroDiagonalDropped) {
  const auto f = read_graph(test_data("graph_f8.npy"));
  EXPECT_EQ(f.source_format, format::npy);
  EXPECT_EQ(f.g.num_vertices(), 3);
  const std::vector<edge> want = {{0, 1, 2}, {1, 2, -1.5}, {2, 0, 4}, {2, 2, 3}};
  EXPECT_EQ(edges_by_index(f.g), want);
}

TEST(ReadNpyGraph, FortranOrderInt32WithCourseInfinity) {
  const auto f = read_graph(test_data("graph_i4_fortran.npy"));
  const std::vector<edge> want = {{0, 1, 7}, {1, 2, 5}, {2, 0, 2}};
  EXPECT_EQ(edges_by_index(f.g), want);
}

TEST(ReadNpyGraph, Float32AndInt64) {
  EXPECT_EQ(edges_by_index(read_graph(test_data("graph_f4.npy")).g),
            (std::vector<edge>{{0, 1, 0.5}}));
  // int64: values >= 2^30-1 are "no edge" (2^40 included); a negative diagonal is a self-loop.
  EXPECT_EQ(edges_by_index(read_graph(test_data("graph_i8.npy")).g),
            (std::vector<edge>{{0, 0, -3}}));
}

TEST(ReadNpyGraph, SniffedByMagicWhenTheSuffixIsUnknown) {
  scratch_dir dir;
  const auto p = dir / "matrix.dat";
  write_bytes(p, read_bytes(test_data("graph_f4.npy")));
  EXPECT_EQ(read_graph(p).source_format, format::npy);
}

} // namespace
