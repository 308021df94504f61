#pragma once
// Row relaxations for the supernodal Floyd-Warshall (src/cpu/supernodal_fw.cpp): one pivot row
// applied to one contiguous stretch of a matrix row. Plain loops, compiled once per ISA
// (row_relax.cpp.in) so that the compiler vectorises them with that ISA's min and blend.

#include <cstdint>

#include "cpu/cpu_isa.hpp"

namespace apsp::detail::cpu {

template <class T> struct row_relax_ops {
  /// d[j] = min(d[j], a + b[j]) for j < len; `clamped` saturates sums at -infinity (integer
  /// types with negative weights, so that a negative cycle cannot overflow).
  void (*relax)(T* d, const T* b, T a, std::int64_t len);
  void (*relax_clamped)(T* d, const T* b, T a, std::int64_t len);
  /// The same, and v[j] = k where the sum is strictly smaller (the path matrix's pivot).
  void (*relax_via)(T* d, std::int32_t* v, const T* b, T a, std::int32_t k, std::int64_t len);
  void (*relax_via_clamped)(T* d, std::int32_t* v, const T* b, T a, std::int32_t k,
                            std::int64_t len);
};

template <class T> row_relax_ops<T> scalar_row_relax_ops();
template <class T> row_relax_ops<T> avx2_row_relax_ops();
template <class T> row_relax_ops<T> avx512_row_relax_ops();

/// The ops for selected_isa() (APSP_CPU_ISA may force one).
template <class T> row_relax_ops<T> row_relax_for(isa i) {
  switch (i) {
  case isa::avx512:
    return avx512_row_relax_ops<T>();
  case isa::avx2:
    return avx2_row_relax_ops<T>();
  case isa::scalar:
    break;
  }
  return scalar_row_relax_ops<T>();
}

} // namespace apsp::detail::cpu
