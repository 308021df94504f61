#pragma once
// 256-bit vectors (AVX2). Include only from translation units built with -mavx2 -mfma.

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "apsp/types.hpp"
#include "cpu/simd_ymm_via.hpp"

namespace apsp::detail::cpu::avx2 {

template <class T> struct simd;

// 16 ymm registers: mr * nr accumulators (twice that with paths) + nr row vectors + a broadcast.

// 32-bit types keep their via in the same 32-bit lanes as the values.
struct isa_tag {};
using via_in_32bit_lanes = ymm_via<isa_tag>;

template <> struct simd<std::int32_t> : via_in_32bit_lanes {
  using value_type = std::int32_t;
  using vec = __m256i;
  using mask = __m256i;
  /// Some lane of a comparison's mask is set.
  static bool any(mask m) { return _mm256_testz_si256(m, m) == 0; }
  static constexpr int lanes = 8;
  static constexpr int mr = 6, nr = 2, mr_paths = 3, nr_paths = 2;

  static vec load(const value_type* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static void store(value_type* p, vec v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  static vec set1(value_type x) { return _mm256_set1_epi32(x); }
  static vec add(vec a, vec b) { return _mm256_add_epi32(a, b); }
  static vec min(vec s, vec d) { return _mm256_min_epi32(s, d); }
  static vec clamp_low(vec s) {
    return _mm256_max_epi32(s, _mm256_set1_epi32(-weight_traits<value_type>::infinity));
  }
  static mask less(vec s, vec d) { return _mm256_cmpgt_epi32(d, s); }
  static via_vec select_via(mask m, via_vec k, via_vec v) { return _mm256_blendv_epi8(v, k, m); }
};

template <> struct simd<float> : via_in_32bit_lanes {
  using value_type = float;
  using vec = __m256;
  using mask = __m256;
  /// Some lane of a comparison's mask is set.
  static bool any(mask m) { return _mm256_movemask_ps(m) != 0; }
  static constexpr int lanes = 8;
  static constexpr int mr = 6, nr = 2, mr_paths = 3, nr_paths = 2;

  static vec load(const value_type* p) { return _mm256_loadu_ps(p); }
  static void store(value_type* p, vec v) { _mm256_storeu_ps(p, v); }
  static vec set1(value_type x) { return _mm256_set1_ps(x); }
  static vec add(vec a, vec b) { return _mm256_add_ps(a, b); }
  // MINPS returns its first operand only when it is strictly smaller: exactly relax().
  static vec min(vec s, vec d) { return _mm256_min_ps(s, d); }
  // Non-negative floats order like their bit patterns read as integers (see simd_avx512.hpp).
  static vec min_nonnegative(vec s, vec d) {
    return _mm256_castsi256_ps(_mm256_min_epi32(_mm256_castps_si256(s), _mm256_castps_si256(d)));
  }
  static mask less_nonnegative(vec s, vec d) { return less(s, d); }
  static vec clamp_low(vec s) { return s; }
  static mask less(vec s, vec d) { return _mm256_cmp_ps(s, d, _CMP_LT_OQ); }
  static via_vec select_via(mask m, via_vec k, via_vec v) {
    return _mm256_blendv_epi8(v, k, _mm256_castps_si256(m));
  }
};

// 64-bit types keep their via in 64-bit lanes (so one mask serves both) and narrow on store.
struct via_in_64bit_lanes {
  using via_vec = __m256i;
  static via_vec load_via(const std::int32_t* p) {
    return _mm256_cvtepi32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static void store_via(std::int32_t* p, via_vec v) {
    const __m256i low_halves =
        _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(low_halves));
  }
  static via_vec set1_via(std::int32_t k) { return _mm256_set1_epi64x(k); }
};

template <> struct simd<std::int64_t> : via_in_64bit_lanes {
  using value_type = std::int64_t;
  using vec = __m256i;
  using mask = __m256i;
  /// Some lane of a comparison's mask is set.
  static bool any(mask m) { return _mm256_testz_si256(m, m) == 0; }
  static constexpr int lanes = 4;
  static constexpr int mr = 4, nr = 2, mr_paths = 3, nr_paths = 2;

  static vec load(const value_type* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static void store(value_type* p, vec v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  static vec set1(value_type x) { return _mm256_set1_epi64x(x); }
  static vec add(vec a, vec b) { return _mm256_add_epi64(a, b); }
  // AVX2 has no 64-bit min/max: compare and blend.
  static vec min(vec s, vec d) { return _mm256_blendv_epi8(d, s, _mm256_cmpgt_epi64(d, s)); }
  static vec clamp_low(vec s) {
    const vec lo = _mm256_set1_epi64x(-weight_traits<value_type>::infinity);
    return _mm256_blendv_epi8(s, lo, _mm256_cmpgt_epi64(lo, s));
  }
  static mask less(vec s, vec d) { return _mm256_cmpgt_epi64(d, s); }
  static via_vec select_via(mask m, via_vec k, via_vec v) { return _mm256_blendv_epi8(v, k, m); }
};

template <> struct simd<double> : via_in_64bit_lanes {
  using value_type = double;
  using vec = __m256d;
  using mask = __m256d;
  /// Some lane of a comparison's mask is set.
  static bool any(mask m) { return _mm256_movemask_pd(m) != 0; }
  static constexpr int lanes = 4;
  static constexpr int mr = 6, nr = 2, mr_paths = 3, nr_paths = 2;

  static vec load(const value_type* p) { return _mm256_loadu_pd(p); }
  static void store(value_type* p, vec v) { _mm256_storeu_pd(p, v); }
  static vec set1(value_type x) { return _mm256_set1_pd(x); }
  static vec add(vec a, vec b) { return _mm256_add_pd(a, b); }
  static vec min(vec s, vec d) { return _mm256_min_pd(s, d); }
  static vec min_nonnegative(vec s, vec d) { return min(s, d); }
  static mask less_nonnegative(vec s, vec d) { return less(s, d); }
  static vec clamp_low(vec s) { return s; }
  static mask less(vec s, vec d) { return _mm256_cmp_pd(s, d, _CMP_LT_OQ); }
  static via_vec select_via(mask m, via_vec k, via_vec v) {
    return _mm256_blendv_epi8(v, k, _mm256_castpd_si256(m));
  }
};

/// Transposes of 4-byte elements in 8 x 8 blocks (the cpu executor's column panels):
/// dst[x][i] = src[i][x], strides in elements.
struct transpose32 {
  static constexpr int block = 8;
  static void block_transpose(const void* src, std::ptrdiff_t lds, void* dst, std::ptrdiff_t ldd) {
    const auto* s = static_cast<const std::int32_t*>(src);
    auto* d = static_cast<std::int32_t*>(dst);
    __m256i r[8];
    __m256i t[8];
    for (int i = 0; i < 8; ++i)
      r[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i * lds));
    // Per 128-bit lane L: r[4g + j] ends up holding column 4L + j of rows 4g .. 4g + 3.
    for (int i = 0; i < 8; i += 2) {
      t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
      t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
      r[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
      r[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
      r[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
      r[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int j = 0; j < 4; ++j) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + j * ldd),
                          _mm256_permute2x128_si256(r[j], r[4 + j], 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + (4 + j) * ldd),
                          _mm256_permute2x128_si256(r[j], r[4 + j], 0x31));
    }
  }
};

} // namespace apsp::detail::cpu::avx2
