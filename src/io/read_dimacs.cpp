// DIMACS 9th challenge shortest-path format: "c ..." comments, one "p sp n m", then m lines
// "a u v w" with 1-based vertices.

#include <string>
#include <vector>

#include "io/declared_records.hpp"
#include "io/diagnostics.hpp"
#include "io/readers.hpp"
#include "io/text_scan.hpp"

namespace apsp::io::detail {

graph_file read_dimacs(const std::filesystem::path& p, std::string_view text, std::int64_t limit) {
  line_reader lines = lines_of(p, text, "a DIMACS 'p sp n m' line");
  std::string_view line;
  bool have_problem = false;
  std::int64_t n = 0;
  declared_records arcs{0, "arcs", "the 'p' line"};
  graph g;

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
      arcs.count = parse_count(m_tok, "arc count", p, at);
      check_record_count(arcs.count, lines.remaining(), 7, "arcs ('a u v w' lines)", p, at);
      g = graph(n);
      g.reserve(arcs.count);
      have_problem = true;
    } else if (tag == "a") {
      if (!have_problem)
        fail_line(p, at, "arc before the 'p sp n m' line");
      arcs.check_room(g.num_edges(), p, at);
      std::string_view u_tok, v_tok, w_tok;
      if (!next_exactly(tokens, u_tok, v_tok, w_tok))
        fail_line(p, at, "bad arc line (expected 'a u v w')");
      const std::int64_t u = parse_vertex(u_tok, n, 1, p, at);
      const std::int64_t v = parse_vertex(v_tok, n, 1, p, at);
      g.add_edge(u, v, parse_weight(w_tok, p, at));
    } else {
      fail_line(p, at,
                "unexpected line starting with " + quote_token(tag) + " (expected c, p or a)");
    }
  }
  if (!have_problem) {
    fail_line(p, lines.line_number(), "end of file before the 'p sp n m' line");
  }
  arcs.check_complete(g.num_edges(), p, lines.line_number());
  return {std::move(g), vertex_labels::numeric(n, 1), format::dimacs};
}

} // namespace apsp::io::detail
