// Matrix Market coordinate files: "%%MatrixMarket matrix coordinate FIELD SYMMETRY", '%'
// comments, "rows cols nnz", then nnz lines "i j [value]" with 1-based indices.
// Entry (i, j) is the edge i -> j; pattern entries weigh 1; symmetric entries give both
// directions. Explicit zeros are zero-weight edges, never "no edge".

#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "io/diagnostics.hpp"
#include "io/readers.hpp"
#include "io/text_scan.hpp"

namespace apsp::io::detail {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

enum class mtx_field { real, integer, pattern };

struct mtx_banner {
  mtx_field field = mtx_field::real;
  bool symmetric = false;
};

mtx_banner parse_banner(std::string_view line, const std::filesystem::path& p) {
  token_scanner tokens(line);
  std::string_view magic, object, layout, field, symmetry;
  if (!tokens.next(magic) || lower(magic) != "%%matrixmarket") {
    fail_line(p, 1, "missing '%%MatrixMarket matrix coordinate <field> <symmetry>' banner");
  }
  if (!next_exactly(tokens, object, layout, field, symmetry)) {
    fail_line(p, 1, "bad banner (expected '%%MatrixMarket matrix coordinate <field> <symmetry>')");
  }
  if (lower(object) != "matrix")
    fail_line(p, 1, "object " + quote_token(object) + " is not 'matrix'");
  if (lower(layout) != "coordinate") {
    fail_line(p, 1, "layout " + quote_token(layout) + " is not supported (only 'coordinate')");
  }
  mtx_banner b;
  const std::string f = lower(field);
  if (f == "real" || f == "double") {
    b.field = mtx_field::real;
  } else if (f == "integer") {
    b.field = mtx_field::integer;
  } else if (f == "pattern") {
    b.field = mtx_field::pattern;
  } else {
    fail_line(p, 1, "field " + quote_token(field) + " is not supported (real, integer or pattern)");
  }
  const std::string s = lower(symmetry);
  if (s == "symmetric") {
    b.symmetric = true;
  } else if (s != "general") {
    fail_line(p, 1,
              "symmetry " + quote_token(symmetry) + " is not supported (general or symmetric)");
  }
  return b;
}

} // namespace

graph_file read_mtx(const std::filesystem::path& p, std::string_view text, std::int64_t limit) {
  if (text.empty())
    fail_line(p, 1, "empty file (expected a '%%MatrixMarket' banner)");
  line_reader lines(text);
  std::string_view line;
  lines.next(line);
  const mtx_banner banner = parse_banner(line, p);
  const bool pattern = banner.field == mtx_field::pattern;

  bool have_size = false;
  std::int64_t n = 0;
  std::int64_t nnz = 0;
  std::int64_t entries = 0;
  std::vector<std::int32_t> src;
  std::vector<std::int32_t> dst;
  std::vector<double> weight;
  while (next_content_line(lines, "%", line)) {
    const std::int64_t at = lines.line_number();
    token_scanner tokens(line);
    if (!have_size) {
      std::string_view r_tok, c_tok, nnz_tok;
      if (!next_exactly(tokens, r_tok, c_tok, nnz_tok))
        fail_line(p, at, "bad size line (expected 'rows cols entries')");
      const std::int64_t rows = parse_count(r_tok, "row count", p, at);
      const std::int64_t cols = parse_count(c_tok, "column count", p, at);
      if (rows != cols) {
        fail_line(p, at,
                  "matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
                      "; an adjacency matrix must be square");
      }
      n = rows;
      check_vertex_count(n, limit, p, at);
      nnz = parse_count(nnz_tok, "entry count", p, at);
      check_record_count(nnz, lines.remaining(), pattern ? 3 : 5, "entries", p, at);
      const auto reserve = static_cast<std::size_t>(banner.symmetric ? 2 * nnz : nnz);
      src.reserve(reserve);
      dst.reserve(reserve);
      weight.reserve(reserve);
      have_size = true;
      continue;
    }
    if (entries == nnz) {
      fail_line(p, at, "more entries than the " + std::to_string(nnz) + " the size line declares");
    }
    std::string_view i_tok, j_tok, w_tok;
    const bool ok =
        pattern ? next_exactly(tokens, i_tok, j_tok) : next_exactly(tokens, i_tok, j_tok, w_tok);
    if (!ok) {
      fail_line(p, at,
                pattern ? "bad entry (expected 'row col')"
                        : "bad entry (expected 'row col value')");
    }
    const auto i = static_cast<std::int32_t>(parse_vertex(i_tok, n, 1, p, at));
    const auto j = static_cast<std::int32_t>(parse_vertex(j_tok, n, 1, p, at));
    const double w = pattern ? 1.0 : parse_weight(w_tok, p, at);
    if (banner.field == mtx_field::integer && std::trunc(w) != w) {
      fail_line(p, at, "value " + quote_token(w_tok) + " is not an integer in an 'integer' file");
    }
    src.push_back(i);
    dst.push_back(j);
    weight.push_back(w);
    if (banner.symmetric && i != j) {
      src.push_back(j);
      dst.push_back(i);
      weight.push_back(w);
    }
    ++entries;
  }
  if (!have_size)
    fail_line(p, lines.line_number(), "end of file before the size line");
  if (entries < nnz) {
    fail_line(p, lines.line_number(),
              "file ends after " + std::to_string(entries) + " of the " + std::to_string(nnz) +
                  " entries the size line declares");
  }
  graph_file out{graph(n), vertex_labels::numeric(n, 1), format::mtx, {}};
  out.g.assign(std::move(src), std::move(dst), std::move(weight));
  return out;
}

} // namespace apsp::io::detail
