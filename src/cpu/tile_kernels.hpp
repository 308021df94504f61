#pragma once
// The tile routines of tile_ops.hpp written once over a SIMD wrapper `S` (simd_*.hpp) and
// compiled once per ISA. Every template here takes `S`, whose type differs per ISA, so the copies
// built with different flags never share a symbol (no ODR mix-up can let AVX-512 code run on an
// AVX2-only machine). For the same reason nothing here calls a standard-library template.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "apsp/matrix.hpp"
#include "apsp/types.hpp"
#include "cpu/tile_ops.hpp"

namespace apsp::detail::cpu {

/// d = relax(d, a, b) on vectors, and via = k where it strictly improved. `Negative`: the graph
/// has negative weights, so integer sums clamp at -infinity (detail::relax) and floats need a
/// true floating-point min; without them floats compare as integers (simd_avx512.hpp).
template <class S, bool Negative, bool Paths>
inline __attribute__((always_inline)) void relax_vec(typename S::vec& d, typename S::via_vec& via,
                                                     typename S::vec a, typename S::vec b,
                                                     typename S::via_vec k) {
  auto s = S::add(a, b);
  if constexpr (Negative || !std::is_floating_point_v<typename S::value_type>) {
    if constexpr (Negative)
      s = S::clamp_low(s);
    if constexpr (Paths)
      via = S::select_via(S::less(s, d), k, via);
    d = S::min(s, d);
  } else {
    if constexpr (Paths)
      via = S::select_via(S::less_nonnegative(s, d), k, via);
    d = S::min_nonnegative(s, d);
  }
}

/// Row x's columns [from, width), one vector at a time: wx = relax(wx, a, wk) and vx = k where
/// it strictly improved (vx is null without paths).
template <class S, bool Negative, bool Paths>
inline __attribute__((always_inline)) void
relax_row(typename S::value_type* wx, std::int32_t* vx, typename S::vec a,
          const typename S::value_type* wk, typename S::via_vec kv, int from, int width) {
  for (int q = from; q < width; q += S::lanes) {
    auto d = S::load(wx + q);
    typename S::via_vec v{};
    if constexpr (Paths)
      v = S::load_via(vx + q);
    relax_vec<S, Negative, Paths>(d, v, a, S::load(wk + q), kv);
    S::store(wx + q, d);
    if constexpr (Paths)
      S::store_via(vx + q, v);
  }
}

/// An MR x NR block of vectors (and their vias) at c (stride ldc) into registers and back.
template <class S, bool Paths, int MR, int NR>
inline __attribute__((always_inline)) void
load_registers(typename S::vec (&acc)[MR][NR], typename S::via_vec (&vacc)[MR][NR],
               const typename S::value_type* c, const std::int32_t* vc, std::ptrdiff_t ldc) {
  constexpr int L = S::lanes;
#pragma GCC unroll 16
  for (int m = 0; m < MR; ++m) {
#pragma GCC unroll 16
    for (int v = 0; v < NR; ++v) {
      acc[m][v] = S::load(c + m * ldc + v * L);
      if constexpr (Paths)
        vacc[m][v] = S::load_via(vc + m * ldc + v * L);
    }
  }
}

/// `Sparse`: a row of the block is stored only where some lane improved on what c holds (the
/// relaxations only lower values, so an unchanged row equals c's and its lines stay clean).
template <class S, bool Paths, int MR, int NR, bool Sparse = false>
inline __attribute__((always_inline)) void
store_registers(const typename S::vec (&acc)[MR][NR], const typename S::via_vec (&vacc)[MR][NR],
                typename S::value_type* c, std::int32_t* vc, std::ptrdiff_t ldc) {
  constexpr int L = S::lanes;
#pragma GCC unroll 16
  for (int m = 0; m < MR; ++m) {
    if constexpr (Sparse) {
      bool changed = false;
#pragma GCC unroll 16
      for (int v = 0; v < NR; ++v)
        changed |= S::any(S::less(acc[m][v], S::load(c + m * ldc + v * L)));
      if (!changed)
        continue;
    }
#pragma GCC unroll 16
    for (int v = 0; v < NR; ++v) {
      S::store(c + m * ldc + v * L, acc[m][v]);
      if constexpr (Paths)
        S::store_via(vc + m * ldc + v * L, vacc[m][v]);
    }
  }
}

/// Cache lines for a product to fetch while it computes (tile_ops::product's next operands): up
/// to two ranges, taken in order, one line every 2^shift pivot steps of each micro-tile.
struct line_fetch {
  static constexpr std::ptrdiff_t line = 64;
  const char* at[2] = {nullptr, nullptr};
  std::ptrdiff_t lines[2] = {0, 0};
  int shift = 0;

  /// Adds `bytes` from `p` (nothing if p is null).
  void add(const void* p, std::ptrdiff_t bytes) {
    const int s = lines[0] > 0 ? 1 : 0;
    if (p == nullptr || bytes <= 0)
      return;
    at[s] = static_cast<const char*>(p);
    lines[s] = (bytes + line - 1) / line;
  }
  /// Spreads the lines over `steps` pivot steps: the largest spacing that still covers them.
  void spread(std::ptrdiff_t steps) {
    const std::ptrdiff_t total = lines[0] + lines[1];
    shift = 0;
    while (shift < 3 && total > 0 && (total << (shift + 1)) <= steps)
      ++shift;
  }
  /// The next run of up to `most` consecutive lines: where it starts, and how many (0: none).
  int take(int most, const char** start) {
    for (int s = 0; s < 2; ++s) {
      if (lines[s] <= 0)
        continue;
      const int n = lines[s] < most ? static_cast<int>(lines[s]) : most;
      *start = at[s];
      at[s] += n * line;
      lines[s] -= n;
      return n;
    }
    return 0;
  }
};

/// The register-blocked min-plus kernel: an MR x (NR * lanes) block of c (stride ldc) against
/// a[k][0..MR) and b[k][0..NR*lanes) for k < kb (both stride ld), all held in registers. With
/// `Fetch`, it also prefetches `fetch_lines` lines from `fetch` into the cache, one every
/// 2^shift pivot steps.
template <class S, bool Negative, bool Paths, int MR, int NR, bool Fetch = false,
          bool Sparse = false>
inline __attribute__((always_inline)) void
micro_kernel(const typename S::value_type* a, const typename S::value_type* b, std::ptrdiff_t ld,
             int kb, typename S::value_type* c, std::int32_t* vc, std::ptrdiff_t ldc,
             std::int32_t k0, const char* fetch = nullptr, int fetch_lines = 0, int shift = 0) {
  constexpr int L = S::lanes;
  typename S::vec acc[MR][NR];
  typename S::via_vec vacc[MR][NR] = {};
  load_registers<S, Paths>(acc, vacc, c, vc, ldc);
  const int every = (1 << shift) - 1;
  for (int k = 0; k < kb; ++k) {
    if constexpr (Fetch) {
      if ((k & every) == 0 && (k >> shift) < fetch_lines)
        __builtin_prefetch(fetch + (k >> shift) * line_fetch::line, 0, 2);
    }
    const auto* ak = a + k * ld;
    const auto* bk = b + k * ld;
    typename S::vec bv[NR];
#pragma GCC unroll 16
    for (int v = 0; v < NR; ++v)
      bv[v] = S::load(bk + v * L);
    typename S::via_vec kv{};
    if constexpr (Paths)
      kv = S::set1_via(k0 + k);
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) {
      const auto av = S::set1(ak[m]);
#pragma GCC unroll 16
      for (int v = 0; v < NR; ++v)
        relax_vec<S, Negative, Paths>(acc[m][v], vacc[m][v], av, bv[v], kv);
    }
  }
  store_registers<S, Paths, MR, NR, Sparse>(acc, vacc, c, vc, ldc);
}

/// Phase 3 on one tile for a chunk of pivots: full micro-tiles run in place; partial ones at the
/// tile's bottom and right edges run on a padded copy, so the kernel never needs masks.
template <class S, bool Negative, bool Paths, bool Sparse>
void product_chunk(const typename S::value_type* a, const typename S::value_type* b,
                   std::ptrdiff_t ld, int kb, typename S::value_type* c, std::int32_t* vc,
                   std::ptrdiff_t ldc, int rows, int cols, std::int32_t k0, line_fetch& fetch) {
  using T = typename S::value_type;
  constexpr int MR = Paths ? S::mr_paths : S::mr;
  constexpr int NR = Paths ? S::nr_paths : S::nr;
  constexpr int W = NR * S::lanes;
  for (int j0 = 0; j0 < cols; j0 += W) {
    const int w = cols - j0 < W ? cols - j0 : W;
    for (int i0 = 0; i0 < rows; i0 += MR) {
      const int h = rows - i0 < MR ? rows - i0 : MR;
      T* ct = c + i0 * ldc + j0;
      std::int32_t* vt = Paths ? vc + i0 * ldc + j0 : nullptr;
      // The next micro-tile down the strip is MR rows n elements apart: fetch it while this one
      // computes (about a thousand cycles), since the hardware prefetcher does not follow.
      if (i0 + 2 * MR <= rows) {
        for (int m = 0; m < MR; ++m) {
          for (int q = 0; q < W; q += 64 / static_cast<int>(sizeof(T))) {
            __builtin_prefetch(ct + (MR + m) * ldc + q, 1);
          }
        }
      }
      const char* f = nullptr;
      const int nf = fetch.take((kb + (1 << fetch.shift) - 1) >> fetch.shift, &f);
      // The micro-tile on c (stride ldc), fetching its share of lines where there are any.
      const auto kernel = [&](T * c_at, std::int32_t * vc_at, std::ptrdiff_t ldc_at)
          __attribute__((always_inline)) {
        if (nf > 0) {
          micro_kernel<S, Negative, Paths, MR, NR, true, Sparse>(
              a + i0, b + j0, ld, kb, c_at, vc_at, ldc_at, k0, f, nf, fetch.shift);
        } else {
          micro_kernel<S, Negative, Paths, MR, NR, false, Sparse>(a + i0, b + j0, ld, kb, c_at,
                                                                  vc_at, ldc_at, k0);
        }
      };
      if (h == MR && w == W) {
        kernel(ct, vt, ldc);
        continue;
      }
      alignas(64) T cbuf[MR * W];
      alignas(64) std::int32_t vbuf[MR * W];
      for (int m = 0; m < MR; ++m) {
        for (int q = 0; q < W; ++q) {
          const bool inside = m < h && q < w;
          cbuf[m * W + q] = inside ? ct[m * ldc + q] : weight_traits<T>::infinity;
          vbuf[m * W + q] = inside && Paths ? vt[m * ldc + q] : no_via;
        }
      }
      kernel(cbuf, vbuf, W);
      for (int m = 0; m < h; ++m) {
        for (int q = 0; q < w; ++q) {
          if (Sparse && !(cbuf[m * W + q] < ct[m * ldc + q]))
            continue;
          ct[m * ldc + q] = cbuf[m * W + q];
          if constexpr (Paths)
            vt[m * ldc + q] = vbuf[m * W + q];
        }
      }
    }
  }
}

/// Phase 3 on one tile (see tile_ops::product and product_sparse).
template <class S, bool Negative, bool Paths, bool Sparse = false>
void product_tile(const typename S::value_type* a, const typename S::value_type* b,
                  std::ptrdiff_t ld, int kb, typename S::value_type* c, std::int32_t* vc,
                  std::ptrdiff_t ldc, int rows, int cols, std::int32_t k0,
                  const typename S::value_type* next_a, const typename S::value_type* next_b) {
  using T = typename S::value_type;
  constexpr int MR = Paths ? S::mr_paths : S::mr;
  constexpr int NR = Paths ? S::nr_paths : S::nr;
  constexpr int W = NR * S::lanes;
  static_assert(packed_align % W == 0, "a strip must not run past the packed row stride");
  line_fetch fetch;
  const auto operand_bytes = static_cast<std::ptrdiff_t>(kb) * ld * static_cast<int>(sizeof(T));
  fetch.add(next_a, operand_bytes);
  fetch.add(next_b, operand_bytes);
  fetch.spread(static_cast<std::ptrdiff_t>((rows + MR - 1) / MR) * ((cols + W - 1) / W) * kb);
  // Pivots in chunks whose kc x W strip of b (16 KiB) stays in L1 while a column of micro-tiles
  // streams past it; chunks run in pivot order, so vias still name the last improving pivot.
  constexpr int kc_max = 16384 / (W * static_cast<int>(sizeof(T)));
  static_assert(kc_max >= 8, "strip too wide for the L1 budget");
  for (int kc0 = 0; kc0 < kb; kc0 += kc_max) {
    const int kc = kb - kc0 < kc_max ? kb - kc0 : kc_max;
    product_chunk<S, Negative, Paths, Sparse>(a + kc0 * ld, b + kc0 * ld, ld, kc, c, vc, ldc, rows,
                                              cols, k0 + kc0, fetch);
  }
}

/// The pivots of one group of MR rows of a panel (panel_tile) on one strip of NR vectors: the
/// group's rows stay in registers while each pivot k of the group stores row k as its snapshot
/// and relaxes every row of the group with it. `w`, `vw` and `snap` point at the group's first
/// row in the strip, `coef` at coef[x0][x0] (coef[k][x] = coef[k * ld + x]). Row k itself is
/// relaxed in row order, as the reference does: the rows after it see its new value.
template <class S, bool Negative, bool Paths, int MR, int NR>
inline __attribute__((always_inline)) void
group_pivots(typename S::value_type* w, std::int32_t* vw, std::ptrdiff_t ld,
             const typename S::value_type* coef, typename S::value_type* snap, std::int32_t k0) {
  constexpr int L = S::lanes;
  typename S::vec acc[MR][NR];
  typename S::via_vec vacc[MR][NR] = {};
  load_registers<S, Paths>(acc, vacc, w, vw, ld);
#pragma GCC unroll 16
  for (int k = 0; k < MR; ++k) {
    typename S::vec bk[NR];
#pragma GCC unroll 16
    for (int v = 0; v < NR; ++v) {
      bk[v] = acc[k][v];
      S::store(snap + k * ld + v * L, bk[v]);
    }
    typename S::via_vec kv{};
    if constexpr (Paths)
      kv = S::set1_via(k0 + k);
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) {
      const auto a = S::set1(coef[k * ld + m]);
#pragma GCC unroll 16
      for (int v = 0; v < NR; ++v)
        relax_vec<S, Negative, Paths>(acc[m][v], vacc[m][v], a, m > k ? acc[k][v] : bk[v], kv);
    }
  }
  store_registers<S, Paths>(acc, vacc, w, vw, ld);
}

/// Phase 2 (see tile_ops::panel). Row x needs pivots k < x only through snap[k], and snap[x] is
/// row x once pivots k < x are applied; so rows go in groups of MR: the pivots before the group
/// through the register-blocked kernel, the group's own pivots in registers strip by strip
/// (group_pivots; as plain rank-1 updates on the columns past the last whole strip and for a
/// last group of fewer rows), taking their snapshots, and after every group has its snapshot,
/// the pivots after each group through the kernel again. Every element still sees its pivots in
/// increasing order.
template <class S, bool Negative, bool Paths>
void panel_tile(typename S::value_type* w, std::int32_t* vw, std::ptrdiff_t ld, int kb, int cols,
                const typename S::value_type* coef, typename S::value_type* snap, std::int32_t k0) {
  constexpr int L = S::lanes;
  constexpr int MR = Paths ? S::mr_paths : S::mr;
  constexpr int NR = Paths ? S::nr_paths : S::nr;
  constexpr int W = NR * L;
  const int width = (cols + L - 1) / L * L;
  std::int32_t* no_rows = nullptr;
  const auto rows_of = [&](int x0) { return kb - x0 < MR ? kb - x0 : MR; };
  for (int x0 = 0; x0 < kb; x0 += MR) {
    const int h = rows_of(x0);
    if (x0 > 0) {
      product_tile<S, Negative, Paths>(coef + x0, snap, ld, x0, w + x0 * ld,
                                       Paths ? vw + x0 * ld : no_rows, ld, h, cols, k0, nullptr,
                                       nullptr);
    }
    int rank1_from = 0; // columns from here on take the plain rank-1 updates
    if (h == MR) {
      for (; rank1_from + W <= width; rank1_from += W) {
        group_pivots<S, Negative, Paths, MR, NR>(
            w + x0 * ld + rank1_from, Paths ? vw + x0 * ld + rank1_from : no_rows, ld,
            coef + x0 * ld + x0, snap + x0 * ld + rank1_from, k0 + x0);
      }
    }
    if (rank1_from == width)
      continue;
    for (int k = x0; k < x0 + h; ++k) {
      const auto* wk = w + k * ld;
      for (int q = rank1_from; q < width; q += L)
        S::store(snap + k * ld + q, S::load(wk + q));
      typename S::via_vec kv{};
      if constexpr (Paths)
        kv = S::set1_via(k0 + k);
      for (int x = x0; x < x0 + h; ++x) {
        const auto a = S::set1(coef[k * ld + x]);
        auto* wx = w + x * ld;
        std::int32_t* vx = Paths ? vw + x * ld : nullptr;
        relax_row<S, Negative, Paths>(wx, vx, a, wk, kv, rank1_from, width);
      }
    }
  }
  for (int x0 = 0; x0 < kb; x0 += MR) {
    const int after = x0 + rows_of(x0);
    if (after >= kb)
      break;
    product_tile<S, Negative, Paths>(coef + after * ld + x0, snap + after * ld, ld, kb - after,
                                     w + x0 * ld, Paths ? vw + x0 * ld : no_rows, ld, rows_of(x0),
                                     cols, k0 + after, nullptr, nullptr);
  }
}

/// Phase 1 (see tile_ops::pivot): Floyd-Warshall in place on the packed pivot tile, reading
/// w[x][k] and w[k][:] live as the reference does.
template <class S, bool Negative, bool Paths>
void pivot_tile(typename S::value_type* w, std::int32_t* vw, std::ptrdiff_t ld, int kb,
                typename S::value_type* row_snap, typename S::value_type* col_snap,
                std::int32_t k0) {
  constexpr int L = S::lanes;
  const int width = (kb + L - 1) / L * L;
  for (int k = 0; k < kb; ++k) {
    const auto* wk = w + k * ld;
    for (int q = 0; q < width; q += L)
      S::store(row_snap + k * ld + q, S::load(wk + q));
    for (int x = 0; x < kb; ++x)
      col_snap[k * ld + x] = w[x * ld + k];
    typename S::via_vec kv{};
    if constexpr (Paths)
      kv = S::set1_via(k0 + k);
    for (int x = 0; x < kb; ++x) {
      auto* wx = w + x * ld;
      const auto a = S::set1(wx[k]);
      std::int32_t* vx = Paths ? vw + x * ld : nullptr;
      relax_row<S, Negative, Paths>(wx, vx, a, wk, kv, 0, width);
    }
  }
}

/// dst[x][i] = src[i][x] (see tile_ops::transpose): 4-byte elements in X's square blocks where
/// the ISA has them (X::block > 0), the edges and other sizes element by element.
template <class X, class E>
void transpose(const E* src, std::ptrdiff_t lds, E* dst, std::ptrdiff_t ldd, int rows, int cols) {
  constexpr int B = sizeof(E) == 4 ? X::block : 0;
  int i0 = 0;
  if constexpr (B > 0) {
    for (; i0 + B <= rows; i0 += B) {
      int x0 = 0;
      for (; x0 + B <= cols; x0 += B)
        X::block_transpose(src + i0 * lds + x0, lds, dst + x0 * ldd + i0, ldd);
      for (int i = i0; i < i0 + B; ++i) {
        for (int x = x0; x < cols; ++x)
          dst[x * ldd + i] = src[i * lds + x];
      }
    }
  }
  for (int i = i0; i < rows; ++i) {
    for (int x = 0; x < cols; ++x)
      dst[x * ldd + i] = src[i * lds + x];
  }
}

template <class S, class X, bool Negative, bool Paths>
tile_ops<typename S::value_type> tile_ops_for() {
  return {&pivot_tile<S, Negative, Paths>,          &panel_tile<S, Negative, Paths>,
          &product_tile<S, Negative, Paths, false>, &product_tile<S, Negative, Paths, true>,
          &transpose<X, typename S::value_type>,    &transpose<X, std::int32_t>};
}

/// The tile routines over SIMD wrapper S, with X's block transposes (simd_*.hpp transpose32).
template <class S, class X>
tile_ops<typename S::value_type> make_tile_ops(bool negative, bool paths) {
  if (negative)
    return paths ? tile_ops_for<S, X, true, true>() : tile_ops_for<S, X, true, false>();
  return paths ? tile_ops_for<S, X, false, true>() : tile_ops_for<S, X, false, false>();
}

} // namespace apsp::detail::cpu
