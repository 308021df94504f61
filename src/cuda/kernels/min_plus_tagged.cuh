#pragma once
// Phase 3 with the path matrix at the speed of the distance kernel, for int32 without negative
// weights (and float32 matrices of whole numbers): the pivot index rides in the low bits of
// the sums.
//
// After phase 2, tag_slice_kernel copies the two pivot panels of the round into side buffers
// as tagged values: B'(k, j) = B(k, j) * 128 and A'(i, k) = A(i, k) * 128 + k. Then
//   A'(i, k) + B'(k, j) = (A(i, k) + B(k, j)) * 128 + k,
// so the plain min-plus product of the tagged panels -- the distance kernel's main loop, one
// VIADDMNMX per update -- yields per output the minimum sum in the high bits and, among the k
// reaching it, the smallest in the low 7: exactly the pivot a sequential scan keeps (the first k
// reaching the minimum), with no rescan in the epilogue.
//
// That needs every finite panel value v to satisfy 0 <= v < 2^22 (so sums stay below 2^30);
// infinity is tagged as 2^30 - 128 (two of them still fit in 31 bits). A round whose panels
// hold anything else sets its overflow flag, and that round's phase 3 runs
// min_plus_paths_kernel instead (the two launches check the flag and one of them returns).
// The out-of-core and multi-GPU products (gemm_driver.cuh) use the same tag and product kernels
// per 128-wide k slice, with min_plus_gemm_via_kernel as the fallback.

#include <cstdint>
#include <type_traits>

#include "cuda/kernels/min_plus_pipelined.cuh"

namespace apsp::cuda::kernels {

inline constexpr int tag_bits = 7;                               // log2(fw_tile)
inline constexpr std::int32_t tag_limit = std::int32_t{1} << 22; // finite values < this
inline constexpr std::int32_t tagged_infinity = (std::int32_t{1} << 30) - fw_tile;
static_assert(fw_tile == 1 << tag_bits);

/// The tagged form of one matrix value (without its pivot tag): 128 v for a whole number v in
/// [0, 2^22), tagged_infinity for "no path"; false when v has no tagged form (negative, too
/// large, or a float with a fraction: float32 matrices of whole numbers below 2^22 take the
/// integer route exactly, as every sum of two of them is exact in float too).
template <class T> __device__ __forceinline__ bool tag_of(T v, std::int32_t& tagged) {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    if (v >= 0 && v < tag_limit) {
      tagged = v * fw_tile;
      return true;
    }
    tagged = tagged_infinity;
    return v == int32_infinity;
  } else {
    static_assert(std::is_same_v<T, float>);
    if (v >= 0.0f && v < static_cast<float>(tag_limit) && v == truncf(v)) {
      tagged = static_cast<std::int32_t>(v) * fw_tile;
      return true;
    }
    tagged = tagged_infinity;
    return isinf(v) && v > 0.0f;
  }
}

/// Writes tagged copies of one 128-wide k slice: a_tag [rows][128] from a (rows x 128, stride
/// lda) and b_tag [128][cols] from b (128 x cols, stride ldb); sets *overflow when a value
/// cannot be tagged (tag_of).
template <class T>
__global__ void tag_slice_kernel(const T* a, std::int64_t lda, std::int64_t rows, const T* b,
                                 std::int64_t ldb, std::int64_t cols,
                                 std::int32_t* __restrict__ a_tag, std::int32_t* __restrict__ b_tag,
                                 int* __restrict__ overflow) {
  const std::int64_t a_cells = rows * fw_tile;
  const std::int64_t total = a_cells + fw_tile * cols;
  const auto cols32 = static_cast<std::uint32_t>(cols); // < 2^31: 32-bit division below
  bool bad = false;
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
    if (tag_of(v, tagged)) {
      if (tagged != tagged_infinity)
        tagged += tag;
    } else {
      bad = true;
    }
    if (is_a)
      a_tag[e] = tagged;
    else
      b_tag[e - a_cells] = tagged;
  }
  if (__syncthreads_or(bad) && threadIdx.x == 0)
    *overflow = 1;
}

/// C = min(C, A (x) B) for one 128-wide k slice from its tagged copies (returns at once when
/// *overflow is set), each improved element's pivot k_base + k into via (laid out like C).
/// Block b updates tile (ti, tj): with FwMap the b-th phase-3 tile of round fw_round of a grid
/// of `tiles` (the in-core solve; C is the whole matrix), else tile (b / tiles, b % tiles) of a
/// product `tiles` tile columns wide.
template <class T, bool FwMap>
__global__ void __launch_bounds__(mp_threads, 2)
    min_plus_tagged_kernel(T* __restrict__ c, std::int32_t* __restrict__ via, std::int64_t ldc,
                           const std::int32_t* a_tag, const std::int32_t* b_tag,
                           std::int64_t b_cols, std::int32_t k_base, const int* overflow,
                           int fw_round, int tiles) {
  static_assert(fw_tile == 128 && mp_threads == 256, "thread map assumes 16 x 16 threads");
  if (*overflow != 0)
    return;
  using ops = min_plus<std::int32_t, false>; // on the tags, whatever T is
  using vec4 = typename min_plus<T, false>::vec4;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto* s_ring = reinterpret_cast<std::int32_t*>(smem_raw);

  int ti = 0;
  int tj = 0;
  if constexpr (FwMap) {
    tile_of_block(fw_round, tiles, false, ti, tj);
  } else {
    ti = static_cast<int>(blockIdx.x) / tiles;
    tj = static_cast<int>(blockIdx.x) - ti * tiles;
  }
  const std::int64_t row0 = static_cast<std::int64_t>(ti) * fw_tile;
  const std::int64_t col0 = static_cast<std::int64_t>(tj) * fw_tile;
  const int t = static_cast<int>(threadIdx.x);
  std::int32_t r_acc[8][8];
  ring_min_plus<ops>(r_acc, a_tag + row0 * fw_tile, fw_tile, b_tag + col0, static_cast<int>(b_cols),
                     pipe_chunks, s_ring, t);

  const int tx = t & 15;
  const int ty = t >> 4;
  T* g_c = c + row0 * ldc + col0;
  std::int32_t* g_v = via + row0 * ldc + col0;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const std::int64_t line = tile_line(ty, i) * ldc;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = tile_line(tx, h * 4);
      auto* g_d = reinterpret_cast<vec4*>(g_c + line + col);
      vec4 v = *g_d;
      bool any = false;
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const std::int32_t acc = r_acc[i][h * 4 + q];
        // floor: the tag is the low 7 bits; a whole number below 2^23, exact as a float
        const T sum = static_cast<T>(acc >> tag_bits);
        // A sum with an infinite operand is at least tagged_infinity: not a path.
        const bool improved = acc < tagged_infinity && sum < lane_of(v, q);
        if (improved) {
          set_lane(v, q, sum);
          g_v[line + col + q] = k_base + (acc & (fw_tile - 1));
        }
        any |= improved;
      }
      if (any)
        *g_d = v;
    }
  }
}

} // namespace apsp::cuda::kernels
