// Every class of malformed input gives invalid_input_error with one line naming the file and
// the line (text) or byte offset (binary), and never a crash, a hang or a huge allocation.

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "io/npy_header.hpp"
#include "io_test_util.hpp"

namespace {

using namespace apsp_io_test;

class Malformed : public ::testing::Test {
protected:
  // Writes `content` to `name` and expects read_graph to fail with all of `parts`.
  std::string expect(const std::string& name, const std::string& content,
                     std::vector<std::string> parts) {
    const auto p = dir_ / name;
    write_bytes(p, content);
    return expect_input_error([&] { (void)read_graph(p); }, p, std::move(parts));
  }
  scratch_dir dir_;
};

TEST_F(Malformed, EmptyFileInEveryFormat) {
  for (const char* name : {"e.gr", "e.mtx", "e.txt", "e.csv"})
    expect(name, "", {"line 1", "empty"});
  for (const char* name : {"e.bin", "e.npy"})
    expect(name, "", {"byte 0", "empty"});
}

TEST_F(Malformed, MissingFileAndDirectory) {
  expect_input_error([&] { (void)read_graph(dir_ / "absent.gr"); }, "absent.gr", {"cannot open"});
  std::filesystem::create_directory(dir_ / "sub.gr");
  expect_input_error([&] { (void)read_graph(dir_ / "sub.gr"); }, "sub.gr", {"directory"});
}

TEST_F(Malformed, UnknownFormat) {
  expect("graph.xyz", "1 2 3\n", {"unknown format"});
}

TEST_F(Malformed, MissingOrBadHeader) {
  expect("h1.gr", "c only\na 1 2 3\n", {"line 2", "before the 'p sp n m' line"});
  expect("h2.gr", "c only a comment\n", {"line 1", "'p sp n m'"});
  expect("h3.gr", "p max 3 3\n", {"line 1", "'max'"});
  expect("h4.gr", "p sp 3\n", {"line 1", "bad problem line"});
  expect("h5.gr", "p sp 2 1\np sp 2 1\n", {"line 2", "second 'p' line"});
  expect("h6.gr", "p sp 2 1\nx 1 2 3\n", {"line 2", "unexpected line"});
  expect("h1.mtx", "1 1 1\n", {"line 1", "banner"});
  expect("h2.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
         {"line 1", "'array'"});
  expect("h3.mtx", "%%MatrixMarket matrix coordinate complex general\n", {"line 1", "'complex'"});
  expect("h4.mtx", "%%MatrixMarket matrix coordinate real hermitian\n", {"line 1", "'hermitian'"});
  expect("h5.mtx", "%%MatrixMarket matrix coordinate real general\n% c\n2 3 0\n",
         {"line 3", "square"});
  expect("h6.mtx", "%%MatrixMarket matrix coordinate real general\n% no size line\n",
         {"line 2", "size line"});
  expect("h1.csv", "onlyonecolumn\nx\n", {"line 1", "header"});
  expect("h2.csv", "source,target,weight\n", {"line 1", "no edges"});
  expect("h3.csv", "source,target,weight\na,b\n", {"line 2", "2 field(s)"});
  expect("h4.csv", "source,target,weight\n\"a,b,1\n", {"line 2", "never closed"});
  expect("h5.csv", "source,target\n\"a\"x,b\n", {"line 2", "closing quote"});
  expect("h6.csv", "source,target\n,b\n", {"line 2", "empty vertex id"});
  expect("h1.txt", "# comments only\n", {"line 1", "no edges"});
  expect("h2.txt", "1\n", {"line 1", "bad edge line"});
  expect("h3.txt", "1 2 3 4\n", {"line 1", "bad edge line"});
  expect("h1.npy", "not numpy at all", {"byte 0", "magic"});
}

TEST_F(Malformed, TruncatedData) {
  expect("t.gr", "p sp 3 2\na 1 2 1\nc pad pad pad\n", {"line 3", "1 of the 2 arcs"});
  expect("t.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 1\n% pad pad\n",
         {"line 4", "1 of the 2 entries"});
  expect("t1.bin", int32_bytes({3}), {"byte 4", "truncated header"});
  std::string bin = int32_bytes({3, 2, 0, 1, 5, 1, 2});
  expect("t2.bin", bin, {"byte 28", "truncated", "1 complete edge"});
  // The numpy fixture minus its last byte.
  std::string npy = read_bytes(test_data("graph_f8.npy"));
  expect("t.npy", npy.substr(0, npy.size() - 1), {"byte", "truncated array data"});
  expect("t2.npy", npy.substr(0, 20), {"byte", "truncated .npy header"});
  std::string gz = read_bytes(test_data("tiny_crlf.csv.gz"));
  expect("t.csv.gz", gz.substr(0, gz.size() / 2), {"byte", "truncated gzip"});
  std::string corrupt = gz;
  corrupt[12] = static_cast<char>(corrupt[12] ^ 0x5a);
  corrupt[13] = static_cast<char>(corrupt[13] ^ 0x5a);
  expect("c.csv.gz", corrupt, {"byte", "gzip"});
}

TEST_F(Malformed, TrailingBytesAndExtraRecords) {
  expect("x.bin", int32_bytes({2, 1, 0, 1, 5, 9}), {"byte 20", "unexpected bytes"});
  expect("x.gr", "p sp 2 1\na 1 2 1\na 2 1 1\n", {"line 3", "more arcs than the 1"});
  expect("x.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n2 1\n",
         {"line 4", "more entries"});
  std::string npy = read_bytes(test_data("graph_f8.npy"));
  expect("x.npy", npy + "junk", {"byte", "unexpected bytes"});
}

TEST_F(Malformed, VertexIdOutOfRange) {
  expect("v1.gr", "p sp 3 1\na 1 4 1\n", {"line 2", "vertex id 4", "1..3"});
  expect("v2.gr", "p sp 3 1\na 0 1 1\n", {"line 2", "vertex id 0"});
  expect("v3.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n",
         {"line 3", "vertex id 3"});
  // Edge 1's destination (byte 8 + 12 + 4) is 3 in a 3-vertex graph.
  expect("v4.bin", int32_bytes({3, 2, 0, 1, 5, 1, 3, 5}), {"byte 24", "vertex 3", "0..2"});
  expect("v5.bin", int32_bytes({3, 1, -1, 1, 5}), {"byte 8", "vertex -1"});
}

TEST_F(Malformed, NegativeCounts) {
  expect("n1.gr", "p sp -3 1\n", {"line 1", "negative"});
  expect("n2.gr", "p sp 3 -1\n", {"line 1", "negative"});
  expect("n1.mtx", "%%MatrixMarket matrix coordinate real general\n-2 -2 1\n",
         {"line 2", "negative"});
  expect("n1.bin", int32_bytes({-1, 0}), {"byte 0", "negative"});
  expect("n2.bin", int32_bytes({2, -5}), {"byte 4", "negative"});
}

TEST_F(Malformed, AbsurdCountsAreRefusedBeforeAllocating) {
  expect("a1.gr", "p sp 3 1000000000000\na 1 2 3\n", {"line 1", "can hold at most"});
  expect("a2.gr", "p sp 524289 0\n", {"line 1", "too large"});
  expect("a3.gr", "p sp 3000000000 1\n", {"line 1", "too large"});
  expect("a4.gr", "p sp 99999999999999999999999 1\n", {"line 1", "not an integer"});
  expect("a1.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2000000000\n1 1 1\n",
         {"line 2", "can hold at most"});
  expect("a1.bin", int32_bytes({2147483647, 0}), {"byte 0", "too large"});
  expect("a2.bin", int32_bytes({3, 2147483647, 0, 1, 1}), {"byte 20", "truncated"});
  std::string npy = read_bytes(test_data("graph_f8.npy"));
  const auto at = npy.find("(3, 3)");
  ASSERT_NE(at, std::string::npos);
  std::string huge = npy;
  huge.replace(at, 6, "(9999999, 9999999)");
  // Keep the header length field consistent with the longer dict.
  huge[8] = static_cast<char>(static_cast<unsigned char>(huge[8]) + 12);
  expect("a.npy", huge, {"byte", "too large"});
}

TEST_F(Malformed, NonNumericTokens) {
  expect("w1.gr", "p sp 2 1\na 1 2 abc\n", {"line 2", "'abc'", "not a number"});
  expect("w2.gr", "p sp 2 1\na x 2 1\n", {"line 2", "'x'", "not an integer"});
  expect("w3.gr", "p sp 2 1\na 1 2 3.5.1\n", {"line 2", "not a number"});
  expect("w4.gr", "p sp two 1\n", {"line 1", "'two'"});
  expect("w1.txt", "1 2\n1 two\n", {"line 2", "'two'"});
  expect("w2.txt", "1 2 x\n", {"line 1", "'x'"});
  expect("w1.csv", "a,b,weight\nx,y,\n", {"line 2", "empty 'weight' cell"});
  expect("w2.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n",
         {"line 3", "not an integer"});
}

TEST_F(Malformed, NonFiniteOrAbsurdWeights) {
  expect("f1.gr", "p sp 2 1\na 1 2 nan\n", {"line 2", "NaN"});
  expect("f2.gr", "p sp 2 1\na 1 2 inf\n", {"line 2", "infinite"});
  expect("f3.gr", "p sp 2 1\na 1 2 -Infinity\n", {"line 2", "infinite"});
  expect("f4.gr", "p sp 2 1\na 1 2 1e300\n", {"line 2", "out of range"});
  expect("f5.gr", "p sp 2 1\na 1 2 1e999\n", {"line 2", "out of range"});
  expect("f6.gr", "p sp 2 1\na 1 2 -1e16\n", {"line 2", "out of range"});
  expect("f1.csv", "s,t,weight\na,b,inf\n", {"line 2", "infinite"});
  expect("f1.txt", "1 2 NaN\n", {"line 1", "NaN"});
  expect("f1.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 nan\n",
         {"line 3", "NaN"});
}

// Just beyond 2^53 a value rounds to 2^53 as a double: it is refused, not silently changed;
// 2^53 itself is still a weight.
TEST_F(Malformed, WeightsJustBeyondTwoToThe53) {
  expect("g1.gr", "p sp 2 1\na 1 2 9007199254740993\n", {"line 2", "out of range"});
  expect("g2.gr", "p sp 2 1\na 1 2 -9007199254740993\n", {"line 2", "out of range"});
  expect("g3.gr", "p sp 2 1\na 1 2 9007199254740992.5\n", {"line 2", "out of range"});
  expect("g1.txt", "1 2 +9007199254740993\n", {"line 1", "out of range"});
  const auto ok = dir_ / "ok.gr";
  write_bytes(ok, "p sp 2 2\na 1 2 9007199254740992\na 2 1 -9.007199254740992e15\n");
  const auto g = read_graph(ok).g;
  EXPECT_EQ(g.weights()[0], 9007199254740992.0);
  EXPECT_EQ(g.weights()[1], -9007199254740992.0);
  // An int64 .npy entry below -2^53 (found by fuzz_npy: it became -2^53).
  std::string npy = apsp::io::detail::make_npy_header(apsp::dtype::int64, 1, 1);
  const std::int64_t v = -(std::int64_t{1} << 53) - 1;
  npy.append(reinterpret_cast<const char*>(&v), sizeof v);
  expect("g.npy", npy, {"byte", "not a usable weight"});
}

TEST_F(Malformed, NpyHeaderProblems) {
  const std::string npy = read_bytes(test_data("graph_f8.npy"));
  std::string c16 = npy;
  c16.replace(c16.find("<f8"), 3, "<c8");
  expect("d1.npy", c16, {"byte", "'<c8'", "not supported"});
  std::string big_endian = npy;
  big_endian.replace(big_endian.find("<f8"), 3, ">f8");
  expect("d2.npy", big_endian, {"byte", "'>f8'"});
  std::string three_d = npy;
  three_d.replace(three_d.find("(3, 3)"), 6, "(9,)  ");
  expect("d3.npy", three_d, {"byte", "1 dimension(s)"});
  std::string not_square = npy;
  not_square.replace(not_square.find("(3, 3)"), 6, "(1, 9)");
  expect("d4.npy", not_square, {"byte", "square"});
  // -inf cannot be a weight: entry (1, 2) of the 3 x 3 float64 matrix (element 5).
  std::string neg_inf = read_bytes(test_data("graph_f8.npy"));
  const std::size_t data = neg_inf.size() - 9 * 8;
  const double minus_inf = -std::numeric_limits<double>::infinity();
  std::memcpy(neg_inf.data() + data + 5 * 8, &minus_inf, 8);
  expect("d5.npy", neg_inf, {"byte " + std::to_string(data + 40), "entry (1, 2)"});
}

TEST_F(Malformed, MessagesStayOnOneLineWhateverTheBytes) {
  const std::string msg = expect("ctl.gr", "p sp 2 1\na 1 2 \x01\x1b[31mred\n", {"line 2"});
  EXPECT_EQ(msg.find('\x1b'), std::string::npos) << msg;
}

} // namespace
