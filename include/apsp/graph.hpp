#pragma once
/// @file graph.hpp
/// A directed weighted graph as an edge list (structure of arrays).

#include <cstdint>
#include <vector>

namespace apsp {

/// Directed graph with n vertices 0..n-1 and weighted edges.
/// Parallel edges are allowed (the solve keeps the minimum); self-loops are allowed
/// (d[i][i] = min(0, w)); weights may be zero or negative. Weights are held as double, so
/// integer weights are exact up to 2^53.
class graph {
public:
  graph() = default;
  /// An edgeless graph on `num_vertices` vertices; throws invalid_argument_error if negative.
  explicit graph(std::int64_t num_vertices);

  [[nodiscard]] std::int64_t num_vertices() const noexcept { return n_; }
  [[nodiscard]] std::int64_t num_edges() const noexcept {
    return static_cast<std::int64_t>(src_.size());
  }

  /// Adds u -> v with weight w. Throws invalid_argument_error for an out-of-range vertex or a
  /// non-finite weight.
  void add_edge(std::int64_t u, std::int64_t v, double w);
  /// Room for num_edges edges (invalid_argument_error when negative).
  void reserve(std::int64_t num_edges);

  /// Replaces all edges at once (the three arrays must have equal length; checked).
  void assign(std::vector<std::int32_t> src, std::vector<std::int32_t> dst,
              std::vector<double> weight);

  [[nodiscard]] const std::vector<std::int32_t>& sources() const noexcept { return src_; }
  [[nodiscard]] const std::vector<std::int32_t>& targets() const noexcept { return dst_; }
  [[nodiscard]] const std::vector<double>& weights() const noexcept { return w_; }

  /// Summary of the weights (computed on demand, O(m)).
  struct weight_summary {
    double min = 0;
    double max = 0;
    double max_abs = 0;
    bool all_integral = true;
    bool has_negative = false;
  };
  [[nodiscard]] weight_summary summarize_weights() const noexcept;

private:
  std::int64_t n_ = 0;
  std::vector<std::int32_t> src_;
  std::vector<std::int32_t> dst_;
  std::vector<double> w_;
};

} // namespace apsp
