#pragma once
// Phase 1 of blocked Floyd-Warshall: plain FW inside the pivot tile (r, r), one thread block,
// the tile (and its via tile) held in shared memory. It is 1/rounds^2 of the work; a single
// block keeps it simple and takes a few microseconds per round.

#include <cstdint>

#include "cuda/kernels/min_plus_ops.cuh"
#include "cuda/tile_config.hpp"

namespace apsp::cuda::kernels {

inline constexpr int pivot_threads = 1024;

/// Dynamic shared memory of pivot_kernel.
constexpr std::size_t pivot_smem_bytes(std::size_t elem_bytes, bool paths) {
  return fw_tile * fw_tile * (elem_bytes + (paths ? sizeof(std::int32_t) : 0));
}

template <class T, bool Clamp, bool Paths>
__global__ void __launch_bounds__(pivot_threads)
    pivot_kernel(T* __restrict__ d, std::int32_t* __restrict__ via, std::int64_t ld, int r,
                 int live_k) {
  static_assert(pivot_threads % fw_tile == 0 && fw_tile % (pivot_threads / fw_tile) == 0);
  constexpr int rows_per_thread = fw_tile * fw_tile / pivot_threads; // 16
  constexpr int row_step = pivot_threads / fw_tile;                  // 8
  using ops = min_plus<T, Clamp>;

  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto* s_d = reinterpret_cast<T(*)[fw_tile]>(smem_raw); // [fw_tile][fw_tile]
  auto* s_v = reinterpret_cast<std::int32_t(*)[fw_tile]>(smem_raw + fw_tile * fw_tile * sizeof(T));

  const int j = threadIdx.x % fw_tile; // a warp shares its row: s_d[i][k] is a broadcast
  const int i0 = threadIdx.x / fw_tile;
  const std::int64_t base = static_cast<std::int64_t>(r) * fw_tile;
  T* g_d = d + base * ld + base; // [fw_tile][fw_tile], row stride ld

#pragma unroll
  for (int m = 0; m < rows_per_thread; ++m) {
    const int i = i0 + m * row_step;
    s_d[i][j] = g_d[i * ld + j];
    if constexpr (Paths)
      s_v[i][j] = via[(base + i) * ld + base + j];
  }
  __syncthreads();

  // Pivots from live_k on are padding (the last round's): they improve nothing real. (With
  // paths the full loop stays: a run-time bound makes ptxas spill there.)
  const int k_end = Paths ? fw_tile : live_k;
  for (int k = 0; k < k_end; ++k) {
    // Read row k and column k before anyone writes: with a negative cycle they change too.
    const T dkj = s_d[k][j];
    T dik[rows_per_thread];
#pragma unroll
    for (int m = 0; m < rows_per_thread; ++m)
      dik[m] = s_d[i0 + m * row_step][k];
    __syncthreads();
#pragma unroll
    for (int m = 0; m < rows_per_thread; ++m) {
      const int i = i0 + m * row_step;
      const T candidate = ops::sum(dik[m], dkj);
      if (candidate < s_d[i][j]) {
        s_d[i][j] = candidate;
        if constexpr (Paths)
          s_v[i][j] = static_cast<std::int32_t>(base + k);
      }
    }
    __syncthreads();
  }

#pragma unroll
  for (int m = 0; m < rows_per_thread; ++m) {
    const int i = i0 + m * row_step;
    g_d[i * ld + j] = s_d[i][j];
    if constexpr (Paths)
      via[(base + i) * ld + base + j] = s_v[i][j];
  }
}

} // namespace apsp::cuda::kernels
