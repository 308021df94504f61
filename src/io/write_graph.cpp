// write_graph: every graph format, for `apsp convert`. Text formats are gzip-compressed when the
// target name ends in ".gz".

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "io/atomic_output.hpp"
#include "io/csv_records.hpp"
#include "io/diagnostics.hpp"
#include "io/limits.hpp"
#include "io/npy_header.hpp"
#include "io/text_output.hpp"
#include "io/text_scan.hpp"

namespace apsp::io {
namespace {

using detail::append_int;
using detail::append_real;
using detail::atomic_output;

constexpr std::int64_t edges_per_chunk = 1 << 16;

// A default-constructed graph_file has no labels: number the vertices from 0.
vertex_labels effective_labels(const std::filesystem::path& p, const graph_file& gf) {
  const std::int64_t n = gf.g.num_vertices();
  if (gf.labels.size() == n)
    return gf.labels;
  if (gf.labels.size() == 0 && gf.labels.is_numeric())
    return vertex_labels::numeric(n, 0);
  detail::fail_write(p, "the graph has " + std::to_string(n) + " vertices but " +
                            std::to_string(gf.labels.size()) + " labels");
}

/// One line per edge: `prefix`, the source's id, the target's id, the weight, the three apart by
/// `separator`. `append_id(text, v)` writes vertex v's id.
template <class AppendId>
void write_edge_lines(atomic_output& out, const graph& g, const char* prefix, char separator,
                      AppendId&& append_id) {
  const auto& s = g.sources();
  const auto& t = g.targets();
  const auto& w = g.weights();
  detail::write_chunked(
      out, g.num_edges(), edges_per_chunk, [&](std::string& text, std::int64_t b, std::int64_t e) {
        for (auto k = static_cast<std::size_t>(b); k < static_cast<std::size_t>(e); ++k) {
          text += prefix;
          append_id(text, s[k]);
          text += separator;
          append_id(text, t[k]);
          text += separator;
          append_real(text, w[k]);
          text += '\n';
        }
      });
}

/// Ids counted from 1 (DIMACS, Matrix Market).
void append_one_based(std::string& text, std::int32_t v) {
  append_int(text, v + 1);
}

void write_dimacs(atomic_output& out, const graph& g) {
  std::string head = "c written by apsp\np sp ";
  append_int(head, g.num_vertices());
  head += ' ';
  append_int(head, g.num_edges());
  head += '\n';
  out.write(head);
  write_edge_lines(out, g, "a ", ' ', append_one_based);
}

void write_mtx(atomic_output& out, const graph& g) {
  const bool integral = g.summarize_weights().all_integral;
  std::string head = "%%MatrixMarket matrix coordinate ";
  head += integral ? "integer" : "real";
  head += " general\n% written by apsp: entry (i, j, w) is the edge i -> j\n";
  append_int(head, g.num_vertices());
  head += ' ';
  append_int(head, g.num_vertices());
  head += ' ';
  append_int(head, g.num_edges());
  head += '\n';
  out.write(head);
  write_edge_lines(out, g, "", ' ', append_one_based);
}

// Edge lists and CSV name vertices only in their edges: a vertex on no edge would be lost (and
// the others renumbered when the file is read back), so such a graph is refused; and so is a graph
// without edges, whose file their readers refuse.
void require_every_vertex_on_an_edge(const std::filesystem::path& p, const graph& g,
                                     const vertex_labels& labels, const char* what) {
  if (g.num_edges() == 0) {
    detail::fail_write(p, std::string("the graph has no edges, and ") + what +
                              " without edges are refused when read; use dimacs (.gr), mtx, "
                              "course binary (.bin) or npy");
  }
  std::vector<char> on_edge(static_cast<std::size_t>(g.num_vertices()), 0);
  for (const auto* ends : {&g.sources(), &g.targets()}) {
    for (const std::int32_t v : *ends)
      on_edge[static_cast<std::size_t>(v)] = 1;
  }
  const auto lone = std::find(on_edge.begin(), on_edge.end(), 0);
  if (lone == on_edge.end())
    return;
  const auto v = static_cast<std::int64_t>(lone - on_edge.begin());
  const auto count = std::count(on_edge.begin(), on_edge.end(), 0);
  detail::fail_write(p, "vertex " + detail::quote_token(labels.label(v)) + " (and " +
                            std::to_string(count - 1) + " more) lies on no edge, and " + what +
                            " name vertices only in their edges, so it would be lost; use dimacs "
                            "(.gr), mtx, course binary (.bin) or npy");
}

// Edge lists need integer ids: numeric labels, or names that are integers as an edge list writes
// them ("007" or "+7" would read back as 7, and two such CSV names as one vertex).
void write_edgelist(atomic_output& out, const std::filesystem::path& p, const graph_file& gf,
                    const vertex_labels& labels) {
  const graph& g = gf.g;
  require_every_vertex_on_an_edge(p, g, labels, "edge lists");
  std::vector<std::string> ids(static_cast<std::size_t>(g.num_vertices()));
  for (std::int64_t i = 0; i < g.num_vertices(); ++i) {
    std::string id = labels.label(i);
    std::int64_t v = 0;
    if (!detail::parse_int(id, v)) {
      detail::fail_write(p, "vertex id " + detail::quote_token(id) +
                                " is not an integer; edge lists need integer ids (use csv)");
    }
    if (std::to_string(v) != id) {
      detail::fail_write(p, "vertex id " + detail::quote_token(id) +
                                " would read back from an edge list as " + std::to_string(v) +
                                ", another id; edge lists need integers written plainly (use "
                                "csv)");
    }
    ids[static_cast<std::size_t>(i)] = std::move(id);
  }
  std::string head = "# apsp edge list: ";
  append_int(head, g.num_vertices());
  head += " vertices, ";
  append_int(head, g.num_edges());
  head += " edges; u v w\n";
  out.write(head);
  write_edge_lines(out, g, "", ' ', [&](std::string& text, std::int32_t v) {
    text += ids[static_cast<std::size_t>(v)];
  });
}

void write_csv(atomic_output& out, const std::filesystem::path& p, const graph_file& gf,
               const vertex_labels& labels) {
  const graph& g = gf.g;
  require_every_vertex_on_an_edge(p, g, labels, "CSV edge files");
  std::vector<std::string> ids(static_cast<std::size_t>(g.num_vertices()));
  for (std::int64_t i = 0; i < g.num_vertices(); ++i) {
    ids[static_cast<std::size_t>(i)] = detail::csv_field(labels.label(i));
  }
  out.write(std::string_view("source,target,weight\n"));
  write_edge_lines(out, g, "", ',', [&](std::string& text, std::int32_t v) {
    text += ids[static_cast<std::size_t>(v)];
  });
}

void write_course_graph(atomic_output& out, const std::filesystem::path& p, const graph& g) {
  constexpr double int32_max = std::numeric_limits<std::int32_t>::max();
  constexpr double int32_min = std::numeric_limits<std::int32_t>::min();
  if (g.num_edges() > std::numeric_limits<std::int32_t>::max()) {
    detail::fail_write(p, "more than 2^31-1 edges do not fit the course format");
  }
  for (double w : g.weights()) {
    if (std::trunc(w) != w || w < int32_min || w > int32_max) {
      std::string value;
      append_real(value, w);
      detail::fail_write(p, "weight " + value +
                                " is not an int32 integer (the course format stores int32)");
    }
  }
  const std::int32_t head[2] = {static_cast<std::int32_t>(g.num_vertices()),
                                static_cast<std::int32_t>(g.num_edges())};
  out.write(head, sizeof head);
  const auto& s = g.sources();
  const auto& t = g.targets();
  const auto& w = g.weights();
  const std::int64_t m = g.num_edges();
  constexpr std::int64_t chunk = std::int64_t{1} << 20;
  std::vector<std::int32_t> buf(static_cast<std::size_t>(3 * std::min(m, chunk)));
  for (std::int64_t first = 0; first < m; first += chunk) {
    const std::int64_t count = std::min(chunk, m - first);
#pragma omp parallel for schedule(static)
    for (std::int64_t e = 0; e < count; ++e) {
      const auto k = static_cast<std::size_t>(first + e);
      buf[static_cast<std::size_t>(3 * e)] = s[k];
      buf[static_cast<std::size_t>(3 * e + 1)] = t[k];
      buf[static_cast<std::size_t>(3 * e + 2)] = static_cast<std::int32_t>(w[k]);
    }
    out.write(buf.data(), static_cast<std::size_t>(count) * 12);
  }
}

// Integral weights that fit below the integer "no edge" value go out as <i4, others as <f8.
void write_npy_graph(atomic_output& out, const graph& g) {
  const auto summary = g.summarize_weights();
  const bool as_int = summary.all_integral && summary.max_abs < detail::course_infinity;
  const std::int64_t n = g.num_vertices();
  const auto fill = [&](auto no_edge) {
    using T = decltype(no_edge);
    dense_matrix<T> d(n);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i)
      std::fill(d.row(i), d.row(i) + n, no_edge);
    const auto& s = g.sources();
    const auto& t = g.targets();
    const auto& w = g.weights();
    for (std::size_t k = 0; k < s.size(); ++k) {
      T& cell = d(s[k], t[k]);
      const auto v = static_cast<T>(w[k]);
      if (v < cell)
        cell = v;
    }
    out.write(detail::make_npy_header(weight_traits<T>::type, n, n));
    out.write(d.data(), d.size() * sizeof(T));
  };
  if (as_int) {
    fill(std::int32_t{detail::course_infinity});
  } else {
    fill(std::numeric_limits<double>::infinity());
  }
}

} // namespace

void write_graph(const std::filesystem::path& p, const graph_file& gf, format f) {
  const vertex_labels labels = effective_labels(p, gf);
  // What the readers refuse is not written (it could not be read back).
  if (const double most = gf.g.summarize_weights().max_abs; most > detail::max_abs_weight) {
    detail::fail_write(p, "a weight of magnitude " + std::to_string(most) +
                              " is beyond 2^53, which the graph readers refuse");
  }
  if (f == format::tntp) {
    throw invalid_argument_error("cannot write " + p.string() +
                                 ": TNTP is read only (write dimacs, csv or another format)");
  }
  const bool text = f != format::course_binary && f != format::npy;
  atomic_output out(p, text && detail::wants_gzip(p));
  switch (f) {
  case format::dimacs:
    write_dimacs(out, gf.g);
    break;
  case format::mtx:
    write_mtx(out, gf.g);
    break;
  case format::edgelist:
    write_edgelist(out, p, gf, labels);
    break;
  case format::csv:
    write_csv(out, p, gf, labels);
    break;
  case format::course_binary:
    write_course_graph(out, p, gf.g);
    break;
  case format::npy:
    write_npy_graph(out, gf.g);
    break;
  case format::tntp:
    break; // refused above
  }
  out.commit();
}

} // namespace apsp::io
