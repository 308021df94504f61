// Whitespace edge lists (SNAP style): "u v [w]" per line, '#' or '%' comment lines, arbitrary
// integer ids remapped to 0..n-1 in increasing numeric order; a missing weight is 1.

#include <algorithm>
#include <string>
#include <vector>

#include "io/diagnostics.hpp"
#include "io/limits.hpp"
#include "io/readers.hpp"
#include "io/text_scan.hpp"

namespace apsp::io::detail {
namespace {

std::int64_t parse_id(std::string_view token, const std::filesystem::path& p, std::int64_t line) {
  std::int64_t v = 0;
  if (!parse_int(token, v)) {
    fail_line(p, line, "vertex id " + quote_token(token) + " is not an integer");
  }
  return v;
}

} // namespace

graph_file read_edgelist(const std::filesystem::path& p, std::string_view text,
                         std::int64_t limit) {
  line_reader lines = lines_of(p, text, "lines 'u v [w]'");
  std::string_view line;
  std::vector<std::int64_t> ids; // u0, v0, u1, v1, ...
  std::vector<double> weight;
  while (next_content_line(lines, "#%", line)) {
    const std::int64_t at = lines.line_number();
    token_scanner tokens(line);
    std::string_view u_tok, v_tok, w_tok;
    if (!tokens.next(u_tok) || !tokens.next(v_tok) || tokens.count() > 1) {
      fail_line(p, at, "bad edge line (expected 'u v' or 'u v w')");
    }
    ids.push_back(parse_id(u_tok, p, at));
    ids.push_back(parse_id(v_tok, p, at));
    weight.push_back(tokens.next(w_tok) ? parse_weight(w_tok, p, at) : 1.0);
  }
  if (weight.empty())
    fail_line(p, lines.line_number(), "no edges (only comments or blank lines)");

  std::vector<std::int64_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  const auto n = static_cast<std::int64_t>(sorted.size());
  if (n > limit) {
    fail_line(p, lines.line_number(),
              "the file has " + std::to_string(n) + " distinct vertex ids; at most " +
                  std::to_string(limit) + " are supported");
  }
  const auto m = static_cast<std::int64_t>(weight.size());
  std::vector<std::int32_t> src(static_cast<std::size_t>(m));
  std::vector<std::int32_t> dst(static_cast<std::size_t>(m));
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < m; ++e) {
    const auto index = [&](std::int64_t id) {
      return static_cast<std::int32_t>(std::lower_bound(sorted.begin(), sorted.end(), id) -
                                       sorted.begin());
    };
    src[static_cast<std::size_t>(e)] = index(ids[static_cast<std::size_t>(2 * e)]);
    dst[static_cast<std::size_t>(e)] = index(ids[static_cast<std::size_t>(2 * e + 1)]);
  }
  std::vector<std::string> names(sorted.size());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    names[i] = std::to_string(sorted[i]);

  graph_file out{graph(n), vertex_labels::named(std::move(names), true), format::edgelist, {}};
  out.g.assign(std::move(src), std::move(dst), std::move(weight));
  return out;
}

} // namespace apsp::io::detail
