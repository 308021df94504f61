#pragma once
// One-lane "vectors" for the portable fallback; same interface as simd_avx2.hpp.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "apsp/types.hpp"

namespace apsp::detail::cpu::scalar {

template <class T> struct simd {
  using value_type = T;
  using vec = T;
  using via_vec = std::int32_t;
  using mask = bool;
  /// Some lane of a comparison's mask is set.
  static bool any(mask m) { return m; }
  static constexpr int lanes = 1;
  // Micro-tile rows x vectors, without and with the via matrix.
  static constexpr int mr = 4, nr = 4, mr_paths = 4, nr_paths = 4;

  static vec load(const T* p) { return *p; }
  static void store(T* p, vec v) { *p = v; }
  static vec set1(T x) { return x; }
  static vec add(vec a, vec b) { return a + b; }
  static vec min(vec s, vec d) { return s < d ? s : d; }
  static vec clamp_low(vec s) {
    if constexpr (std::is_integral_v<T>) {
      constexpr T lo = -weight_traits<T>::infinity;
      return s < lo ? lo : s;
    } else {
      return s;
    }
  }
  static mask less(vec s, vec d) { return s < d; }
  static vec min_nonnegative(vec s, vec d) { return min(s, d); }
  static mask less_nonnegative(vec s, vec d) { return less(s, d); }
  static via_vec load_via(const std::int32_t* p) { return *p; }
  static void store_via(std::int32_t* p, via_vec v) { *p = v; }
  static via_vec set1_via(std::int32_t k) { return k; }
  static via_vec select_via(mask m, via_vec k, via_vec v) { return m ? k : v; }
};

/// No block transposes: tile_kernels.hpp's transpose copies element by element.
struct transpose32 {
  static constexpr int block = 0;
  static void block_transpose(const void*, std::ptrdiff_t, void*, std::ptrdiff_t) {}
};

} // namespace apsp::detail::cpu::scalar
