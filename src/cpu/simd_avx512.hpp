#pragma once
// 512-bit vectors (AVX-512 F/BW/VL/DQ). Include only from translation units built with those
// flags.

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "apsp/types.hpp"
#include "cpu/simd_ymm_via.hpp"

namespace apsp::detail::cpu::avx512 {

template <class T> struct simd;

// 32 zmm registers: mr * nr accumulators (twice that with paths) + nr row vectors; the
// broadcast of a[k][i] folds into the add as an embedded {1toN} memory operand.

// 32-bit types: 16 lanes, the via of one vector in the same lanes under the same mask.
struct via_in_32bit_lanes {
  using via_vec = __m512i;
  static via_vec load_via(const std::int32_t* p) { return _mm512_loadu_si512(p); }
  static void store_via(std::int32_t* p, via_vec v) { _mm512_storeu_si512(p, v); }
  static via_vec set1_via(std::int32_t k) { return _mm512_set1_epi32(k); }
  static via_vec select_via(__mmask16 m, via_vec k, via_vec v) {
    return _mm512_mask_mov_epi32(v, m, k);
  }
};

template <> struct simd<std::int32_t> : via_in_32bit_lanes {
  using value_type = std::int32_t;
  using vec = __m512i;
  using mask = __mmask16;
  /// Some lane of a comparison's mask is set.
  static bool any(mask m) { return m != 0; }
  static constexpr int lanes = 16;
  static constexpr int mr = 12, nr = 2, mr_paths = 6, nr_paths = 2;

  static vec load(const value_type* p) { return _mm512_loadu_si512(p); }
  static void store(value_type* p, vec v) { _mm512_storeu_si512(p, v); }
  static vec set1(value_type x) { return _mm512_set1_epi32(x); }
  static vec add(vec a, vec b) { return _mm512_add_epi32(a, b); }
  static vec min(vec s, vec d) { return _mm512_min_epi32(s, d); }
  static vec clamp_low(vec s) {
    return _mm512_max_epi32(s, _mm512_set1_epi32(-weight_traits<value_type>::infinity));
  }
  static mask less(vec s, vec d) { return _mm512_cmplt_epi32_mask(s, d); }
};

template <> struct simd<float> : via_in_32bit_lanes {
  using value_type = float;
  using vec = __m512;
  using mask = __mmask16;
  /// Some lane of a comparison's mask is set.
  static bool any(mask m) { return m != 0; }
  static constexpr int lanes = 16;
  static constexpr int mr = 6, nr = 4, mr_paths = 6, nr_paths = 2;

  static vec load(const value_type* p) { return _mm512_loadu_ps(p); }
  static void store(value_type* p, vec v) { _mm512_storeu_ps(p, v); }
  static vec set1(value_type x) { return _mm512_set1_ps(x); }
  static vec add(vec a, vec b) { return _mm512_add_ps(a, b); }
  // VMINPS returns its first operand only when it is strictly smaller: exactly relax().
  static vec min(vec s, vec d) { return _mm512_min_ps(s, d); }
  // Non-negative floats order like their bit patterns read as integers, and the integer pipes
  // outnumber the floating-point min units: used when the graph has no negative weight.
  static vec min_nonnegative(vec s, vec d) {
    return _mm512_castsi512_ps(_mm512_min_epi32(_mm512_castps_si512(s), _mm512_castps_si512(d)));
  }
  static mask less_nonnegative(vec s, vec d) {
    return _mm512_cmplt_epi32_mask(_mm512_castps_si512(s), _mm512_castps_si512(d));
  }
  static vec clamp_low(vec s) { return s; }
  static mask less(vec s, vec d) { return _mm512_cmp_ps_mask(s, d, _CMP_LT_OQ); }
};

// 64-bit types: 8 lanes, so the via of one vector is a ymm of 8 int32 under the same mask.
struct isa_tag {};
struct via_in_ymm : ymm_via<isa_tag> {
  static via_vec select_via(__mmask8 m, via_vec k, via_vec v) {
    return _mm256_mask_mov_epi32(v, m, k);
  }
};

template <> struct simd<std::int64_t> : via_in_ymm {
  using value_type = std::int64_t;
  using vec = __m512i;
  using mask = __mmask8;
  /// Some lane of a comparison's mask is set.
  static bool any(mask m) { return m != 0; }
  static constexpr int lanes = 8;
  static constexpr int mr = 6, nr = 4, mr_paths = 6, nr_paths = 2;

  static vec load(const value_type* p) { return _mm512_loadu_si512(p); }
  static void store(value_type* p, vec v) { _mm512_storeu_si512(p, v); }
  static vec set1(value_type x) { return _mm512_set1_epi64(x); }
  static vec add(vec a, vec b) { return _mm512_add_epi64(a, b); }
  static vec min(vec s, vec d) { return _mm512_min_epi64(s, d); }
  static vec clamp_low(vec s) {
    return _mm512_max_epi64(s, _mm512_set1_epi64(-weight_traits<value_type>::infinity));
  }
  static mask less(vec s, vec d) { return _mm512_cmplt_epi64_mask(s, d); }
};

template <> struct simd<double> : via_in_ymm {
  using value_type = double;
  using vec = __m512d;
  using mask = __mmask8;
  /// Some lane of a comparison's mask is set.
  static bool any(mask m) { return m != 0; }
  static constexpr int lanes = 8;
  static constexpr int mr = 6, nr = 4, mr_paths = 6, nr_paths = 2;

  static vec load(const value_type* p) { return _mm512_loadu_pd(p); }
  static void store(value_type* p, vec v) { _mm512_storeu_pd(p, v); }
  static vec set1(value_type x) { return _mm512_set1_pd(x); }
  static vec add(vec a, vec b) { return _mm512_add_pd(a, b); }
  static vec min(vec s, vec d) { return _mm512_min_pd(s, d); }
  static vec min_nonnegative(vec s, vec d) {
    return _mm512_castsi512_pd(_mm512_min_epi64(_mm512_castpd_si512(s), _mm512_castpd_si512(d)));
  }
  static mask less_nonnegative(vec s, vec d) {
    return _mm512_cmplt_epi64_mask(_mm512_castpd_si512(s), _mm512_castpd_si512(d));
  }
  static vec clamp_low(vec s) { return s; }
  static mask less(vec s, vec d) { return _mm512_cmp_pd_mask(s, d, _CMP_LT_OQ); }
};

/// Transposes of 4-byte elements in 16 x 16 blocks (the cpu executor's column panels):
/// dst[x][i] = src[i][x], strides in elements.
struct transpose32 {
  static constexpr int block = 16;
  static void block_transpose(const void* src, std::ptrdiff_t lds, void* dst, std::ptrdiff_t ldd) {
    const auto* s = static_cast<const std::int32_t*>(src);
    auto* d = static_cast<std::int32_t*>(dst);
    // The masked forms with every lane set: the plain ones pass GCC 12 an undefined source
    // operand, which -Wuninitialized reports.
    constexpr __mmask16 all = 0xFFFF;
    constexpr __mmask8 all8 = 0xFF;
    __m512i r[16];
    __m512i t[16];
    for (int i = 0; i < 16; ++i)
      r[i] = _mm512_loadu_si512(s + i * lds);
    // Per 128-bit lane L: pairs of rows interleaved, then quadruples, so r[4g + j] holds column
    // 4L + j of rows 4g .. 4g + 3 in lane L.
    for (int i = 0; i < 16; i += 2) {
      t[i] = _mm512_mask_unpacklo_epi32(r[i], all, r[i], r[i + 1]);
      t[i + 1] = _mm512_mask_unpackhi_epi32(r[i], all, r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {
      r[i] = _mm512_mask_unpacklo_epi64(t[i], all8, t[i], t[i + 2]);
      r[i + 1] = _mm512_mask_unpackhi_epi64(t[i], all8, t[i], t[i + 2]);
      r[i + 2] = _mm512_mask_unpacklo_epi64(t[i + 1], all8, t[i + 1], t[i + 3]);
      r[i + 3] = _mm512_mask_unpackhi_epi64(t[i + 1], all8, t[i + 1], t[i + 3]);
    }
    // Column 4L + j: lane L of r[j], r[4 + j], r[8 + j], r[12 + j].
    for (int j = 0; j < 4; ++j) {
      const __m512i s0 = _mm512_mask_shuffle_i32x4(r[j], all, r[j], r[4 + j], 0x44);
      const __m512i s1 = _mm512_mask_shuffle_i32x4(r[j], all, r[j], r[4 + j], 0xEE);
      const __m512i s2 = _mm512_mask_shuffle_i32x4(r[8 + j], all, r[8 + j], r[12 + j], 0x44);
      const __m512i s3 = _mm512_mask_shuffle_i32x4(r[8 + j], all, r[8 + j], r[12 + j], 0xEE);
      _mm512_storeu_si512(d + j * ldd, _mm512_mask_shuffle_i32x4(s0, all, s0, s2, 0x88));
      _mm512_storeu_si512(d + (4 + j) * ldd, _mm512_mask_shuffle_i32x4(s0, all, s0, s2, 0xDD));
      _mm512_storeu_si512(d + (8 + j) * ldd, _mm512_mask_shuffle_i32x4(s1, all, s1, s3, 0x88));
      _mm512_storeu_si512(d + (12 + j) * ldd, _mm512_mask_shuffle_i32x4(s1, all, s1, s3, 0xDD));
    }
  }
};

} // namespace apsp::detail::cpu::avx512
