#include "contract.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "io/diagnostics.hpp"
#include "io/file_bytes.hpp"
#include "io/limits.hpp"

namespace apsp::fuzz {
namespace {

bool parse_decimal(std::string_view s, std::int64_t& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc{} && end == s.data() + s.size() && !s.empty();
}

void check_labels(const io::vertex_labels& labels, std::int64_t n) {
  expect(labels.size() == n, "labels.size() != n");
  // Every label finds its own index (the first and last few, so large graphs stay fast).
  for (std::int64_t i = 0; i < n; i = (i == 16 && n > 48) ? n - 16 : i + 1) {
    const std::string id = labels.label(i);
    const auto back = labels.find(id);
    expect(back && *back == i, "labels.find(labels.label(i)) != i");
  }
}

void check_format_specifics(const io::graph_file& f, io::format expected) {
  const auto& l = f.labels;
  const auto& w = f.g.weights();
  const bool integral = std::all_of(w.begin(), w.end(), [](double x) { return x == std::trunc(x); });
  switch (expected) {
  case io::format::dimacs:
  case io::format::mtx:
    expect(l.is_numeric() && l.base() == 1, "dimacs/mtx ids are not numeric from 1");
    break;
  case io::format::course_binary:
    expect(l.is_numeric() && l.base() == 0, "course ids are not numeric from 0");
    expect(integral, "a course-binary weight is not an integer");
    expect(std::all_of(w.begin(), w.end(), [](double x) { return std::fabs(x) <= 2147483648.0; }),
           "a course-binary weight is outside int32");
    break;
  case io::format::npy:
    expect(l.is_numeric() && l.base() == 0, "npy ids are not numeric from 0");
    break;
  case io::format::edgelist:
    // Integer ids, canonical, in increasing numeric order.
    for (std::int64_t i = 0; i < l.size(); ++i) {
      std::int64_t v = 0;
      const std::string id = l.label(i);
      expect(parse_decimal(id, v) && std::to_string(v) == id, "edge-list id is not canonical");
      if (i > 0) {
        std::int64_t prev = 0;
        (void)parse_decimal(l.label(i - 1), prev);
        expect(prev < v, "edge-list ids are not in increasing numeric order");
      }
    }
    break;
  case io::format::csv:
    for (std::int64_t i = 0; i < l.size(); ++i) {
      expect(!l.label(i).empty(), "empty csv id");
      expect(i == 0 || l.label(i - 1) < l.label(i), "csv ids are not in byte order");
    }
    break;
  }
}

} // namespace

void expect(bool ok, std::string_view what) {
  if (ok)
    return;
  std::fprintf(stderr, "contract broken: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

void check_graph_file(const io::graph_file& f, io::format expected, std::string_view input) {
  const graph& g = f.g;
  const std::int64_t n = g.num_vertices();
  expect(n >= 0 && n <= io::detail::max_vertices, "n out of range");
  expect(f.source_format == expected, "source_format is not the format read");
  const auto m = static_cast<std::size_t>(g.num_edges());
  expect(g.sources().size() == m && g.targets().size() == m && g.weights().size() == m,
         "edge arrays differ in length");
  if (!io::detail::is_gzip(input))
    expect(m <= input.size(), "more edges than input bytes");
  for (std::size_t e = 0; e < m; ++e) {
    const std::int32_t u = g.sources()[e];
    const std::int32_t v = g.targets()[e];
    expect(u >= 0 && u < n && v >= 0 && v < n, "edge endpoint out of range");
    expect(io::detail::is_valid_weight(g.weights()[e]), "weight not finite or |w| > 2^53");
  }
  check_labels(f.labels, n);
  check_format_specifics(f, expected);
}

void check_rejection(const invalid_input_error& e, const std::filesystem::path& name,
                     std::string_view input, std::optional<std::size_t> file_size) {
  const std::string_view what = e.what();
  expect(what.find('\n') == std::string_view::npos && what.find('\r') == std::string_view::npos,
         "error message spans lines");
  expect(what.size() < 1024, "error message is too long");
  const std::string prefix = io::detail::display_name(name) + ": ";
  if (what.substr(0, prefix.size()) != prefix) {
    std::fprintf(stderr, "message: %s\n", e.what());
    expect(false, "error message does not start with the file name");
  }
  std::string_view rest = what.substr(prefix.size());
  const bool line = rest.starts_with("line ");
  const bool byte = rest.starts_with("byte ");
  if (!line && !byte) {
    std::fprintf(stderr, "message: %s\n", e.what());
    expect(false, "error message names neither a line nor a byte");
  }
  rest.remove_prefix(5);
  const std::size_t colon = rest.find(": ");
  std::int64_t where = -1;
  expect(colon != std::string_view::npos && parse_decimal(rest.substr(0, colon), where),
         "malformed line/byte number");
  if (byte) {
    expect(where >= 0 && static_cast<std::size_t>(where) <= file_size.value_or(input.size()),
           "byte offset beyond the input");
  } else if (!io::detail::is_gzip(input)) {
    const auto lines = std::count(input.begin(), input.end(), '\n') + 1;
    expect(where >= 1 && where <= lines, "line number beyond the input");
  }
}

} // namespace apsp::fuzz
