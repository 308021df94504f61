#pragma once
// Reading a caller's CSR arrays (apsp::csr_view) with the rules of the edge-list path: one
// checking pass that also learns what decides whether the graph can be searched where it lies,
// and, when it cannot, the edge list that the Python binding used to build from SciPy's arrays
// (same edges in the same order, so the solve gives the same rows).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/graph.hpp"
#include "apsp/sources.hpp"
#include "core/checks.hpp"

namespace apsp::detail {

/// What one pass over a csr_view learned.
struct csr_scan {
  std::int64_t arcs = 0; ///< arcs that are edges (all but +inf ones)
  double max_abs = 0;    ///< the largest |weight| of those
  bool negative = false; ///< some weight has its sign bit set (-0.0 too, as analyze_weights)
  bool fraction = false; ///< some weight is not a whole number
  bool infinite = false; ///< some entry is +inf (no arc)
  bool canonical = true; ///< each row's targets strictly increase (sorted, no repeats)
};

/// Checks the arrays' shape (invalid_argument_error) and every arc (invalid_input_error for the
/// first target outside 0..n-1 or NaN / -inf weight, with the edge-list path's messages), and
/// scans the weights. Parallel over rows on the threads allowed.
template <class Index, class Weight> csr_scan scan_csr(const csr_view<Index, Weight>& g) {
  const std::int64_t n = g.n;
  APSP_EXPECTS(n >= 0 && n <= std::numeric_limits<std::int32_t>::max(), invalid_argument_error,
               "the graph has " + std::to_string(n) + " vertices; at most 2^31-1 are supported");
  APSP_EXPECTS(g.offsets.size() == static_cast<std::size_t>(n) + 1, invalid_argument_error,
               "offsets must hold n + 1 = " + std::to_string(n + 1) + " entries, not " +
                   std::to_string(g.offsets.size()));
  APSP_EXPECTS(g.targets.size() == g.weights.size(), invalid_argument_error,
               "edge arrays differ in length");
  const auto m = static_cast<std::int64_t>(g.targets.size());
  APSP_EXPECTS(g.offsets[0] == 0 && static_cast<std::int64_t>(g.offsets.back()) == m,
               invalid_argument_error,
               "offsets must run from 0 to the number of arcs (" + std::to_string(m) + ")");
  for (std::int64_t u = 0; u < n; ++u) {
    APSP_EXPECTS(g.offsets[static_cast<std::size_t>(u)] <=
                     g.offsets[static_cast<std::size_t>(u) + 1],
                 invalid_argument_error, "offsets decrease at row " + std::to_string(u));
  }
  csr_scan s;
  std::int64_t first_bad = m;
  std::int64_t arcs = 0;
  double max_abs = 0;
  bool negative = false;
  bool fraction = false;
  bool infinite = false;
  bool canonical = true;
#pragma omp parallel for schedule(static) reduction(min : first_bad) reduction(+ : arcs)         \
    reduction(max : max_abs) reduction(|| : negative, fraction, infinite)                       \
    reduction(&& : canonical)
  for (std::int64_t u = 0; u < n; ++u) {
    const auto begin = static_cast<std::int64_t>(g.offsets[static_cast<std::size_t>(u)]);
    const auto end = static_cast<std::int64_t>(g.offsets[static_cast<std::size_t>(u) + 1]);
    for (std::int64_t a = begin; a < end; ++a) {
      const auto t = static_cast<std::int64_t>(g.targets[static_cast<std::size_t>(a)]);
      const auto w = static_cast<double>(g.weights[static_cast<std::size_t>(a)]);
      if (t < 0 || t >= n || std::isnan(w) || w == -HUGE_VAL) {
        first_bad = std::min(first_bad, a);
        continue;
      }
      canonical = canonical && (a == begin || t > g.targets[static_cast<std::size_t>(a) - 1]);
      if (w == HUGE_VAL) {
        infinite = true;
        continue;
      }
      const double v = g.unit_weights ? 1.0 : w;
      ++arcs;
      negative = negative || std::signbit(v);
      fraction = fraction || v != std::floor(v);
      max_abs = std::max(max_abs, std::fabs(v));
    }
  }
  if (first_bad < m) {
    const auto e = static_cast<std::size_t>(first_bad);
    const auto row =
        std::upper_bound(g.offsets.begin(), g.offsets.end(), static_cast<Index>(first_bad)) -
        g.offsets.begin() - 1;
    const auto u = std::to_string(row);
    const auto v = std::to_string(static_cast<std::int64_t>(g.targets[e]));
    const auto t = static_cast<std::int64_t>(g.targets[e]);
    APSP_EXPECTS(t >= 0 && t < n, invalid_input_error,
                 "edge " + std::to_string(e) + " (" + u + ", " + v + ") has a vertex outside 0.." +
                     std::to_string(n - 1));
    throw invalid_input_error("entry (" + u + ", " + v + ") is " +
                              (std::isnan(static_cast<double>(g.weights[e])) ? "NaN" : "-inf") +
                              "; weights must be numbers or +inf");
  }
  s.arcs = arcs;
  s.max_abs = max_abs;
  s.negative = negative;
  s.fraction = fraction;
  s.infinite = infinite;
  s.canonical = canonical;
  return s;
}

/// analyze_weights' answer for the edge list of a graph without negative weights, from its
/// first (cheap) bound: (n - 1) * max|w|, capped by the number of edges.
template <class Index, class Weight>
weight_facts in_place_facts(const csr_view<Index, Weight>& g, const csr_scan& s) {
  weight_facts facts;
  facts.has_negative = s.negative;
  facts.has_fraction = s.fraction;
  if (s.arcs > 0) {
    const auto keep = std::max<std::int64_t>(1, g.n - 1);
    facts.distance_bound = s.max_abs * static_cast<double>(std::min(keep, s.arcs));
  }
  return facts;
}

/// Whether Dijkstra can run on the arrays as they are and give the edge-list path's rows: no
/// potentials (no negative weight), one direction, rows in the order csr_from_edges would sort
/// them with no parallel arcs to merge, no +inf entry to skip, and weights for which
/// analyze_weights stops at its first bound (which also keeps every weight below the values
/// that usable_edges drops for `type`, so none is dropped).
template <class Index, class Weight>
bool searchable_in_place(const csr_view<Index, Weight>& g, const csr_scan& s, dtype type) {
  return !g.symmetric && !s.negative && s.canonical && !s.infinite &&
         in_place_facts(g, s).distance_bound < bound_needed(type, false);
}

/// The graph as the edge list the Python binding built: arcs in array order without the +inf
/// ones, weights 1 with unit_weights, then with `symmetric` every arc that is not a self-loop
/// reversed, in the same order.
template <class Index, class Weight>
graph edge_list(const csr_view<Index, Weight>& g, const csr_scan& s) {
  std::vector<std::int32_t> src;
  std::vector<std::int32_t> dst;
  std::vector<double> w;
  const auto m = static_cast<std::size_t>(g.symmetric ? 2 * s.arcs : s.arcs);
  src.reserve(m);
  dst.reserve(m);
  w.reserve(m);
  for (std::int64_t u = 0; u < g.n; ++u) {
    const auto begin = static_cast<std::size_t>(g.offsets[static_cast<std::size_t>(u)]);
    const auto end = static_cast<std::size_t>(g.offsets[static_cast<std::size_t>(u) + 1]);
    for (std::size_t a = begin; a < end; ++a) {
      const auto weight = static_cast<double>(g.weights[a]);
      if (weight == HUGE_VAL)
        continue;
      src.push_back(static_cast<std::int32_t>(u));
      dst.push_back(static_cast<std::int32_t>(g.targets[a]));
      w.push_back(g.unit_weights ? 1.0 : weight);
    }
  }
  if (g.symmetric) {
    const std::size_t forward = src.size();
    for (std::size_t e = 0; e < forward; ++e) {
      if (src[e] != dst[e]) {
        src.push_back(dst[e]);
        dst.push_back(src[e]);
        w.push_back(w[e]);
      }
    }
  }
  graph out(g.n);
  out.assign(std::move(src), std::move(dst), std::move(w));
  return out;
}

} // namespace apsp::detail
