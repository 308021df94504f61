#include "edge_input.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "apsp/error.hpp"

namespace apsp_py {
namespace {

struct edge_arrays {
  std::vector<std::int32_t> src;
  std::vector<std::int32_t> dst;
  std::vector<double> weight;

  void reserve(std::size_t m) {
    src.reserve(m);
    dst.reserve(m);
    weight.reserve(m);
  }
  void push(std::int32_t u, std::int32_t v, double w) {
    src.push_back(u);
    dst.push_back(v);
    weight.push_back(w);
  }
  /// Appends v -> u for every u -> v already present (undirected input).
  void mirror() {
    const std::size_t m = src.size();
    reserve(2 * m);
    for (std::size_t e = 0; e < m; ++e) {
      if (src[e] != dst[e])
        push(dst[e], src[e], weight[e]);
    }
  }
  apsp::graph build(std::int64_t n) && {
    apsp::graph g(n);
    g.assign(std::move(src), std::move(dst), std::move(weight));
    return g;
  }
};

} // namespace

apsp::graph graph_from_edges(std::int64_t n, std::span<const std::int64_t> rows,
                             std::span<const std::int64_t> cols, std::span<const double> weights,
                             bool directed, bool unweighted) {
  APSP_EXPECTS(n >= 0 && n <= std::numeric_limits<std::int32_t>::max(),
               apsp::invalid_argument_error,
               "the graph has " + std::to_string(n) + " vertices; at most 2^31-1 are supported");
  APSP_EXPECTS(rows.size() == cols.size() && rows.size() == weights.size(),
               apsp::invalid_argument_error, "edge arrays differ in length");
  edge_arrays edges;
  edges.reserve(directed ? rows.size() : 2 * rows.size());
  for (std::size_t e = 0; e < rows.size(); ++e) {
    const std::int64_t u = rows[e];
    const std::int64_t v = cols[e];
    const double w = weights[e];
    APSP_EXPECTS(u >= 0 && u < n && v >= 0 && v < n, apsp::invalid_input_error,
                 "edge " + std::to_string(e) + " (" + std::to_string(u) + ", " + std::to_string(v) +
                     ") has a vertex outside 0.." + std::to_string(n - 1));
    if (w == std::numeric_limits<double>::infinity())
      continue; // an infinite edge is no edge
    APSP_EXPECTS(std::isfinite(w), apsp::invalid_input_error,
                 "entry (" + std::to_string(u) + ", " + std::to_string(v) + ") is " +
                     (std::isnan(w) ? "NaN" : "-inf") + "; weights must be numbers or +inf");
    edges.push(static_cast<std::int32_t>(u), static_cast<std::int32_t>(v), unweighted ? 1.0 : w);
  }
  if (!directed)
    edges.mirror();
  return std::move(edges).build(n);
}

apsp::graph transform_graph(const apsp::graph& g, bool directed, bool unweighted) {
  edge_arrays edges;
  edges.src = g.sources();
  edges.dst = g.targets();
  if (unweighted) {
    edges.weight.assign(g.weights().size(), 1.0);
  } else {
    edges.weight = g.weights();
  }
  if (!directed)
    edges.mirror();
  return std::move(edges).build(g.num_vertices());
}

} // namespace apsp_py
