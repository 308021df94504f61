#pragma once
// Eight int32 via values in one ymm register: the via of AVX2's 32-bit lanes and of AVX-512's
// 64-bit lanes. Include only from translation units built with AVX2 or AVX-512 flags.

#include <immintrin.h>

#include <cstdint>

namespace apsp::detail::cpu {

/// Load, store and broadcast of eight via values; selecting under a mask is the ISA's own.
/// `IsaTag`, a type of the including instruction set's namespace, makes each instruction set's
/// copy a distinct entity, so the linker never merges code built with different flags.
template <class IsaTag> struct ymm_via {
  using via_vec = __m256i;
  static via_vec load_via(const std::int32_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static void store_via(std::int32_t* p, via_vec v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  }
  static via_vec set1_via(std::int32_t k) { return _mm256_set1_epi32(k); }
};

} // namespace apsp::detail::cpu
