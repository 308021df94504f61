// Distance and via matrices: .npy in every dtype, the course binary output (byte-exact), CSV.

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <cstring>
#include <limits>

#include "apsp/types.hpp"
#include "io_test_util.hpp"

namespace {

using namespace apsp_io_test;
using apsp::dense_matrix;
using apsp::io::read_matrix;
using apsp::io::write_matrix;

template <class T> dense_matrix<T> sample(std::int64_t n) {
  dense_matrix<T> d(n);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      d(i, j) = i == j ? T(0)
                       : ((i + 2 * j) % 5 == 0 ? apsp::weight_traits<T>::infinity
                                               : static_cast<T>(i * 10 + j - 7));
    }
  }
  return d;
}

template <class T> void expect_equal(const apsp::any_matrix& got, const dense_matrix<T>& want) {
  ASSERT_TRUE(std::holds_alternative<dense_matrix<T>>(got));
  const auto& d = std::get<dense_matrix<T>>(got);
  ASSERT_EQ(d.n(), want.n());
  EXPECT_EQ(std::memcmp(d.data(), want.data(), want.size() * sizeof(T)), 0);
}

// The course tools' output written independently: n*n little-endian int32, 2^30-1 = no path.
std::string course_bytes(const dense_matrix<std::int32_t>& d) {
  std::string out;
  for (std::int32_t v : d.values()) {
    const auto u = static_cast<std::uint32_t>(v);
    for (int b = 0; b < 4; ++b)
      out += static_cast<char>((u >> (8 * b)) & 0xff);
  }
  return out;
}

template <class T> class MatrixNpy : public ::testing::Test {};
using weight_types = ::testing::Types<std::int32_t, float, std::int64_t, double>;
TYPED_TEST_SUITE(MatrixNpy, weight_types);

TYPED_TEST(MatrixNpy, RoundTripKeepsTheDtype) {
  scratch_dir dir;
  for (std::int64_t n : {0, 1, 7, 33}) {
    const auto d = sample<TypeParam>(n);
    const auto p = dir / ("d" + std::to_string(n) + ".npy");
    write_matrix(p, apsp::any_matrix(sample<TypeParam>(n)), format::npy);
    const std::string bytes = read_bytes(p);
    ASSERT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    const std::size_t header =
        10 + static_cast<unsigned char>(bytes[8]) + 256 * static_cast<unsigned char>(bytes[9]);
    EXPECT_EQ(header % 64, 0u);
    EXPECT_EQ(bytes.size(), header + d.size() * sizeof(TypeParam));
    expect_equal(read_matrix(p), d);
  }
}

TEST(MatrixNpy, NumpyReadsWhatWeWrite) {
  if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "/usr/bin/python3 with numpy is not available";
  }
  scratch_dir dir;
  write_matrix(dir / "f.npy", apsp::any_matrix(sample<float>(5)), format::npy);
  write_matrix(dir / "i.npy", apsp::any_matrix(sample<std::int64_t>(5)), format::npy);
  write_bytes(
      dir / "check.py",
      "import numpy as np, sys\n"
      "for path, dt, inf in [(sys.argv[1], np.float32, np.inf),\n"
      "                      (sys.argv[2], np.int64, 2**62 - 1)]:\n"
      "    a = np.load(path)\n"
      "    assert a.dtype == dt and a.shape == (5, 5), (a.dtype, a.shape)\n"
      "    for i in range(5):\n"
      "        for j in range(5):\n"
      "            want = 0 if i == j else (inf if (i + 2 * j) % 5 == 0 else i * 10 + j - 7)\n"
      "            assert a[i, j] == want, (path, i, j, a[i, j], want)\n");
  const std::string cmd = "/usr/bin/python3 " + (dir / "check.py").string() + " " +
                          (dir / "f.npy").string() + " " + (dir / "i.npy").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST(MatrixNpy, ReadsNumpyFixtureAndViaMatrices) {
  const auto m = read_matrix(test_data("dist_i8.npy"));
  ASSERT_TRUE(std::holds_alternative<dense_matrix<std::int64_t>>(m));
  const auto& d = std::get<dense_matrix<std::int64_t>>(m);
  EXPECT_EQ(d(0, 1), 1);
  EXPECT_EQ(d(1, 0), apsp::weight_traits<std::int64_t>::infinity);

  // Fortran order on disk comes back row-major.
  const auto fortran = read_matrix(test_data("graph_i4_fortran.npy"));
  const auto& f = std::get<dense_matrix<std::int32_t>>(fortran);
  EXPECT_EQ(f(0, 1), 7);
  EXPECT_EQ(f(1, 2), 5);
  EXPECT_EQ(f(2, 0), 2);
  EXPECT_EQ(f(1, 0), 1073741823);

  apsp::via_matrix via(3);
  for (std::int32_t k = 0; k < 9; ++k)
    via.data()[k] = k % 4 == 0 ? apsp::no_via : k % 3;
  scratch_dir dir;
  apsp::io::write_via(dir / "via.npy", via);
  expect_equal(read_matrix(dir / "via.npy"), via);
  EXPECT_NE(read_bytes(dir / "via.npy").find("'descr': '<i4'"), std::string::npos);
}

TEST(MatrixCourse, Int32IsByteIdenticalToTheCourseTools) {
  scratch_dir dir;
  const auto d = sample<std::int32_t>(13);
  write_matrix(dir / "d.bin", apsp::any_matrix(sample<std::int32_t>(13)), format::course_binary);
  EXPECT_EQ(read_bytes(dir / "d.bin"), course_bytes(d));
  expect_equal(read_matrix(dir / "d.bin"), d);
  EXPECT_EQ(dir.entries().size(), 1u);
}

template <class T> class MatrixCourseConverted : public ::testing::Test {};
using other_types = ::testing::Types<float, std::int64_t, double>;
TYPED_TEST_SUITE(MatrixCourseConverted, other_types);

TYPED_TEST(MatrixCourseConverted, IntegralValuesGiveTheSameBytesAsInt32) {
  scratch_dir dir;
  // Large enough for several conversion blocks.
  for (std::int64_t n : {0, 5, 2100}) {
    const auto p = dir / ("d" + std::to_string(n) + ".course");
    write_matrix(p, apsp::any_matrix(sample<TypeParam>(n)), format::course_binary);
    EXPECT_EQ(read_bytes(p), course_bytes(sample<std::int32_t>(n))) << "n = " << n;
  }
}

TYPED_TEST(MatrixCourseConverted, UnrepresentableValueAbortsWithoutLeavingFiles) {
  scratch_dir dir;
  const std::int64_t n = 2100;
  auto d = sample<TypeParam>(n);
  // The bad value sits in the last row, after earlier blocks went to the temporary file.
  if constexpr (std::is_integral_v<TypeParam>) {
    d(n - 1, 3) = TypeParam{1} << 30;
  } else {
    d(n - 1, 3) = TypeParam(0.5);
  }
  try {
    write_matrix(dir / "d.bin", apsp::any_matrix(std::move(d)), format::course_binary);
    ADD_FAILURE() << "expected invalid_argument_error";
  } catch (const apsp::invalid_argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("d[2099][3]"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(dir.entries().empty());
}

TEST(MatrixCourse, FiniteValueAtTheSentinelIsRejected) {
  dense_matrix<double> d(2);
  d(0, 0) = 0;
  d(0, 1) = 1073741823.0; // finite, but the course format would read it as "no path"
  d(1, 0) = 1;
  d(1, 1) = 0;
  scratch_dir dir;
  EXPECT_THROW(write_matrix(dir / "d.bin", apsp::any_matrix(std::move(d)), format::course_binary),
               apsp::invalid_argument_error);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(MatrixCourse, ReadRejectsSizesThatAreNotSquares) {
  scratch_dir dir;
  write_bytes(dir / "odd.bin", std::string(12, '\0'));
  expect_input_error([&] { (void)read_matrix(dir / "odd.bin"); }, "odd.bin", {"byte", "n*n"});
  write_bytes(dir / "ragged.bin", std::string(10, '\0'));
  expect_input_error([&] { (void)read_matrix(dir / "ragged.bin"); }, "ragged.bin",
                     {"byte 8", "multiple of 4"});
  write_bytes(dir / "empty.bin", "");
  EXPECT_EQ(std::get<dense_matrix<std::int32_t>>(read_matrix(dir / "empty.bin")).n(), 0);
}

TEST(MatrixCsv, ExactTextWithInfForUnreachable) {
  dense_matrix<std::int32_t> d(2);
  d(0, 0) = 0;
  d(0, 1) = -4;
  d(1, 0) = apsp::weight_traits<std::int32_t>::infinity;
  d(1, 1) = 0;
  scratch_dir dir;
  write_matrix(dir / "d.csv", apsp::any_matrix(std::move(d)), format::csv);
  EXPECT_EQ(read_bytes(dir / "d.csv"), "0,-4\ninf,0\n");

  dense_matrix<double> f(2);
  f(0, 0) = 0;
  f(0, 1) = 0.1;
  f(1, 0) = std::numeric_limits<double>::infinity();
  f(1, 1) = 1e-300;
  write_matrix(dir / "f.csv", apsp::any_matrix(std::move(f)), format::csv);
  EXPECT_EQ(read_bytes(dir / "f.csv"), "0,0.1\ninf,1e-300\n");
}

TEST(MatrixCsv, GzSuffixCompresses) {
  scratch_dir dir;
  write_matrix(dir / "d.csv", apsp::any_matrix(sample<double>(40)), format::csv);
  write_matrix(dir / "d.csv.gz", apsp::any_matrix(sample<double>(40)), format::csv);
  const std::string packed = read_bytes(dir / "d.csv.gz");
  ASSERT_EQ(packed.substr(0, 2), "\x1f\x8b");
  gzFile f = gzopen((dir / "d.csv.gz").c_str(), "rb");
  ASSERT_NE(f, nullptr);
  std::string text(1 << 20, '\0');
  const int got = gzread(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  ASSERT_GT(got, 0);
  text.resize(static_cast<std::size_t>(got));
  EXPECT_EQ(text, read_bytes(dir / "d.csv"));
}

TEST(MatrixCsv, ManyRowsComeOutInOrder) {
  const std::int64_t n = 300;
  dense_matrix<std::int64_t> d(n);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j)
      d(i, j) = i * 1000 + j;
  }
  scratch_dir dir;
  write_matrix(dir / "d.csv", apsp::any_matrix(std::move(d)), format::csv);
  const std::string text = read_bytes(dir / "d.csv");
  std::size_t line_start = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::string expected_start =
        std::to_string(i * 1000) + "," + std::to_string(i * 1000 + 1);
    ASSERT_EQ(text.compare(line_start, expected_start.size(), expected_start), 0) << "row " << i;
    line_start = text.find('\n', line_start) + 1;
  }
  EXPECT_EQ(line_start, text.size());
}

TEST(MatrixCsv, RefusesMoreThanTenThousandVertices) {
  // Never touched: the size check comes before any element is read.
  dense_matrix<std::int32_t> d(10001);
  scratch_dir dir;
  try {
    write_matrix(dir / "d.csv", apsp::any_matrix(std::move(d)), format::csv);
    ADD_FAILURE() << "expected invalid_argument_error";
  } catch (const apsp::invalid_argument_error& e) {
    EXPECT_NE(std::string(e.what()).find("10000"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(dir.entries().empty());
}

TEST(MatrixFormats, GraphOnlyFormatsAreRejected) {
  scratch_dir dir;
  EXPECT_THROW(write_matrix(dir / "d.gr", apsp::any_matrix(sample<double>(2)), format::dimacs),
               apsp::invalid_argument_error);
  write_bytes(dir / "d.gr", "p sp 1 0\n");
  expect_input_error([&] { (void)read_matrix(dir / "d.gr"); }, "d.gr", {"npy and course-binary"});
}

} // namespace
