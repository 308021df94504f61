// metrics_accumulator::take_sweep's reduction of a PHAST sweep by position
// (core/sweep_reduction.hpp), built for each instruction set the cpu's kernels may use.

#include "core/sweep_reduction.hpp"

#include <algorithm>
#include <bit>
#include <type_traits>

#include "apsp/types.hpp"
#include "cpu/cpu_isa.hpp"

namespace apsp::detail {
namespace {

/// Widens the per-lane counts until `top` (>= 0) falls in the last bin (as
/// histogram_builder::add widens); returns the new exponent.
template <class T>
[[gnu::noinline]] int widen_lane_counts(const sweep_sums<T>& w, std::int64_t top) {
  const std::size_t bins = w.bins;
  while ((top >> *w.lane_exponent) >= static_cast<std::int64_t>(bins)) {
    for (std::size_t k = 0; k < static_cast<std::size_t>(max_sweep_lanes); ++k) {
      std::uint64_t* c = w.lane_counts + k * bins;
      for (std::size_t i = 0; i < bins; ++i) {
        const std::uint64_t x = c[i];
        c[i] = 0;
        c[i / 2] += x;
      }
    }
    ++*w.lane_exponent;
  }
  return *w.lane_exponent;
}

/// a[0] + ... + a[K - 1] in halves (vector adds), the same order every time.
template <int K> [[gnu::always_inline]] inline double pairwise_sum(const double (&a)[K]) {
  if constexpr (K == 1) {
    return a[0];
  } else {
    double half[K / 2];
    for (int k = 0; k < K / 2; ++k)
      half[k] = a[k] + a[k + K / 2];
    return pairwise_sum<K / 2>(half);
  }
}

/// The pairs of K rows at each position p: the rows' sums in `rows_out`, column p's in the
/// worker's arrays (by position), the histogram. row_sink::take()'s pairs: d finite, t != s.
template <class T, int K>
[[gnu::always_inline]] inline std::uint64_t reduce_sweep_body(const sweep_rows<T>& rows,
                                                              const sweep_sums<T>& w,
                                                              sweep_row_lanes<T, K>& rows_out) {
  using U = std::make_unsigned_t<T>;
  constexpr T inf = weight_traits<T>::infinity;
  const auto n = static_cast<std::size_t>(rows.n);
  const T* __restrict values = rows.values;
  const T* potential_at = rows.potential_at;
  // Per lane: the source's position (the diagonal, skipped; -1 for lanes past count, whose
  // values are all "no path" anyway) and its potential.
  alignas(64) T source_at[K];
  alignas(64) T hs[K];
  for (int k = 0; k < K; ++k) {
    const auto pos =
        k < rows.count ? rows.position[static_cast<std::size_t>(rows.first + k)] : std::int32_t{-1};
    source_at[k] = static_cast<T>(pos);
    hs[k] = pos >= 0 && potential_at ? potential_at[pos] : T{0};
  }
  const bool columns = w.columns;
  const bool histogram = w.bins > 0;
  const std::size_t bins = w.bins;
  std::uint64_t* __restrict lane_counts = w.lane_counts;
  int exponent = histogram ? *w.lane_exponent : 0;
  alignas(64) T negative[K] = {};
  // Raw pointers and a local copy of the row sums: what the loop writes cannot alias them,
  // so the sums stay in registers.
  std::int64_t* __restrict in_count = w.in_count;
  T* __restrict in_max = w.in_max;
  double* __restrict in_sum = w.in_sum;
  double* __restrict in_inverse = w.in_inverse;
  sweep_row_lanes<T, K> r = rows_out;
  for (std::size_t p = 0; p < n; ++p) {
    const T* dp = values + p * K;
    const T hp = potential_at ? potential_at[p] : T{0};
    alignas(64) T v[K];         // the pair's distance, 0 where there is no pair
    alignas(64) T pair[K];      // 1 where there is one
    alignas(64) double dist[K]; // v as a double
    alignas(64) double inv[K];  // 1 / d for d > 0, else 0
    for (int k = 0; k < K; ++k) {
      const T raw = dp[k];
      // Wraps only where raw is "no path", and then it is not used.
      const T d = static_cast<T>(static_cast<U>(raw) + static_cast<U>(hp - hs[k]));
      // Selections as masks, and the division made in every lane (by 1 where d <= 0, the
      // quotient masked to +0.0 after): a branch here keeps the loop scalar, and the
      // compiler makes one of any select it can see around a division or a conversion.
      const T is_pair = static_cast<T>(raw < inf) & static_cast<T>(d < inf) &
                        static_cast<T>(static_cast<T>(p) != source_at[k]);
      const T vk = d & static_cast<T>(-is_pair);
      v[k] = vk;
      pair[k] = is_pair;
      dist[k] = static_cast<double>(vk);
      const double q = 1.0 / static_cast<double>(std::max(vk, T{1}));
      const std::uint64_t keep = std::uint64_t{0} - static_cast<std::uint64_t>(vk > T{0});
      inv[k] = std::bit_cast<double>(std::bit_cast<std::uint64_t>(q) & keep);
    }
    for (int k = 0; k < K; ++k) {
      r.out_max[k] = std::max(r.out_max[k], v[k]);
      r.reach[k] += pair[k];
      r.sum[k] += dist[k];
      r.inverse[k] += inv[k];
    }
    if (columns) {
      T count = 0;
      T max = in_max[p];
      for (int k = 0; k < K; ++k) {
        count += pair[k];
        max = std::max(max, v[k]);
      }
      in_count[p] += static_cast<std::int64_t>(count);
      in_max[p] = max;
      in_sum[p] += pairwise_sum<K>(dist);
      in_inverse[p] += pairwise_sum<K>(inv);
    }
    if (histogram) {
      // Each lane its own counts: a road graph's pairs at one position mostly fall in one
      // bin, and one counter incremented 16 times in a row is a chain of dependent adds.
      T top = 0;
      for (int k = 0; k < K; ++k)
        top = std::max(top, v[k]);
      if ((top >> exponent) >= static_cast<T>(bins))
        exponent = widen_lane_counts(w, static_cast<std::int64_t>(top));
      for (int k = 0; k < K; ++k)
        negative[k] += pair[k] & static_cast<T>(v[k] < T{0});
      for (int k = 0; k < K; ++k) {
        const T at_least_0 = static_cast<T>(v[k] >= T{0});
        const auto bin = static_cast<std::size_t>((v[k] & static_cast<T>(-at_least_0)) >> exponent);
        lane_counts[static_cast<std::size_t>(k) * bins + bin] +=
            static_cast<std::uint64_t>(pair[k] & at_least_0);
      }
    }
  }
  rows_out = r;
  std::uint64_t negatives = 0;
  if (histogram) {
    for (int k = 0; k < K; ++k)
      negatives += static_cast<std::uint64_t>(negative[k]);
  }
  return negatives;
}

template <class T, int K>
std::uint64_t reduce_sweep_scalar(const sweep_rows<T>& rows, const sweep_sums<T>& w,
                                  sweep_row_lanes<T, K>& r) {
  return reduce_sweep_body<T, K>(rows, w, r);
}
template <class T, int K>
[[gnu::target("avx2,fma")]] std::uint64_t
reduce_sweep_avx2(const sweep_rows<T>& rows, const sweep_sums<T>& w, sweep_row_lanes<T, K>& r) {
  return reduce_sweep_body<T, K>(rows, w, r);
}
template <class T, int K>
[[gnu::target("avx512f,avx512bw,avx512vl,avx512dq")]] std::uint64_t
reduce_sweep_avx512(const sweep_rows<T>& rows, const sweep_sums<T>& w, sweep_row_lanes<T, K>& r) {
  return reduce_sweep_body<T, K>(rows, w, r);
}

} // namespace

template <class T, int K>
std::uint64_t reduce_sweep(const sweep_rows<T>& rows, const sweep_sums<T>& sums,
                           sweep_row_lanes<T, K>& r) {
  switch (cpu::selected_isa()) {
  case cpu::isa::avx512:
    return reduce_sweep_avx512<T, K>(rows, sums, r);
  case cpu::isa::avx2:
    return reduce_sweep_avx2<T, K>(rows, sums, r);
  case cpu::isa::scalar:
    break;
  }
  return reduce_sweep_scalar<T, K>(rows, sums, r);
}

#define APSP_REDUCE_SWEEP(T, K)                                                                    \
  template std::uint64_t reduce_sweep<T, K>(const sweep_rows<T>&, const sweep_sums<T>&,            \
                                            sweep_row_lanes<T, K>&);
APSP_REDUCE_SWEEP(std::int32_t, 1)
APSP_REDUCE_SWEEP(std::int32_t, 4)
APSP_REDUCE_SWEEP(std::int32_t, 8)
APSP_REDUCE_SWEEP(std::int32_t, 16)
APSP_REDUCE_SWEEP(std::int64_t, 1)
APSP_REDUCE_SWEEP(std::int64_t, 4)
APSP_REDUCE_SWEEP(std::int64_t, 8)
APSP_REDUCE_SWEEP(std::int64_t, 16)
#undef APSP_REDUCE_SWEEP

} // namespace apsp::detail
