#pragma once
// Shared helpers for the io tests: a scratch directory per test, file writing, edge sets keyed
// by file ids (so graphs whose internal numbering differs still compare), and error checks.

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/io.hpp"

namespace apsp_io_test {

namespace fs = std::filesystem;
// What every reader test names.
using apsp::io::format;
using apsp::io::read_graph;

inline fs::path test_data(const std::string& name) {
  return fs::path(APSP_TEST_DATA) / name;
}
inline fs::path repo_data(const std::string& name) {
  return fs::path(APSP_REPO_DATA) / name;
}
inline fs::path shared_data(const std::string& name) {
  return fs::path(APSP_SHARED_DATA) / name;
}

/// A fresh empty directory, removed with its contents at the end of the test.
class scratch_dir {
public:
  scratch_dir() {
    static std::atomic<int> counter{0};
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ =
        fs::temp_directory_path() / ("apsp_io_" + std::string(info ? info->name() : "x") + "_" +
                                     std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~scratch_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  [[nodiscard]] const fs::path& path() const { return path_; }
  [[nodiscard]] fs::path operator/(const std::string& name) const { return path_ / name; }
  /// Names of the entries in the directory (to spot leftover temporaries).
  [[nodiscard]] std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path_))
      out.push_back(e.path().filename().string());
    return out;
  }

private:
  fs::path path_;
};

/// Little-endian int32 words as bytes (the course binary format).
inline std::string int32_bytes(const std::vector<std::int32_t>& values) {
  std::string out(values.size() * 4, '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto u = static_cast<std::uint32_t>(values[i]);
    for (int b = 0; b < 4; ++b)
      out[4 * i + b] = static_cast<char>((u >> (8 * b)) & 0xff);
  }
  return out;
}

inline void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(f.good()) << p;
}

inline std::string read_bytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// (source id, target id) -> sorted weights, with ids as the file wrote them.
using labelled_edges = std::map<std::pair<std::string, std::string>, std::vector<double>>;

inline labelled_edges edges_by_label(const apsp::io::graph_file& f) {
  labelled_edges out;
  const auto& g = f.g;
  for (std::size_t e = 0; e < g.sources().size(); ++e) {
    out[{f.labels.label(g.sources()[e]), f.labels.label(g.targets()[e])}].push_back(g.weights()[e]);
  }
  for (auto& [key, ws] : out)
    std::sort(ws.begin(), ws.end());
  return out;
}

/// An edge (u, v, w) by internal index.
using edge = std::tuple<int, int, double>;

/// (u, v, w) triples by internal index, sorted.
inline std::vector<edge> edges_by_index(const apsp::graph& g) {
  std::vector<edge> out;
  for (std::size_t e = 0; e < g.sources().size(); ++e) {
    out.emplace_back(g.sources()[e], g.targets()[e], g.weights()[e]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// Runs `f`, expects invalid_input_error whose one-line message contains the file name and
/// every string in `parts` (e.g. "line 3"); returns the message.
template <class F>
std::string expect_input_error(F&& f, const fs::path& p, std::vector<std::string> parts) {
  try {
    f();
  } catch (const apsp::invalid_input_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(p.filename().string()), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "message is not one line: " << msg;
    for (const auto& part : parts)
      EXPECT_NE(msg.find(part), std::string::npos) << msg;
    return msg;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected invalid_input_error, got: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected invalid_input_error for " << p << ", nothing thrown";
  return {};
}

} // namespace apsp_io_test
