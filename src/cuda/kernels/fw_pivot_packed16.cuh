#pragma once
// Packed 16-bit mode, the small kernels around the min-plus product: phase 1 (plain FW inside
// the pivot tile, int16 in shared memory) and the pivot-column expansion that turns D(:, r)
// into 32-bit words holding the same value in both halves, the A operand of
// min_plus_packed16.cuh. Every value is in [0, narrow_infinity], so a sum of two fits in a
// signed 16-bit lane (and in int, where phase 1 adds them). Included by fw_packed16.cu only.

#include <cstdint>

#include "cuda/tile_config.hpp"

namespace apsp::cuda::kernels {

/// "No path" in the packed matrix (detail::narrow_infinity): 2^14 - 1.
inline constexpr std::int16_t int16_infinity = 16383;

inline constexpr int pivot16_threads = 1024;

__global__ void __launch_bounds__(pivot16_threads)
    pivot_packed16_kernel(std::int16_t* __restrict__ d, std::int64_t ld, int r) {
  static_assert(pivot16_threads % fw_tile == 0 && fw_tile % (pivot16_threads / fw_tile) == 0);
  constexpr int rows_per_thread = fw_tile * fw_tile / pivot16_threads; // 16
  constexpr int row_step = pivot16_threads / fw_tile;                  // 8

  __shared__ std::int16_t s_d[fw_tile][fw_tile]; // 32 KB

  const int j = threadIdx.x % fw_tile; // a warp shares its row: s_d[i][k] is a broadcast
  const int i0 = threadIdx.x / fw_tile;
  const std::int64_t base = static_cast<std::int64_t>(r) * fw_tile;
  std::int16_t* g_d = d + base * ld + base; // [fw_tile][fw_tile], row stride ld

#pragma unroll
  for (int m = 0; m < rows_per_thread; ++m) {
    const int i = i0 + m * row_step;
    s_d[i][j] = g_d[i * ld + j];
  }
  __syncthreads();

  for (int k = 0; k < fw_tile; ++k) {
    // Row k and column k do not change in step k (d[k][k] = 0, weights non-negative), but
    // read them before anyone writes all the same: it costs nothing and needs no argument.
    const int dkj = s_d[k][j];
    int dik[rows_per_thread];
#pragma unroll
    for (int m = 0; m < rows_per_thread; ++m)
      dik[m] = s_d[i0 + m * row_step][k];
    __syncthreads();
#pragma unroll
    for (int m = 0; m < rows_per_thread; ++m) {
      const int i = i0 + m * row_step;
      const int candidate = dik[m] + dkj; // <= 2 * 16383: no overflow
      if (candidate < s_d[i][j])
        s_d[i][j] = static_cast<std::int16_t>(candidate);
    }
    __syncthreads();
  }

#pragma unroll
  for (int m = 0; m < rows_per_thread; ++m) {
    const int i = i0 + m * row_step;
    g_d[i * ld + j] = s_d[i][j];
  }
}

/// g_panel[i][k] (ld x fw_tile words) = D(i, r * fw_tile + k) in both 16-bit halves.
__global__ void expand_pivot_column_kernel(const std::int16_t* __restrict__ d,
                                           std::uint32_t* __restrict__ g_panel, std::int64_t ld,
                                           int r) {
  const std::int64_t k0 = static_cast<std::int64_t>(r) * fw_tile;
  const std::int64_t total = ld * fw_tile;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = e / fw_tile;
    const std::int64_t k = e % fw_tile;
    const auto v = static_cast<std::uint32_t>(static_cast<std::uint16_t>(d[i * ld + k0 + k]));
    g_panel[e] = v | (v << 16);
  }
}

} // namespace apsp::cuda::kernels
