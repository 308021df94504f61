#include "contract.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "io/diagnostics.hpp"
#include "io/file_bytes.hpp"
#include "io/limits.hpp"
#include "io/npy_header.hpp"

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

// The Matrix Market field ("real", "integer", "pattern"...) of an uncompressed file's banner.
std::string mtx_field(std::string_view input) {
  if (input.starts_with("\xEF\xBB\xBF"))
    input.remove_prefix(3);
  std::string line(input.substr(0, input.find('\n')));
  std::string words[4];
  std::size_t k = 0;
  for (std::size_t i = 0; i < line.size() && k < 4;) {
    const auto b = line.find_first_not_of(" \t\v\f\r", i);
    if (b == std::string::npos)
      break;
    const auto e = std::min(line.find_first_of(" \t\v\f\r", b), line.size());
    words[k++] = line.substr(b, e - b);
    i = e;
  }
  for (char& c : words[3])
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return words[3];
}

void check_format_specifics(const io::graph_file& f, io::format expected, std::string_view input) {
  const auto& l = f.labels;
  const auto& w = f.g.weights();
  const bool integral =
      std::all_of(w.begin(), w.end(), [](double x) { return x == std::trunc(x); });
  const bool gzip = io::detail::is_gzip(input);
  switch (expected) {
  case io::format::dimacs:
    expect(l.is_numeric() && l.base() == 1, "dimacs ids are not numeric from 1");
    break;
  case io::format::mtx:
    expect(l.is_numeric() && l.base() == 1, "mtx ids are not numeric from 1");
    if (!gzip && mtx_field(input) == "integer")
      expect(integral, "a weight of an 'integer' Matrix Market file is not an integer");
    if (!gzip && mtx_field(input) == "pattern") {
      expect(std::all_of(w.begin(), w.end(), [](double x) { return x == 1.0; }),
             "a weight of a 'pattern' Matrix Market file is not 1");
    }
    break;
  case io::format::course_binary:
    expect(l.is_numeric() && l.base() == 0, "course ids are not numeric from 0");
    expect(integral, "a course-binary weight is not an integer");
    expect(std::all_of(w.begin(), w.end(), [](double x) { return std::fabs(x) <= 2147483648.0; }),
           "a course-binary weight is outside int32");
    break;
  case io::format::npy: {
    expect(l.is_numeric() && l.base() == 0, "npy ids are not numeric from 0");
    const io::detail::npy_header h = io::detail::parse_npy_header(input, input.size(), "npy");
    expect(h.rows == f.g.num_vertices(), "npy graph size is not the header's shape");
    // Every edge weighs exactly what the file holds at (i, j).
    const char* data = input.data() + h.data_offset;
    for (std::size_t e = 0; e < f.g.weights().size(); ++e) {
      const std::int64_t i = f.g.sources()[e];
      const std::int64_t j = f.g.targets()[e];
      const std::int64_t k = h.fortran_order ? j * h.rows + i : i * h.rows + j;
      const long double held = visit_dtype(h.type, [&](auto t) {
        decltype(t) v;
        std::memcpy(&v, data + static_cast<std::size_t>(k) * sizeof v, sizeof v);
        return static_cast<long double>(v);
      });
      expect(held == static_cast<long double>(w[e]), "an .npy weight is not the file's value");
    }
    if (h.type == dtype::int32 || h.type == dtype::int64) {
      // Integer "no edge" is >= 2^30 - 1: every edge weighs less.
      expect(integral && std::all_of(w.begin(), w.end(),
                                     [](double x) { return x < io::detail::course_infinity; }),
             "an integer .npy weight is not an integer below 2^30 - 1");
    }
    break;
  }
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
  check_format_specifics(f, expected, input);
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
