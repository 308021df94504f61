#pragma once
// What a back end hands the metrics when it reduces a solved matrix where the matrix lives (a
// GPU) instead of copying it to the host: sums and maxima of rows and columns, and histogram
// counts. Internal: not installed. C++17, so the cuda translation units can include it.

#include <cstdint>
#include <vector>

namespace apsp::detail {

/// Which reductions a metrics run needs and which values are paths.
struct metrics_request {
  bool columns = false;   ///< the in-metrics: reductions of every column
  int histogram_bins = 0; ///< 0: no histogram
  /// Values above this are "no path": the type's infinity less one, or for integer types with
  /// negative weights the largest possible path length (a sum of "no path" and negative
  /// weights lies above it, as normalize_unreachable has it); for floats the largest finite
  /// value.
  double path_limit = 0;
};

/// The columns of the matrix that a block of rows holds: its column k is column
/// (k / b * stride + offset) * b + k % b (an MPI rank's share of the block-cyclic layout,
/// grid_layout::global_col); stride 1: every column, k itself.
struct column_share {
  std::int64_t b = 1;
  std::int64_t stride = 1;
  std::int64_t offset = 0;
  [[nodiscard]] std::int64_t global(std::int64_t k) const noexcept {
    return stride == 1 ? k : (k / b * stride + offset) * b + k % b;
  }
};

/// Rows [first_row, first_row + row_max.size()) of an n x n distance matrix, each reduced over
/// its paths to other vertices in the columns held (`share`; the diagonal and "no path" values
/// skipped), and every column held reduced over those rows.
template <class T> struct matrix_partials {
  std::int64_t first_row = 0;
  column_share share;
  std::vector<T> row_max; ///< 0 where a row has no path
  std::vector<std::int64_t> row_reach;
  std::vector<double> row_sum;
  std::vector<double> row_inverse; ///< sums of 1 / d over d > 0
  // One entry per column held (n for every column) when metrics_request::columns, else empty.
  std::vector<std::int64_t> column_reach;
  std::vector<T> column_max;
  std::vector<double> column_sum;
  std::vector<double> column_inverse;
  /// When metrics_request::histogram_bins: paths d >= 0 counted in bin floor(d / 2^exponent),
  /// the exponent that histogram_builder reaches for the largest of them, and paths d < 0.
  int histogram_exponent = 0;
  std::vector<std::uint64_t> histogram_counts;
  std::uint64_t histogram_negative = 0;
  /// Vertices v of these rows with d[v][v] < 0 (increasing, at most 64) and how many.
  std::vector<std::int64_t> negative_diagonal;
  std::int64_t negative_diagonal_count = 0;
};

} // namespace apsp::detail
