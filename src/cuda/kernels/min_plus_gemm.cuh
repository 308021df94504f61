#pragma once
// General min-plus products C = min(C, A (x) B) on separate (possibly aliasing) operands with
// their own leading dimensions: the workhorse of the out-of-core and multi-GPU drivers, where the
// pivot panels and the updated tiles live in different buffers.
//
// min_plus_gemm_kernel (distances only) is min_plus_pipelined_kernel with a run-time K: the
// accumulators stay in registers across all of K, so a deep outer block (K = 4096) costs one
// epilogue per output tile instead of one per 128 k. ThreeWay: float32 minima two pivots at a
// time on the bit patterns (min_plus_chunk; gemm_args::three_way). min_plus_gemm_via_kernel handles
// one 128-wide k slice with the path epilogue of min_plus_tile_with_via (min_plus_panel.cuh); the
// driver runs the slices in stream order and each records the global index of its winning k.
//
// Aliasing (C is A or B, as in the pivot panels) is allowed: with the pivot block closed, an
// operand read before or after its owner block updates it yields the same minimum, and no two
// blocks write the same output tile. So the pointers are not __restrict__.

#include <cstdint>
#include <type_traits>

#include "cuda/kernels/min_plus_common.cuh"
#include "cuda/kernels/min_plus_panel.cuh"
#include "cuda/kernels/min_plus_pipelined.cuh"

namespace apsp::cuda::kernels {

/// C tile (ti, tj) of a grid with col_tiles tile columns, row-major so neighbours share A.
__device__ __forceinline__ void gemm_tile_of_block(int col_tiles, int& ti, int& tj) {
  const int b = static_cast<int>(blockIdx.x);
  ti = b / col_tiles;
  tj = b - ti * col_tiles;
}

template <class T, bool Clamp, bool ThreeWay = false>
__global__ void __launch_bounds__(mp_threads, 2)
    min_plus_gemm_kernel(T* c, std::int64_t ldc, const T* a, std::int64_t lda, const T* b,
                         std::int64_t ldb, int k_chunks, int col_tiles) {
  static_assert(fw_tile == 128 && mp_threads == 256, "thread map assumes 16 x 16 threads");
  using ops = min_plus<T, false>; // clamped once, in the epilogue (clamp_min)

  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* s_ring = reinterpret_cast<T*>(smem_raw);

  int ti = 0;
  int tj = 0;
  gemm_tile_of_block(col_tiles, ti, tj);
  const int t = static_cast<int>(threadIdx.x);
  // Panel strides fit in 32 bits (checked by the driver); 32-bit offsets keep the main loop
  // within the register budget of two blocks per SM. The output pointer is formed only in the
  // epilogue.
  const int lda32 = static_cast<int>(lda);
  const int ldb32 = static_cast<int>(ldb);
  const T* g_a = a + static_cast<std::int64_t>(ti) * fw_tile * lda; // [128][K]
  const T* g_b = b + static_cast<std::int64_t>(tj) * fw_tile;       // [K][128]

  T r_acc[8][8];
  ring_min_plus<ops, false, ThreeWay>(r_acc, g_a, lda32, g_b, ldb32, k_chunks, s_ring, t);
  const int tx = t & 15;
  const int ty = t >> 4;

  T* g_c =
      c + static_cast<std::int64_t>(ti) * fw_tile * ldc + static_cast<std::int64_t>(tj) * fw_tile;
  // Rows per batch: what keeps each variant within 128 registers without spills (ptxas 13.0).
  merge_tile<ops, Clamp, std::is_integral_v<T> ? merge_batch_rows : 1>(g_c, ldc, r_acc, tx, ty);
}

/// One 128-wide k slice with paths: via (laid out like C, stride ldc) gets k_base + the first k
/// reaching the new minimum of every element that strictly improved. With run_if, only when
/// the slice could not be tagged (needs_rescan(*run_if)).
template <class T, bool Clamp>
__global__ void __launch_bounds__(mp_threads, 1)
    min_plus_gemm_via_kernel(T* c, std::int32_t* via, std::int64_t ldc, const T* a,
                             std::int64_t lda, const T* b, std::int64_t ldb, std::int64_t k_base,
                             int col_tiles, const int* run_if) {
  static_assert(fw_tile == 128 && mp_threads == 256, "thread map assumes 16 x 16 threads");
  using ops = min_plus<T, Clamp>;
  if (run_if != nullptr && !needs_rescan(*run_if))
    return; // the slice was done from tagged copies (min_plus_tagged.cuh)

  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* s_a = reinterpret_cast<T*>(smem_raw); // [128 rows i][132]: A(:, slice)
  T* s_b = s_a + fw_tile * panel_stride;   // [128 k][132]: B(slice, :)

  int ti = 0;
  int tj = 0;
  gemm_tile_of_block(col_tiles, ti, tj);
  const std::int64_t row0 = static_cast<std::int64_t>(ti) * fw_tile;
  const std::int64_t col0 = static_cast<std::int64_t>(tj) * fw_tile;
  min_plus_tile_with_via<ops>(a + row0 * lda, lda, b + col0, ldb, c + row0 * ldc + col0,
                              via + row0 * ldc + col0, ldc, k_base, s_a, s_b);
}

/// d[r][c] = value for r in [r0, r1), c in [c0, c1) (padding and resets).
template <class T>
__global__ void fill_rect_kernel(T* d, std::int64_t ld, std::int64_t r0, std::int64_t rows,
                                 std::int64_t c0, std::int64_t cols, T value) {
  const std::int64_t total = rows * cols;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    d[(r0 + e / cols) * ld + c0 + e % cols] = value;
  }
}

/// dst = local + offset where local recorded a pivot (>= 0), else dst is kept: the pivot block's
/// in-core solve numbers its pivots from 0.
template <class V>
__global__ void merge_via_kernel(V* dst, std::int64_t ld_dst, const V* local, std::int64_t ld_local,
                                 std::int64_t rows, std::int64_t cols, V offset) {
  const std::int64_t total = rows * cols;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = e / cols;
    const std::int64_t j = e % cols;
    const V v = local[i * ld_local + j];
    if (v >= 0)
      dst[i * ld_dst + j] = v + offset;
  }
}

} // namespace apsp::cuda::kernels
