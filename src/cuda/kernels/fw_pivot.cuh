#pragma once
// Phase 1 of blocked Floyd-Warshall: plain FW inside the pivot tile (r, r), one thread block,
// the tile (and its via tile) held in registers. It is 1/rounds^2 of the work, but its 128
// steps run one after another: without look-ahead (and with paths) every round waits for it,
// and with look-ahead it lies on the chain that must finish within the rest of a round.

#include <cstdint>

#include "cuda/kernels/min_plus_ops.cuh"
#include "cuda/tile_config.hpp"

namespace apsp::cuda::kernels {

inline constexpr int pivot_threads = 512;

/// Rows per thread of pivot_kernel (pivot_threads = 32 lanes x fw_tile / pivot_rows warps).
inline constexpr int pivot_rows = 8;

/// Phase 1 in registers: thread (ty, tx) = (t / 32, t % 32) holds the 8 x 4 outputs of rows
/// 8 ty + {0..7} and columns 4 tx + {0..3} (and their via), so warp ty holds rows 8 ty..8 ty + 7
/// whole and lane tx of every warp columns 4 tx..4 tx + 3. Step k: the holders of row k and
/// column k put them in shared memory (two buffers, alternating), one barrier, then every thread
/// relaxes its 32 outputs through k -- row k and column k as they were before step k, also when
/// a negative cycle changes them (without paths one fused min(a + b, c) per output for int32, as
/// in the tile products). Pivots from live_k on are padding (the last round's): they
/// improve nothing real and are skipped.
template <class T, bool Clamp, bool Paths>
__global__ void __launch_bounds__(pivot_threads)
    pivot_kernel(T* __restrict__ d, std::int32_t* __restrict__ via, std::int64_t ld, int r,
                 int live_k) {
  constexpr int R = pivot_rows;
  static_assert(pivot_threads == 32 * fw_tile / R && fw_tile == 128 && R % 4 == 0,
                "32 lanes of 4 columns");
  using ops = min_plus<T, Clamp>;
  using vec4 = typename ops::vec4;
  __shared__ __align__(16) T s_row[2][fw_tile];
  __shared__ __align__(16) T s_col[2][fw_tile];

  const int t = static_cast<int>(threadIdx.x);
  const int tx = t & 31;
  const int ty = t >> 5;
  const std::int64_t base = static_cast<std::int64_t>(r) * fw_tile;
  T* g_d = d + (base + R * ty) * ld + base + 4 * tx; // this thread's R x 4, row stride ld
  std::int32_t* g_v = Paths ? via + (base + R * ty) * ld + base + 4 * tx : nullptr;

  T v[R][4];
  std::int32_t w[R][4];
#pragma unroll
  for (int i = 0; i < R; ++i) {
    const vec4 x = *reinterpret_cast<const vec4*>(g_d + i * ld);
#pragma unroll
    for (int j = 0; j < 4; ++j)
      v[i][j] = lane_of(x, j);
    if constexpr (Paths) {
      const int4 y = *reinterpret_cast<const int4*>(g_v + i * ld);
#pragma unroll
      for (int j = 0; j < 4; ++j)
        w[i][j] = lane_of(y, j);
    }
  }

  for (int k0 = 0; k0 < live_k; k0 += R) {
    const bool row_holder = ty == k0 / R;
#pragma unroll
    for (int kk = 0; kk < R; ++kk) {
      const int k = k0 + kk;
      if (k >= live_k)
        break; // uniform
      const int b = k & 1;
      if (row_holder)
        *reinterpret_cast<vec4*>(&s_row[b][4 * tx]) = vec4{v[kk][0], v[kk][1], v[kk][2], v[kk][3]};
      if (tx == (k >> 2)) { // column k is this lane's column k % 4 = kk % 4
#pragma unroll
        for (int q = 0; q < R; q += 4)
          *reinterpret_cast<vec4*>(&s_col[b][R * ty + q]) = vec4{
              v[q][kk % 4], v[q + 1][kk % 4], v[q + 2][kk % 4], v[q + 3][kk % 4]};
      }
      // Step k - 1's reads of buffer b ^ 1 are done (its barrier); step k - 2's of b were done
      // before step k - 1's barrier.
      __syncthreads();
      const vec4 rk = *reinterpret_cast<const vec4*>(&s_row[b][4 * tx]);
#pragma unroll
      for (int q = 0; q < R; q += 4) {
        const vec4 ck = *reinterpret_cast<const vec4*>(&s_col[b][R * ty + q]);
#pragma unroll
        for (int i = 0; i < 4; ++i) {
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            if constexpr (Paths) {
              const T candidate = ops::sum(lane_of(ck, i), lane_of(rk, j));
              if (candidate < v[q + i][j]) {
                v[q + i][j] = candidate;
                w[q + i][j] = static_cast<std::int32_t>(base + k);
              }
            } else {
              v[q + i][j] = ops::relax(v[q + i][j], lane_of(ck, i), lane_of(rk, j));
            }
          }
        }
      }
    }
  }

#pragma unroll
  for (int i = 0; i < R; ++i) {
    *reinterpret_cast<vec4*>(g_d + i * ld) = vec4{v[i][0], v[i][1], v[i][2], v[i][3]};
    if constexpr (Paths)
      *reinterpret_cast<int4*>(g_v + i * ld) = int4{w[i][0], w[i][1], w[i][2], w[i][3]};
  }
}

} // namespace apsp::cuda::kernels
