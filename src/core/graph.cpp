#include "apsp/graph.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "apsp/error.hpp"

namespace apsp {

graph::graph(std::int64_t num_vertices) : n_(num_vertices) {
  APSP_EXPECTS(num_vertices >= 0 && num_vertices <= std::numeric_limits<std::int32_t>::max(),
               invalid_argument_error,
               "vertex count " + std::to_string(num_vertices) + " is out of range");
}

void graph::add_edge(std::int64_t u, std::int64_t v, double w) {
  APSP_EXPECTS(u >= 0 && u < n_ && v >= 0 && v < n_, invalid_argument_error,
               "edge (" + std::to_string(u) + ", " + std::to_string(v) +
                   ") has a vertex outside 0.." + std::to_string(n_ - 1));
  APSP_EXPECTS(std::isfinite(w), invalid_argument_error,
               "edge (" + std::to_string(u) + ", " + std::to_string(v) +
                   ") has a non-finite weight");
  src_.push_back(static_cast<std::int32_t>(u));
  dst_.push_back(static_cast<std::int32_t>(v));
  w_.push_back(w);
}

void graph::reserve(std::int64_t num_edges) {
  APSP_EXPECTS(num_edges >= 0, invalid_argument_error,
               "edge count must not be negative, got " + std::to_string(num_edges));
  const auto m = static_cast<std::size_t>(num_edges);
  src_.reserve(m);
  dst_.reserve(m);
  w_.reserve(m);
}

void graph::assign(std::vector<std::int32_t> src, std::vector<std::int32_t> dst,
                   std::vector<double> weight) {
  APSP_EXPECTS(src.size() == dst.size() && src.size() == weight.size(), invalid_argument_error,
               "edge arrays differ in length");
  // Parallel scan for the first bad edge (inputs reach tens of millions of edges).
  const auto m = static_cast<std::int64_t>(src.size());
  std::int64_t first_bad = m;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (std::int64_t k = 0; k < m; ++k) {
    const auto e = static_cast<std::size_t>(k);
    const bool ok =
        src[e] >= 0 && src[e] < n_ && dst[e] >= 0 && dst[e] < n_ && std::isfinite(weight[e]);
    if (!ok && k < first_bad)
      first_bad = k;
  }
  if (first_bad < m) {
    const auto e = static_cast<std::size_t>(first_bad);
    APSP_EXPECTS(std::isfinite(weight[e]), invalid_argument_error,
                 "edge " + std::to_string(e) + " has a non-finite weight");
    throw invalid_argument_error("edge " + std::to_string(e) + " has a vertex outside 0.." +
                                 std::to_string(n_ - 1));
  }
  src_ = std::move(src);
  dst_ = std::move(dst);
  w_ = std::move(weight);
}

graph::weight_summary graph::summarize_weights() const noexcept {
  weight_summary s;
  if (w_.empty())
    return s;
  double lo = w_[0], hi = w_[0];
  bool integral = true;
  const auto m = static_cast<std::int64_t>(w_.size());
#pragma omp parallel for reduction(min : lo) reduction(max : hi) reduction(&& : integral) \
    schedule(static)
  for (std::int64_t e = 0; e < m; ++e) {
    const double w = w_[static_cast<std::size_t>(e)];
    lo = w < lo ? w : lo;
    hi = w > hi ? w : hi;
    integral = integral && std::trunc(w) == w;
  }
  s.min = lo;
  s.max = hi;
  s.all_integral = integral;
  s.max_abs = std::fmax(std::fabs(s.min), std::fabs(s.max));
  s.has_negative = s.min < 0;
  return s;
}

} // namespace apsp
