// DIMACS 9th challenge shortest-path format: "c ..." comments, one "p sp n m", then m lines
// "a u v w" with 1-based vertices.

#include <string>
#include <vector>

#include "io/diagnostics.hpp"
#include "io/readers.hpp"
#include "io/text_scan.hpp"

namespace apsp::io::detail {

graph_file read_dimacs(const std::filesystem::path& p, std::string_view text,
                       std::int64_t limit) {
  if (text.empty())
    fail_line(p, 1, "empty file (expected a DIMACS 'p sp n m' line)");
  line_reader lines(text);
  std::string_view line;
  bool have_problem = false;
  std::int64_t n = 0;
  std::int64_t m = 0;
  std::vector<std::int32_t> src;
  std::vector<std::int32_t> dst;
  std::vector<double> weight;

  while (next_content_line(lines, "c", line)) {
    const std::int64_t at = lines.line_number();
    token_scanner tokens(line);
    std::string_view tag;
    tokens.next(tag);
    if (tag == "p") {
      if (have_problem)
        fail_line(p, at, "second 'p' line (only one is allowed)");
      std::string_view problem, n_tok, m_tok;
      if (!next_exactly(tokens, problem, n_tok, m_tok))
        fail_line(p, at, "bad problem line (expected 'p sp n m')");
      if (problem != "sp") {
        fail_line(p, at, "problem type " + quote_token(problem) + " is not 'sp' (shortest paths)");
      }
      n = parse_count(n_tok, "vertex count", p, at);
      check_vertex_count(n, limit, p, at);
      m = parse_count(m_tok, "arc count", p, at);
      check_record_count(m, lines.remaining(), 7, "arcs ('a u v w' lines)", p, at);
      src.reserve(static_cast<std::size_t>(m));
      dst.reserve(static_cast<std::size_t>(m));
      weight.reserve(static_cast<std::size_t>(m));
      have_problem = true;
    } else if (tag == "a") {
      if (!have_problem)
        fail_line(p, at, "arc before the 'p sp n m' line");
      if (static_cast<std::int64_t>(src.size()) == m) {
        fail_line(p, at, "more arcs than the " + std::to_string(m) + " the 'p' line declares");
      }
      std::string_view u_tok, v_tok, w_tok;
      if (!next_exactly(tokens, u_tok, v_tok, w_tok))
        fail_line(p, at, "bad arc line (expected 'a u v w')");
      src.push_back(static_cast<std::int32_t>(parse_vertex(u_tok, n, 1, p, at)));
      dst.push_back(static_cast<std::int32_t>(parse_vertex(v_tok, n, 1, p, at)));
      weight.push_back(parse_weight(w_tok, p, at));
    } else {
      fail_line(p, at,
                "unexpected line starting with " + quote_token(tag) + " (expected c, p or a)");
    }
  }
  if (!have_problem) {
    fail_line(p, lines.line_number(), "end of file before the 'p sp n m' line");
  }
  if (static_cast<std::int64_t>(src.size()) < m) {
    fail_line(p, lines.line_number(),
              "file ends after " + std::to_string(src.size()) + " of the " + std::to_string(m) +
                  " arcs the 'p' line declares");
  }
  graph_file out{graph(n), vertex_labels::numeric(n, 1), format::dimacs, {}};
  out.g.assign(std::move(src), std::move(dst), std::move(weight));
  return out;
}

} // namespace apsp::io::detail
