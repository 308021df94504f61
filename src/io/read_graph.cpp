// read_graph: choose the format (option, suffix, or an unambiguous magic), load
// the bytes, hand them to that format's reader.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "io/diagnostics.hpp"
#include "io/file_bytes.hpp"
#include "io/limits.hpp"
#include "io/npy_header.hpp"
#include "io/readers.hpp"

namespace apsp::io {

// Only signatures that cannot be mistaken: a text file could start with anything else.
std::optional<format> format_from_signature(std::string_view bytes) {
  if (detail::is_npy(bytes))
    return format::npy;
  if (bytes.substr(0, 14) == "%%MatrixMarket")
    return format::mtx;
  return std::nullopt;
}

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  namespace fs = std::filesystem;
  std::error_code ec_a;
  std::error_code ec_b;
  std::error_code ec;
  // Absolute first: a relative path with no existing part comes back as it was spelled.
  const fs::path ca = fs::weakly_canonical(fs::absolute(a), ec_a);
  const fs::path cb = fs::weakly_canonical(fs::absolute(b), ec_b);
  return (!ec_a && !ec_b && ca == cb) || fs::equivalent(a, b, ec);
}

namespace {

/// read_options::undirected: v -> u beside every u -> v (a self-loop stays one edge).
void add_reverse_edges(graph& g, std::vector<double>& second) {
  std::vector<std::int32_t> src = g.sources();
  std::vector<std::int32_t> dst = g.targets();
  std::vector<double> weight = g.weights();
  const std::size_t m = src.size();
  src.reserve(2 * m);
  dst.reserve(2 * m);
  weight.reserve(2 * m);
  for (std::size_t e = 0; e < m; ++e) {
    if (src[e] != dst[e]) {
      src.push_back(dst[e]);
      dst.push_back(src[e]);
      weight.push_back(weight[e]);
      if (!second.empty())
        second.push_back(second[e]);
    }
  }
  g.assign(std::move(src), std::move(dst), std::move(weight));
}

} // namespace

namespace detail {

void fail_unknown_format(const std::filesystem::path& p) {
  fail_file(p, "unknown format: the suffix is not one of .gr .mtx .txt .el .wel .edges .csv "
               ".csv.gz .bin .course .npy .tntp (name the format explicitly)");
}

graph_file read_graph_bytes(const std::filesystem::path& p, std::string_view bytes, format f,
                            const read_options& o) {
  const bool text = f != format::course_binary && f != format::npy;
  byte_buffer text_bytes;
  if (text && is_gzip(bytes)) {
    text_bytes = gunzip(bytes, p);
    bytes = text_bytes.view();
  }
  APSP_EXPECTS(
      o.max_vertices >= 0 && o.max_vertices <= max_edge_format_vertices, invalid_argument_error,
      "read_options::max_vertices must be 0 (the default) or at most " +
          std::to_string(max_edge_format_vertices) + ", got " + std::to_string(o.max_vertices));
  const std::int64_t limit = o.max_vertices > 0 ? o.max_vertices : max_vertices;
  if (!o.second_column.empty() && f != format::csv && f != format::tntp) {
    fail_file(p, "a second weight column (" + o.second_column + ") needs a CSV input: " +
                     std::string(to_string(f)) + " files carry one weight per edge");
  }
  switch (f) {
  case format::dimacs:
    return read_dimacs(p, bytes, limit);
  case format::mtx:
    return read_mtx(p, bytes, limit);
  case format::edgelist:
    return read_edgelist(p, bytes, limit);
  case format::csv:
    return read_csv(p, bytes, o, limit);
  case format::course_binary:
    return read_course_binary(p, bytes, limit);
  case format::npy:
    return read_npy_graph(p, bytes);
  case format::tntp:
    return read_tntp(p, bytes, o.weight_column, o.second_column, limit);
  }
  fail_unknown_format(p);
}

} // namespace detail

graph_file read_graph(const std::filesystem::path& p, const read_options& o) {
  std::optional<format> f = o.fmt ? o.fmt : format_from_path(p);
  const detail::byte_buffer bytes = detail::read_file(p);
  if (!f)
    f = format_from_signature(bytes.view());
  if (!f)
    detail::fail_unknown_format(p);
  graph_file gf = detail::read_graph_bytes(p, bytes.view(), *f, o);
  if (o.undirected)
    add_reverse_edges(gf.g, gf.second);
  return gf;
}

} // namespace apsp::io
