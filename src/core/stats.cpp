// apsp/stats.hpp: distance_summary, one pass over the rows on all cores, branch-free where the
// compiler can vectorise it.

#include "core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>
#include <variant>
#include <vector>

#include <omp.h>

#include "apsp/types.hpp"

namespace apsp {
namespace {

__extension__ using int128 = __int128;

struct partial {
  std::uint64_t count = 0;
  int128 exact = 0;
  double sum = 0;
  double max = -std::numeric_limits<double>::infinity();
};

/// Adds the finite entries of [b, e) to r. For int32 with a 64-bit sum per range (a row holds
/// fewer than 2^32 entries below 2^30) and masks instead of branches, so the compiler vectorises
/// it: the per-entry 128-bit form is not vectorised and was much slower (measured:
/// docs/dev/benchmark-log.md, 'Figures from code comments').
template <class T> void add_range(const T* b, const T* e, partial& r) {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    std::int64_t sum = 0;
    std::int64_t count = 0;
    std::int32_t big = std::numeric_limits<std::int32_t>::min();
    for (const T* p = b; p != e; ++p) {
      const std::int32_t v = *p;
      const std::int32_t mask =
          -static_cast<std::int32_t>(v < weight_traits<std::int32_t>::infinity);
      sum += v & mask;
      count -= mask;
      big = std::max(big, (v & mask) | (std::numeric_limits<std::int32_t>::min() & ~mask));
    }
    r.exact += sum;
    r.count += static_cast<std::uint64_t>(count);
    if (count > 0)
      r.max = std::max(r.max, static_cast<double>(big));
  } else {
    for (const T* p = b; p != e; ++p) {
      const T v = *p;
      const bool finite = std::is_floating_point_v<T> ? std::isfinite(static_cast<double>(v))
                                                      : v < weight_traits<T>::infinity;
      if (!finite)
        continue;
      ++r.count;
      if constexpr (std::is_integral_v<T>) {
        r.exact += v;
      } else {
        r.sum += static_cast<double>(v);
      }
      r.max = std::max(r.max, static_cast<double>(v));
    }
  }
}

/// Rows [0, rows) of `cols` entries; diagonal(i) is the column of row i to leave out (or -1).
template <class T, class Diagonal>
distance_summary summarize_rows(const T* data, std::int64_t rows, std::int64_t cols,
                                Diagonal diagonal) {
  std::vector<partial> parts;
#pragma omp parallel
  {
#pragma omp single
    parts.resize(static_cast<std::size_t>(omp_get_num_threads()));
    partial mine;
#pragma omp for schedule(dynamic, 64) nowait
    for (std::int64_t i = 0; i < rows; ++i) {
      const T* row = data + i * cols;
      const std::int64_t skip = diagonal(i);
      if (skip < 0) {
        add_range(row, row + cols, mine);
      } else {
        add_range(row, row + skip, mine);
        add_range(row + skip + 1, row + cols, mine);
      }
    }
    parts[static_cast<std::size_t>(omp_get_thread_num())] = mine;
  }
  distance_summary s;
  s.integral = std::is_integral_v<T>;
  for (const partial& p : parts) {
    distance_summary one;
    one.integral = s.integral;
    one.reachable_pairs = p.count;
    one.exact_sum = p.exact;
    one.sum = s.integral ? static_cast<double>(p.exact) : p.sum;
    one.max = p.count > 0 ? p.max : 0;
    s.merge(one);
  }
  return s;
}

std::string int128_text(int128 v) {
  if (v == 0)
    return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    digits.push_back(static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  if (negative)
    digits.push_back('-');
  return {digits.rbegin(), digits.rend()};
}

} // namespace

void distance_summary::merge(const distance_summary& o) noexcept {
  if (o.reachable_pairs > 0)
    max = reachable_pairs > 0 ? std::max(max, o.max) : o.max;
  reachable_pairs += o.reachable_pairs;
  exact_sum += o.exact_sum;
  sum = integral ? static_cast<double>(exact_sum) : sum + o.sum;
}

std::string distance_summary::sum_text() const {
  if (integral)
    return int128_text(exact_sum);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", sum);
  return buf;
}

distance_summary summarize(const any_matrix& d) {
  return std::visit(
      [](const auto& m) {
        return summarize_rows(m.data(), m.n(), m.n(), [](std::int64_t i) { return i; });
      },
      d);
}

namespace detail {

template <class T> distance_summary summarize_tiles(const grid_layout& L, const T* local) {
  return summarize_rows(local, L.local_rows(), L.local_cols(), [&L](std::int64_t i) {
    const std::int64_t gi = L.global_row(i);
    return L.owns_col(gi / L.b) ? L.local_col(gi) : std::int64_t{-1};
  });
}

template distance_summary summarize_tiles(const grid_layout&, const std::int32_t*);
template distance_summary summarize_tiles(const grid_layout&, const float*);
template distance_summary summarize_tiles(const grid_layout&, const std::int64_t*);
template distance_summary summarize_tiles(const grid_layout&, const double*);

} // namespace detail
} // namespace apsp
