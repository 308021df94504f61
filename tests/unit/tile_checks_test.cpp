// What every process of a grid derives from its own tiles: the initial entries as local edges
// (held_edges, from which GPU ranks build their tiles on the device) against fill_initial_tiles,
// and the checksum of its tiles (summarize_tiles) merged over the grid against the whole
// matrix's (summarize) and a plain loop.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "apsp/stats.hpp"
#include "common/test_graphs.hpp"
#include "core/checks.hpp"
#include "core/distance_stats.hpp"

namespace apsp {
namespace {

struct grid_case {
  std::int64_t n;
  std::int64_t b;
  int rows;
  int cols;
};

const grid_case cases[] = {{97, 97, 1, 1}, {97, 16, 1, 2}, {97, 16, 2, 1}, {130, 32, 2, 2},
                           {130, 48, 3, 1}, {20, 16, 3, 2}, {1, 4, 2, 2}};

detail::grid_layout layout(const grid_case& c, int row, int col) {
  detail::grid_layout L;
  L.n = c.n;
  L.b = c.b;
  L.rows = c.rows;
  L.cols = c.cols;
  L.row = row;
  L.col = col;
  return L;
}

template <class T> void expect_held_edges_fill_like_the_host(const graph& g, const grid_case& c) {
  for (int r = 0; r < c.rows; ++r) {
    for (int q = 0; q < c.cols; ++q) {
      const detail::grid_layout L = layout(c, r, q);
      const auto cells = static_cast<std::size_t>(L.local_rows() * L.local_cols());
      std::vector<T> host(cells);
      detail::fill_initial_tiles(g, L, host.data());
      std::vector<T> scattered(cells, weight_traits<T>::infinity);
      const detail::tile_edges<T> e = detail::held_edges<T>(g, L);
      ASSERT_EQ(e.row.size(), e.weight.size());
      ASSERT_EQ(e.col.size(), e.weight.size());
      for (std::size_t k = 0; k < e.weight.size(); ++k) {
        ASSERT_LT(e.row[k], L.local_rows());
        ASSERT_LT(e.col[k], L.local_cols());
        T& cell = scattered[static_cast<std::size_t>(e.row[k] * L.local_cols() + e.col[k])];
        cell = std::min(cell, e.weight[k]);
      }
      EXPECT_EQ(scattered, host) << "n " << c.n << " b " << c.b << " grid " << c.rows << "x"
                                 << c.cols << " process " << r << "," << q;
    }
  }
}

TEST(HeldEdges, ScatteredIntoInfinityTheyMakeTheFilledTiles) {
  testing::random_graph_spec s;
  s.negative_edges = true;
  for (const grid_case& c : cases) {
    s.n = c.n;
    graph g = testing::make_random_graph(s, static_cast<std::uint64_t>(c.n * 7 + c.b));
    g.add_edge(0, 0, -3); // a negative self-loop: min(0, w) on the diagonal
    expect_held_edges_fill_like_the_host<std::int32_t>(g, c);
    expect_held_edges_fill_like_the_host<float>(g, c);
  }
}

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
      const detail::grid_layout L = layout(c, r, q);
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
  for (const grid_case& c : cases) {
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
