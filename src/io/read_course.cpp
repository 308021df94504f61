// The course binary graph: little-endian int32 n, m, then m triples (src, dst, w), 0-based.
// Big inputs (40 M edges, 480 MB) are one bulk read followed by a parallel conversion.

#include <bit>
#include <cmath>
#include <cstring>
#include <future>
#include <limits>
#include <string>
#include <vector>

#include "io/diagnostics.hpp"
#include "io/limits.hpp"
#include "io/readers.hpp"

namespace apsp::io::detail {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the course and .npy formats are little-endian; add byte swapping for this host");

std::int32_t load_i32(const char* at) noexcept {
  std::int32_t v;
  std::memcpy(&v, at, sizeof v);
  return v;
}

} // namespace

graph_file read_course_binary(const std::filesystem::path& p, std::string_view bytes,
                              std::int64_t limit) {
  if (bytes.empty())
    fail_byte(p, 0, "empty file (expected int32 n, int32 m, then m edges)");
  if (bytes.size() < 8) {
    fail_byte(p, static_cast<std::int64_t>(bytes.size()), "truncated header (needs 8 bytes)");
  }
  const std::int64_t n = load_i32(bytes.data());
  const std::int64_t m = load_i32(bytes.data() + 4);
  if (n < 0)
    fail_byte(p, 0, "vertex count " + std::to_string(n) + " is negative");
  if (n > limit) {
    fail_byte(p, 0,
              "vertex count " + std::to_string(n) + " is too large (at most " +
                  std::to_string(limit) + ")");
  }
  if (m < 0)
    fail_byte(p, 4, "edge count " + std::to_string(m) + " is negative");
  const std::size_t body = bytes.size() - 8;
  const auto need = static_cast<std::size_t>(m) * 12;
  if (body < need) {
    fail_byte(p, static_cast<std::int64_t>(bytes.size()),
              "truncated: the header declares " + std::to_string(m) + " edges (" +
                  std::to_string(need) + " bytes) but only " + std::to_string(body / 12) +
                  " complete edge(s) follow");
  }
  if (body > need) {
    fail_byte(p, static_cast<std::int64_t>(8 + need),
              std::to_string(body - need) + " unexpected bytes after the " + std::to_string(m) +
                  " declared edges");
  }

  // Zero-filling fresh vectors is page-fault bound; the three fill at once on their own threads.
  const auto edges = static_cast<std::size_t>(m);
  std::vector<std::int32_t> src, dst;
  std::vector<double> weight;
  if (edges >= (std::size_t{1} << 20)) {
    auto src_future =
        std::async(std::launch::async, [edges] { return std::vector<std::int32_t>(edges); });
    auto dst_future =
        std::async(std::launch::async, [edges] { return std::vector<std::int32_t>(edges); });
    weight.resize(edges);
    src = src_future.get();
    dst = dst_future.get();
  } else {
    src.resize(edges);
    dst.resize(edges);
    weight.resize(edges);
  }
  std::int64_t first_bad = m;
  const char* records = bytes.data() + 8;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (std::int64_t e = 0; e < m; ++e) {
    const char* r = records + 12 * e;
    const std::int32_t u = load_i32(r);
    const std::int32_t v = load_i32(r + 4);
    const auto k = static_cast<std::size_t>(e);
    src[k] = u;
    dst[k] = v;
    weight[k] = load_i32(r + 8);
    if (u < 0 || u >= n || v < 0 || v >= n)
      first_bad = e < first_bad ? e : first_bad;
  }
  if (first_bad < m) {
    const auto k = static_cast<std::size_t>(first_bad);
    const bool src_bad = src[k] < 0 || src[k] >= n;
    const std::int32_t id = src_bad ? src[k] : dst[k];
    fail_byte(p, 8 + 12 * first_bad + (src_bad ? 0 : 4),
              "edge " + std::to_string(first_bad) + ": vertex " + std::to_string(id) +
                  " is out of range 0.." + std::to_string(n - 1));
  }
  graph_file out{graph(n), vertex_labels::numeric(n, 0), format::course_binary, {}};
  out.g.assign(std::move(src), std::move(dst), std::move(weight));
  return out;
}

} // namespace apsp::io::detail
