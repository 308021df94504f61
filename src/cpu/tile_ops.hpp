#pragma once
// The per-ISA tile routines of the blocked Floyd-Warshall, reached through function pointers so
// that the orchestration (blocked_fw.cpp) is compiled once, with no ISA flags.
//
// Packed tiles are row-major with row stride `ld` >= the tile edge rounded up to `packed_align`
// elements, rows 64-byte aligned; the columns past the valid ones are padding that the routines may
// read and write (it holds bounded values, so integer sums never overflow). Via tiles have the same
// shape as distance tiles. Every routine follows Floyd-Warshall's order exactly: pivots k in
// increasing order, d = relax(d, a, b) with the via set to k0 + k only on a strict improvement, so
// the cpu back end matches the reference bit for bit.

#include <cstddef>
#include <cstdint>

#include "cpu/cpu_isa.hpp"

namespace apsp::detail::cpu {

/// Packed rows hold at least the tile edge rounded up to this (every kernel strip width divides
/// it).
inline constexpr std::ptrdiff_t packed_align = 64;

template <class T> struct tile_ops {
  /// Phase 1: plain Floyd-Warshall on the kb x kb pivot tile `w` (`vw` may be null: no paths).
  /// Before pivot k it stores row_snap[k][:] = w[k][:] and col_snap[k][x] = w[x][k].
  void (*pivot)(T* w, std::int32_t* vw, std::ptrdiff_t ld, int kb, T* row_snap, T* col_snap,
                std::int32_t k0);
  /// Phase 2: for k < kb, snap[k][:] = w[k][:], then w[x][:] = relax(w[x][:], coef[k][x],
  /// w[k][:]) for x < kb, over the first `cols` columns (rounded up to the vector width).
  void (*panel)(T* w, std::int32_t* vw, std::ptrdiff_t ld, int kb, int cols, const T* coef, T* snap,
                std::int32_t k0);
  /// Phase 3: c[i][j] = relax(c[i][j], a[k][i], b[k][j]) for k < kb, i < rows, j < cols; `a` and
  /// `b` are packed (stride ld), `c` and `vc` (null: no paths) have stride ldc. `next_a` and
  /// `next_b` (each may be null) are the packed operands (kb rows, stride ld) of the product this
  /// thread runs next: their lines are fetched into the cache a few at a time while this one
  /// computes, since operands that other cores just wrote would otherwise arrive one miss at a
  /// time (the hardware prefetchers do not follow the kernel's strided rows).
  void (*product)(const T* a, const T* b, std::ptrdiff_t ld, int kb, T* c, std::int32_t* vc,
                  std::ptrdiff_t ldc, int rows, int cols, std::int32_t k0, const T* next_a,
                  const T* next_b);
  /// Phase 3 as `product`, but a micro-tile row is written back only where a pivot changed it:
  /// a product over a matrix that the pivots mostly leave as it is (the supernodal solver's
  /// steps with few pivots over many rows, bound by memory) then dirties, and writes back to
  /// memory, only the cache lines that changed. The same values as `product`.
  void (*product_sparse)(const T* a, const T* b, std::ptrdiff_t ld, int kb, T* c, std::int32_t* vc,
                         std::ptrdiff_t ldc, int rows, int cols, std::int32_t k0, const T* next_a,
                         const T* next_b);
  /// dst[x][i] = src[i][x] for i < rows, x < cols (strides lds and ldd): the column panels'
  /// copies into and out of their transposed scratch tile, for distances and for vias.
  void (*transpose)(const T* src, std::ptrdiff_t lds, T* dst, std::ptrdiff_t ldd, int rows,
                    int cols);
  void (*transpose_via)(const std::int32_t* src, std::ptrdiff_t lds, std::int32_t* dst,
                        std::ptrdiff_t ldd, int rows, int cols);
};

// One per ISA, each defined in its own translation unit built with that ISA's flags. `negative`:
// the graph has negative weights (integer sums then clamp at -infinity, floats use a true
// floating-point min).
template <class T> [[nodiscard]] tile_ops<T> scalar_tile_ops(bool negative, bool paths);
template <class T> [[nodiscard]] tile_ops<T> avx2_tile_ops(bool negative, bool paths);
template <class T> [[nodiscard]] tile_ops<T> avx512_tile_ops(bool negative, bool paths);

template <class T> [[nodiscard]] tile_ops<T> select_tile_ops(isa i, bool negative, bool paths) {
  switch (i) {
  case isa::avx512:
    return avx512_tile_ops<T>(negative, paths);
  case isa::avx2:
    return avx2_tile_ops<T>(negative, paths);
  case isa::scalar:
    break;
  }
  return scalar_tile_ops<T>(negative, paths);
}

} // namespace apsp::detail::cpu
