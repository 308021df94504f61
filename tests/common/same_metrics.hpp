#pragma once
// Two sets of metrics compared as the metrics tests compare them: exactly where the values are
// counts or single distances, within rounding where they are sums in another order.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "apsp/metrics.hpp"

namespace apsp::testing {

/// |got - want| <= relative * max(1, |want|); relative = 0: equal.
inline void expect_close(double got, double want, const std::string& what, double relative = 1e-9) {
  const double tol = relative * std::max(1.0, std::abs(want));
  EXPECT_NEAR(got, want, tol) << what;
}

inline void expect_close(const std::vector<double>& got, const std::vector<double>& want,
                         const std::string& what, double relative = 1e-9) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i)
    expect_close(got[i], want[i], what + "[" + std::to_string(i) + "]", relative);
}

/// Every field: exact where the values are counts or single distances, within `relative`
/// rounding where they are sums in another order (0: the same bits).
inline void expect_same_metrics(const apsp::graph_metrics& got, const apsp::graph_metrics& want,
                                double relative = 1e-9) {
  ASSERT_EQ(got.n, want.n);
  EXPECT_EQ(got.computed, want.computed);
  EXPECT_EQ(got.out_eccentricity, want.out_eccentricity);
  EXPECT_EQ(got.in_eccentricity, want.in_eccentricity);
  EXPECT_EQ(got.reach_out, want.reach_out);
  EXPECT_EQ(got.reach_in, want.reach_in);
  expect_close(got.closeness, want.closeness, "closeness", relative);
  expect_close(got.harmonic, want.harmonic, "harmonic", relative);
  EXPECT_EQ(got.diameter, want.diameter);
  EXPECT_EQ(got.radius, want.radius);
  EXPECT_EQ(got.reachable_pairs, want.reachable_pairs);
  expect_close(got.average_path_length, want.average_path_length, "average path length", relative);
  expect_close(got.global_efficiency, want.global_efficiency, "global efficiency", relative);
  EXPECT_EQ(got.histogram.width, want.histogram.width);
  EXPECT_EQ(got.histogram.counts, want.histogram.counts);
  EXPECT_EQ(got.histogram.negative, want.histogram.negative);
}

} // namespace apsp::testing
