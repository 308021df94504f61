#pragma once
/// @file result.hpp
/// Distances, the optional path matrix, and path queries.

#include <cstdint>
#include <optional>
#include <vector>

#include "apsp/matrix.hpp"
#include "apsp/plan.hpp"
#include "apsp/types.hpp"

namespace apsp {

/// SciPy's "no predecessor" value.
inline constexpr std::int32_t no_predecessor = -9999;

/// Wall-clock seconds per stage of a solve.
struct solve_timings {
  double setup_seconds = 0;  ///< building the initial matrix, allocation, uploads
  double solve_seconds = 0;  ///< the Floyd-Warshall rounds
  double finish_seconds = 0; ///< downloads, checks, normalisation
};

class result {
public:
  result() = default;
  /// Throws invalid_argument_error when `via` is not the distances' size.
  result(any_matrix distances, std::optional<via_matrix> via, plan p, solve_timings t = {});

  [[nodiscard]] std::int64_t n() const noexcept;
  [[nodiscard]] dtype type() const noexcept { return static_cast<dtype>(distances_.index()); }
  [[nodiscard]] const any_matrix& distances() const noexcept { return distances_; }
  [[nodiscard]] any_matrix& distances() noexcept { return distances_; }
  /// The distances as T; throws invalid_argument_error if the result holds another type.
  template <class T> [[nodiscard]] const dense_matrix<T>& distances_as() const;

  [[nodiscard]] bool has_paths() const noexcept { return via_.has_value(); }
  /// Throws invalid_argument_error when the solve ran without paths.
  [[nodiscard]] const via_matrix& via() const;

  /// d[i][j] as double (+inf when j is unreachable from i).
  [[nodiscard]] double distance(std::int64_t i, std::int64_t j) const;
  [[nodiscard]] bool reachable(std::int64_t i, std::int64_t j) const;

  /// Vertices of a shortest i -> j path, i first and j last; {i} when i == j; empty when j is
  /// unreachable. Needs paths.
  [[nodiscard]] std::vector<std::int64_t> path(std::int64_t i, std::int64_t j) const;

  /// SciPy-style predecessor matrix: pred(i, j) = the vertex before j on the path, or
  /// no_predecessor (-9999) when i == j or j is unreachable. O(n^2), needs paths.
  [[nodiscard]] dense_matrix<std::int32_t> predecessors() const;

  [[nodiscard]] const plan& executed_plan() const noexcept { return plan_; }
  [[nodiscard]] const solve_timings& timings() const noexcept { return timings_; }

private:
  any_matrix distances_;
  std::optional<via_matrix> via_;
  plan plan_;
  solve_timings timings_;
};

/// The i -> j path that a path matrix encodes (via(a, b) = an intermediate vertex of a shortest
/// a -> b path, or no_via for the edge a -> b), i first and j last; {i} when i == j. For a
/// matrix from elsewhere (a file): every entry used is range-checked and the walk is bounded,
/// and a matrix that is not a valid path matrix throws invalid_input_error naming the entry.
/// Whether j is reachable at all is the caller's question (the distances answer it).
[[nodiscard]] std::vector<std::int64_t> expand_via_path(const via_matrix& via, std::int64_t i,
                                                        std::int64_t j);

} // namespace apsp
