#pragma once
/// @file metrics.hpp
/// Per-vertex centralities and whole-graph summaries of all-pairs distances, computed without
/// keeping the n x n matrix (docs/metrics.md has the definitions with examples).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/matrix.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"

namespace apsp {

/// One metric; the values are bits of a metric_set. d(u, v) below is the shortest distance
/// from u to v; "finite" excludes unreachable pairs; u != v throughout unless said.
enum class metric : std::uint32_t {
  /// max d(v, u) over the vertices u that v reaches, v itself (0) included: 0 when v reaches
  /// none. NetworkX's eccentricity on a strongly connected graph.
  out_eccentricity = 1u << 0,
  /// max d(u, v) over the vertices u that reach v, v itself (0) included.
  in_eccentricity = 1u << 1,
  /// NetworkX's closeness_centrality, from the distances TO v: r = #{u : d(u, v) finite},
  /// S = sum of those d(u, v); r / S when S > 0 and n > 1, else 0; times r / (n - 1) when
  /// metrics_options::wf_improved.
  closeness = 1u << 2,
  /// NetworkX's harmonic_centrality: sum of 1 / d(u, v) over u with finite d(u, v) > 0 (pairs at
  /// distance 0 or below are skipped).
  harmonic = 1u << 3,
  /// Per vertex, how many others it reaches (reach_out) and how many reach it (reach_in).
  reachable = 1u << 4,
  /// max out_eccentricity.
  diameter = 1u << 5,
  /// min out_eccentricity over the vertices that reach at least one other (0 when none does).
  radius = 1u << 6,
  /// Sum of finite d(u, v) divided by reachable_pairs (0 when no pair is reachable).
  average_path_length = 1u << 7,
  /// Sum of 1 / d(u, v) over ordered pairs with finite d > 0, divided by n (n - 1).
  global_efficiency = 1u << 8,
  /// Ordered pairs u != v with finite d(u, v).
  reachable_pairs = 1u << 9,
  /// Equal-width histogram of the finite d(u, v) (distance_histogram).
  histogram = 1u << 10,
};

/// A set of metrics: the bits of `metric` or'ed together.
using metric_set = std::uint32_t;
inline constexpr metric_set all_metrics = (1u << 11) - 1;

[[nodiscard]] constexpr metric_set operator|(metric a, metric b) noexcept {
  return static_cast<metric_set>(a) | static_cast<metric_set>(b);
}
[[nodiscard]] constexpr metric_set operator|(metric_set a, metric b) noexcept {
  return a | static_cast<metric_set>(b);
}
[[nodiscard]] constexpr bool contains(metric_set s, metric m) noexcept {
  return (s & static_cast<metric_set>(m)) != 0;
}

/// "out-eccentricity", "in-eccentricity", "closeness", "harmonic", "reachable", "diameter",
/// "radius", "average-path-length", "global-efficiency", "reachable-pairs", "histogram".
[[nodiscard]] std::string_view to_string(metric m) noexcept;
/// Every metric, in the order of its bits.
[[nodiscard]] std::vector<metric> metric_list();
/// A comma-separated list of the names above, or "all". Throws invalid_argument_error naming
/// the unknown word and listing the valid ones (also for an empty list or an empty word).
[[nodiscard]] metric_set parse_metrics(std::string_view list);

struct metrics_options {
  metric_set which = all_metrics;
  /// NetworkX's wf_improved: scale closeness by the share of the graph that reaches v.
  bool wf_improved = true;
  /// Bins of the histogram (>= 1).
  int histogram_bins = 32;
  /// Called after each batch of sources (or each Floyd-Warshall round); return false to cancel
  /// (cancelled_error). When empty, solve_options::progress is used.
  progress_callback progress;
};

/// The finite off-diagonal distances in `counts.size()` bins of equal `width` from 0: bin i
/// holds [i * width, (i + 1) * width). The width is the smallest power of two (at least 1 for
/// integer types, at least 2^-20 for float types) with every value below bins * width, so it
/// depends only on the values, never on the order they came in. Distances below 0 are counted
/// in `negative` only.
struct distance_histogram {
  double width = 0;                   ///< 0 when no value >= 0 was seen
  std::vector<std::uint64_t> counts;  ///< metrics_options::histogram_bins entries
  std::uint64_t negative = 0;         ///< finite off-diagonal distances < 0
  /// counts.size() + 1 edges: i * width.
  [[nodiscard]] std::vector<double> edges() const;
};

struct graph_metrics {
  std::int64_t n = 0;
  metric_set computed = 0; ///< the metrics asked for (the others' fields are empty or 0)
  // Per vertex (n entries when computed, else empty).
  std::vector<double> out_eccentricity;
  std::vector<double> in_eccentricity;
  std::vector<double> closeness;
  std::vector<double> harmonic;
  std::vector<std::int64_t> reach_out; ///< vertices other than v that v reaches
  std::vector<std::int64_t> reach_in;  ///< vertices other than v that reach v
  // Whole graph.
  double diameter = 0;
  double radius = 0;
  double average_path_length = 0;
  double global_efficiency = 0;
  std::uint64_t reachable_pairs = 0;
  distance_histogram histogram;
  /// What ran: the plan make_plan(g, solve, plan_request::metrics()) made, drivers::johnson_rows
  /// or phast_rows for rows in batches (never an n x n matrix), else the matrix plan whose
  /// matrix was reduced and freed (empty for metrics_of).
  plan executed_plan;
  /// Whether the n x n distance matrix was made in host memory: false for Dijkstra in batches
  /// and for a GPU that reduced the matrix where it solved it (only O(n) sums came back).
  bool host_matrix = false;
  double seconds = 0;
};

/// The metrics of a full distance matrix (d(i, i) is ignored; a negative one means a negative
/// cycle: negative_cycle_error). The reference for compute_metrics.
[[nodiscard]] graph_metrics metrics_of(const any_matrix& d, const metrics_options& options = {});

/// The metrics of `g`'s shortest distances in the type solve.type, by the plan that
/// make_plan(g, solve, plan_request::metrics()) makes (apsp/solve.hpp). Under algorithm and
/// back end auto: Dijkstra from every source in batches (memory O(m + n x threads)) when the
/// cost model picks Johnson or when the n x n matrix would not fit in RAM, else the plan
/// apsp::make_plan chooses, solved into RAM, reduced and freed; a cuda plan in core (one GPU or
/// split over several) reduces the matrix on its GPUs instead, and no n x n matrix is made in
/// host memory. An explicit
/// algorithm or back end is honoured (algorithm_kind::johnson: the batches; solve.block: sources
/// per batch). Negative weights are allowed; throws negative_cycle_error as apsp::solve does,
/// cancelled_error, and invalid_argument_error for options a metric run cannot take (paths,
/// memory-mapped files, checkpoints, histogram_bins < 1).
[[nodiscard]] graph_metrics compute_metrics(const graph& g, const solve_options& solve = {},
                                            const metrics_options& options = {});

/// The least host memory compute_metrics can run in for `n` vertices and `arcs` arcs with
/// `solve`'s type and threads: its leanest engine's, Dijkstra's rows reduced as they come (the
/// CSR copy and each thread's scratch, row and column sums). The CLI refuses with it before
/// reading a file whose header declares n (arcs 0 then). No allocation.
[[nodiscard]] std::uint64_t metrics_least_host_bytes(std::int64_t n, std::int64_t arcs,
                                                     const solve_options& solve = {});

} // namespace apsp
