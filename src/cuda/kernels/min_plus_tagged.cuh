#pragma once
// Phase 3 with the path matrix at the speed of the distance kernel, for int32 (negative weights
// included) and float32 matrices of whole numbers: the pivot index rides in the low bits of the
// sums.
//
// After phase 2, tag_slice_kernel copies the two pivot panels of the round into side buffers
// as tagged values: B'(k, j) = B(k, j) * 128 and A'(i, k) = A(i, k) * 128 + k. Then
//   A'(i, k) + B'(k, j) = (A(i, k) + B(k, j)) * 128 + k,
// so the plain min-plus product of the tagged panels -- the distance kernel's main loop, one
// VIADDMNMX per update -- yields per output the minimum sum in the high bits and, among the k
// reaching it, the smallest in the low 7: exactly the pivot a sequential scan keeps (the first k
// reaching the minimum), with no rescan in the epilogue. The arithmetic shift takes the sum back
// for negative sums too (the tag is 0..127 above a multiple of 128).
//
// Two ranges of finite panel values keep every sum inside 31 bits and apart from "no path"
// (infinity is tagged as 2^30 - 128, and two of them still fit):
//   unsigned, 0 <= v < 2^22: finite sums stay below 2^30 - 128, the tagged infinity;
//   signed, -2^21 <= v < 2^21 (negative weights): finite sums lie in [-2^29, 2^29), a sum with
//     an infinite operand at or above 2^30 - 128 - 2^28 > 2^29.
// The slice's flag collects which ranges some value falls outside (tag_outside_*); the product
// takes the first range that holds every value, and a slice outside both runs the rescanning
// kernels instead (min_plus_paths_kernel, min_plus_gemm_via_kernel: needs_rescan).
// The out-of-core and multi-GPU products (gemm_driver.cuh) use the same tag and product kernels
// per 128-wide k slice, with min_plus_gemm_via_kernel as the fallback.

#include <cstdint>
#include <type_traits>

#include "cuda/kernels/min_plus_pipelined.cuh"

namespace apsp::cuda::kernels {

inline constexpr int tag_bits = 7;                                      // log2(fw_tile)
inline constexpr std::int32_t tag_limit = std::int32_t{1} << 22;        // unsigned range: v < this
inline constexpr std::int32_t signed_tag_limit = std::int32_t{1} << 21; // signed: |v| below
inline constexpr std::int32_t tagged_infinity = (std::int32_t{1} << 30) - fw_tile;
/// Tagged sums below this are finite paths under the signed range.
inline constexpr std::int32_t signed_finite_bound = std::int32_t{1} << 29;
static_assert(fw_tile == 1 << tag_bits);

/// Tagged sums below this are paths, for a slice whose flag (tag_outside_*) allows tagging.
__device__ __forceinline__ std::int32_t finite_bound(int flags) {
  return (flags & tag_outside_unsigned) != 0 ? signed_finite_bound : tagged_infinity;
}

/// Where int32 values count as "no path" with negative weights (Clamp): sums with infinity drift
/// below it by up to twice the distance bound, which core/checks.cpp keeps below a third of
/// infinity, so every real distance lies below this and every drifted "no path" at or above.
inline constexpr std::int32_t clamped_no_path_from = int32_infinity / 3;

/// The tagged form of one matrix value (without its pivot tag): 128 v for a whole number v,
/// tagged_infinity for "no path" (with Clamp, drifted ones too: the core resets them to
/// infinity and their via to none at the end, so they need no pivot); returns the tag_outside_*
/// bits of the ranges v is not in (both for a float with a fraction, or -infinity: float32 matrices
/// of whole numbers take the integer route exactly, as every sum of two of them is exact in float
/// too).
template <class T, bool Clamp> __device__ __forceinline__ int tag_of(T v, std::int32_t& tagged) {
  constexpr int outside = tag_outside_unsigned | tag_outside_signed;
  std::int32_t w = 0;
  if constexpr (std::is_same_v<T, std::int32_t>) {
    if (v == int32_infinity || (Clamp && v >= clamped_no_path_from)) {
      tagged = tagged_infinity;
      return 0;
    }
    w = v;
  } else {
    static_assert(std::is_same_v<T, float>);
    if (isinf(v) && v > 0.0f) {
      tagged = tagged_infinity;
      return 0;
    }
    if (!(v >= -static_cast<float>(tag_limit) && v < static_cast<float>(tag_limit) &&
          v == truncf(v))) {
      tagged = tagged_infinity;
      return outside;
    }
    w = static_cast<std::int32_t>(v);
  }
  int bits = 0;
  if (!(w >= 0 && w < tag_limit))
    bits |= tag_outside_unsigned;
  if (!(w >= -signed_tag_limit && w < signed_tag_limit))
    bits |= tag_outside_signed;
  // Only used where some range holds: |w| < 2^22, so 128 w fits.
  tagged = bits == outside ? tagged_infinity : w * fw_tile;
  return bits;
}

/// Writes tagged copies of one 128-wide k slice: a_tag [rows][128] from a (rows x 128, stride
/// lda) and b_tag [128][cols] from b (128 x cols, stride ldb); ORs into *overflow the ranges
/// some value falls outside (tag_of).
template <class T, bool Clamp>
__global__ void tag_slice_kernel(const T* a, std::int64_t lda, std::int64_t rows, const T* b,
                                 std::int64_t ldb, std::int64_t cols,
                                 std::int32_t* __restrict__ a_tag, std::int32_t* __restrict__ b_tag,
                                 int* __restrict__ overflow) {
  const std::int64_t a_cells = rows * fw_tile;
  const std::int64_t total = a_cells + fw_tile * cols;
  const auto cols32 = static_cast<std::uint32_t>(cols); // < 2^31: 32-bit division below
  int bits = 0;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const bool is_a = e < a_cells;
    T v{};
    std::int32_t tag = 0;
    if (is_a) {
      tag = static_cast<std::int32_t>(e & (fw_tile - 1));
      v = a[(e >> tag_bits) * lda + tag];
    } else {
      const auto f = static_cast<std::uint32_t>(e - a_cells); // < 128 * cols
      const std::uint32_t k = f / cols32;
      v = b[static_cast<std::int64_t>(k) * ldb + (f - k * cols32)];
    }
    std::int32_t tagged = 0;
    bits |= tag_of<T, Clamp>(v, tagged);
    if (tagged != tagged_infinity)
      tagged += tag;
    if (is_a)
      a_tag[e] = tagged;
    else
      b_tag[e - a_cells] = tagged;
  }
  const int outside_unsigned = __syncthreads_or(bits & tag_outside_unsigned);
  const int outside_signed = __syncthreads_or(bits & tag_outside_signed);
  const int block_bits = (outside_unsigned != 0 ? tag_outside_unsigned : 0) |
                         (outside_signed != 0 ? tag_outside_signed : 0);
  if (block_bits != 0 && threadIdx.x == 0)
    atomicOr(overflow, block_bits);
}

/// C = min(C, A (x) B) for one 128-wide k slice from its tagged copies (returns at once when
/// the slice needs the rescan, needs_rescan(*overflow)), each improved element's pivot k_base + k
/// into via (laid out like C). Block b updates tile (ti, tj): with FwMap the b-th tile of `set`
/// in round fw_round of a grid of `tiles` (the in-core solve; C is the whole matrix), else tile (b
/// / tiles, b % tiles) of a product `tiles` tile columns wide. Rows and pivots from n on are
/// padding and skipped as in min_plus_pipelined_kernel (n relative to C's first row and
/// k_base's first pivot; the products pass n >= their extent).
template <class T, bool FwMap>
__global__ void __launch_bounds__(mp_threads, 2)
    min_plus_tagged_kernel(T* __restrict__ c, std::int32_t* __restrict__ via, std::int64_t ldc,
                           const std::int32_t* a_tag, const std::int32_t* b_tag,
                           std::int64_t b_cols, std::int32_t k_base, const int* overflow,
                           int fw_round, int tiles, std::int64_t n, int set = rest) {
  static_assert(fw_tile == 128 && mp_threads == 256, "thread map assumes 16 x 16 threads");
  const int flags = *overflow;
  if (needs_rescan(flags))
    return;
  const std::int32_t bound = finite_bound(flags);
  using ops = min_plus<std::int32_t, false>; // on the tags, whatever T is
  using vec4 = typename min_plus<T, false>::vec4;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto* s_ring = reinterpret_cast<std::int32_t*>(smem_raw);

  int ti = 0;
  int tj = 0;
  if constexpr (FwMap) {
    tile_of_block(fw_round, tiles, set, ti, tj);
  } else {
    ti = static_cast<int>(blockIdx.x) / tiles;
    tj = static_cast<int>(blockIdx.x) - ti * tiles;
  }
  const std::int64_t row0 = static_cast<std::int64_t>(ti) * fw_tile;
  const std::int64_t col0 = static_cast<std::int64_t>(tj) * fw_tile;
  const int t = static_cast<int>(threadIdx.x);
  const int k_chunks = live_k_chunks(n, k_base, pipe_chunk_k);
  const int tx = t & 15;
  const int ty = t >> 4;
  T* g_c = c + row0 * ldc + col0;
  std::int32_t* g_v = via + row0 * ldc + col0;
  std::int32_t r_acc[8][8];
  // The merge of one output: its tagged sum `acc` against the old value, true if it improved.
  const auto merge = [bound, k_base](std::int32_t acc, T& old, std::int32_t& v) {
    // floor: the tag is the low 7 bits; a whole number below 2^23, exact as a float
    const T sum = static_cast<T>(acc >> tag_bits);
    // A sum with an infinite operand is at least the bound: not a path.
    const bool improved = acc < bound && sum < old;
    if (improved) {
      old = sum;
      v = k_base + (acc & (fw_tile - 1));
    }
    return improved;
  };
  const int live_cols = live_lines(n, col0);
  if (FwMap && transposed_tile(set, ti, tj, tiles, live_cols)) {
    // Transposed, as min_plus_pipelined_kernel does: C^T from B^T (x) A^T, only live columns.
    const bool live = warp_has_live_rows(n, col0, t);
    ring_min_plus<ops, true>(r_acc, b_tag + col0, static_cast<int>(b_cols), a_tag + row0 * fw_tile,
                             fw_tile, k_chunks, s_ring, t, live);
    const int c0 = tile_line(ty, 0);
    if (!live || c0 >= live_cols)
      return;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const std::int64_t line = tile_line(tx, j) * ldc;
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        if (c0 + q < live_cols) {
          T old = g_c[line + c0 + q];
          if (merge(r_acc[q][j], old, g_v[line + c0 + q]))
            g_c[line + c0 + q] = old;
        }
      }
    }
    return;
  }
  const bool live_rows = warp_has_live_rows(n, row0, t);
  ring_min_plus<ops>(r_acc, a_tag + row0 * fw_tile, fw_tile, b_tag + col0, static_cast<int>(b_cols),
                     k_chunks, s_ring, t, live_rows);
  if (!live_rows)
    return;

  // The old values of merge_batch_rows rows before any store (load_old_rows).
  constexpr int rows = merge_batch_rows;
  const auto col_of = [tx](int h) { return tile_line(tx, h * 4); };
#pragma unroll
  for (int i0 = 0; i0 < 8; i0 += rows) {
    vec4 r_old[rows][2];
    load_old_rows(r_old, g_c, ldc, i0, ty, col_of);
#pragma unroll
    for (int ih = 0; ih < 2 * rows; ++ih) {
      const int i = i0 + ih / 2;
      const int h = ih % 2;
      const std::int64_t line = tile_line(ty, i) * ldc;
      const int col = col_of(h);
      auto* g_d = reinterpret_cast<vec4*>(g_c + line + col);
      vec4 v = r_old[ih / 2][h];
      bool any = false;
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        T old = lane_of(v, q);
        if (merge(r_acc[i][h * 4 + q], old, g_v[line + col + q])) {
          set_lane(v, q, old);
          any = true;
        }
      }
      if (any)
        *g_d = v;
    }
  }
}

} // namespace apsp::cuda::kernels
