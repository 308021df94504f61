// What every process of a grid derives from its own tiles: the checksum of its tiles
// (summarize_tiles) merged over the grid against the whole matrix's (summarize) and a plain loop.
// (The tiles GPU ranks build from the edges are checked against fill_initial_tiles on a GPU:
// tests/cuda/initial_tiles_test.cpp.)

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "apsp/stats.hpp"
#include "common/grid_cases.hpp"
#include "common/test_graphs.hpp"
#include "core/checks.hpp"
#include "core/stats.hpp"

namespace apsp {
namespace {

using testing::grid_case;

/// A matrix with unreachable entries, negative and positive values, and a diagonal that must
/// be left out (non-zero, sometimes huge).
template <class T> std::vector<T> sample_matrix(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> value(-50, 1000);
  std::vector<T> m(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      const int v = value(rng);
      T& x = m[static_cast<std::size_t>(i * n + j)];
      x = v > 800 ? weight_traits<T>::infinity : static_cast<T>(v);
      if (i == j)
        x = static_cast<T>(i % 3 == 0 ? 999 : -7);
    }
  }
  return m;
}

template <class T> void expect_tiles_sum_to_the_whole(const grid_case& c) {
  const std::vector<T> whole = sample_matrix<T>(c.n, static_cast<std::uint64_t>(c.n + c.b));
  // A plain loop.
  std::uint64_t pairs = 0;
  double sum = 0;
  double max = 0;
  for (std::int64_t i = 0; i < c.n; ++i) {
    for (std::int64_t j = 0; j < c.n; ++j) {
      const T v = whole[static_cast<std::size_t>(i * c.n + j)];
      if (i == j || !(v < weight_traits<T>::infinity))
        continue;
      max = pairs == 0 ? static_cast<double>(v) : std::max(max, static_cast<double>(v));
      ++pairs;
      sum += static_cast<double>(v);
    }
  }
  dense_matrix<T> m(c.n);
  std::copy(whole.begin(), whole.end(), m.data());
  const distance_summary all = summarize(any_matrix(std::move(m)));
  EXPECT_EQ(all.reachable_pairs, pairs);
  EXPECT_EQ(all.sum, sum);
  EXPECT_EQ(all.max, max);
  EXPECT_EQ(all.integral, std::is_integral_v<T>);

  distance_summary merged;
  merged.integral = std::is_integral_v<T>;
  for (int r = 0; r < c.rows; ++r) {
    for (int q = 0; q < c.cols; ++q) {
      const detail::grid_layout L = testing::grid_layout_of(c, r, q);
      std::vector<T> local(static_cast<std::size_t>(L.local_rows() * L.local_cols()));
      for (std::int64_t i = 0; i < L.local_rows(); ++i) {
        for (std::int64_t j = 0; j < L.local_cols(); ++j) {
          local[static_cast<std::size_t>(i * L.local_cols() + j)] =
              whole[static_cast<std::size_t>(L.global_row(i) * c.n + L.global_col(j))];
        }
      }
      merged.merge(detail::summarize_tiles(L, local.data()));
    }
  }
  EXPECT_EQ(merged.reachable_pairs, pairs);
  EXPECT_EQ(merged.max, max);
  EXPECT_EQ(merged.sum_text(), all.sum_text());
  if constexpr (std::is_integral_v<T>)
    EXPECT_EQ(static_cast<double>(merged.exact_sum), sum);
}

TEST(SummarizeTiles, MergedOverTheGridTheyGiveTheWholeMatrixSummary) {
  for (const grid_case& c : testing::grid_cases) {
    SCOPED_TRACE("n " + std::to_string(c.n) + " b " + std::to_string(c.b) + " grid " +
                 std::to_string(c.rows) + "x" + std::to_string(c.cols));
    expect_tiles_sum_to_the_whole<std::int32_t>(c);
    expect_tiles_sum_to_the_whole<std::int64_t>(c);
    expect_tiles_sum_to_the_whole<float>(c);
    expect_tiles_sum_to_the_whole<double>(c);
  }
}

TEST(Summarize, ExactIntegerSumsBeyond64Bits) {
  // The largest finite int64 distances (2^62 - 2): the sum of six exceeds 64 bits but is printed
  // exactly; the diagonal is left out.
  dense_matrix<std::int64_t> m(3);
  const std::int64_t big = weight_traits<std::int64_t>::infinity - 1;
  std::fill(m.data(), m.data() + m.size(), big);
  const distance_summary s = summarize(any_matrix(std::move(m)));
  EXPECT_EQ(s.reachable_pairs, 6U);
  EXPECT_EQ(s.sum_text(), "27670116110564327412"); // 6 * (2^62 - 2)
}

} // namespace
} // namespace apsp
