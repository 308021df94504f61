#pragma once
// Second pass of phase 3 with paths. The fast distance kernel (min_plus_pipelined.cuh, Mark)
// has written the improved distances and marked those elements via_unresolved; this kernel
// stages the tile's two 128 x 128 pivot panels (unchanged by phase 3) in shared memory and
// finds, for each marked element, the first pivot k with A(i, k) + B(k, j) == d(i, j), one
// warp-wide step of 32 candidates at a time. Tiles with nothing marked cost one read of the
// via tile.

#include <cstdint>

#include "cuda/kernels/min_plus_common.cuh"
#include "cuda/kernels/min_plus_pipelined.cuh"

namespace apsp::cuda::kernels {

inline constexpr int resolve_stride = fw_tile + 4; // 16-byte rows; B column reads: 4-way conflicts

constexpr std::size_t resolve_smem_bytes(std::size_t elem_bytes) {
  return 2 * static_cast<std::size_t>(fw_tile) * resolve_stride * elem_bytes;
}

template <class T, bool Clamp>
__global__ void __launch_bounds__(mp_threads)
    resolve_via_kernel(const T* __restrict__ d, std::int32_t* __restrict__ via, std::int64_t ld,
                       int r, int tiles) {
  using ops = min_plus<T, Clamp>;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* s_a = reinterpret_cast<T*>(smem_raw); // [128 rows][132]: A(:, all k)
  T* s_b = s_a + fw_tile * resolve_stride; // [128 k][132]: B(all k, :)
  __shared__ int s_any;

  int ti = 0;
  int tj = 0;
  tile_of_block(r, tiles, false, ti, tj);
  const std::int64_t row0 = static_cast<std::int64_t>(ti) * fw_tile;
  const std::int64_t col0 = static_cast<std::int64_t>(tj) * fw_tile;
  const std::int64_t k0 = static_cast<std::int64_t>(r) * fw_tile;
  const int t = static_cast<int>(threadIdx.x);
  const int lane = t & 31;
  const int warp = t >> 5;

  // Each warp owns 16 rows of the tile; a lane reads 4 consecutive columns per row.
  constexpr int rows_per_warp = fw_tile / (mp_threads / 32);
  using vec4 = typename ops::vec4;
  int4 r_via[rows_per_warp];
  vec4 r_d[rows_per_warp]; // the new distances: the targets of the search
  unsigned marked_rows = 0;
  if (t == 0)
    s_any = 0;
  __syncthreads();
#pragma unroll
  for (int m = 0; m < rows_per_warp; ++m) {
    const int row = warp * rows_per_warp + m;
    r_via[m] = *reinterpret_cast<const int4*>(via + (row0 + row) * ld + col0 + lane * 4);
    const bool marked = r_via[m].x == via_unresolved || r_via[m].y == via_unresolved ||
                        r_via[m].z == via_unresolved || r_via[m].w == via_unresolved;
    marked_rows |= static_cast<unsigned>(marked) << m;
  }
  if (marked_rows != 0)
    s_any = 1;
  __syncthreads();
  if (s_any == 0)
    return;

    // Only the rows with marks need their distances.
#pragma unroll
  for (int m = 0; m < rows_per_warp; ++m) {
    if ((marked_rows >> m) & 1u) {
      const int row = warp * rows_per_warp + m;
      r_d[m] = *reinterpret_cast<const vec4*>(d + (row0 + row) * ld + col0 + lane * 4);
    }
  }
  const T* g_a = d + row0 * ld + k0;
  const T* g_b = d + k0 * ld + col0;
#pragma unroll 4
  for (int v = t; v < fw_tile * fw_tile / 4; v += mp_threads) {
    const int row = v >> 5;
    const int col = (v & 31) * 4;
    cp_async_16(s_a + row * resolve_stride + col, g_a + row * ld + col);
    cp_async_16(s_b + row * resolve_stride + col, g_b + row * ld + col);
  }
  cp_async_commit();
  cp_async_wait<0>();
  __syncthreads();

#pragma unroll
  for (int m = 0; m < rows_per_warp; ++m) {
    const int row = warp * rows_per_warp + m;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const bool marked = lane_of(r_via[m], q) == via_unresolved;
      unsigned pending = __ballot_sync(0xffffffffu, marked);
      while (pending != 0) {
        const int src = __ffs(pending) - 1;
        pending &= pending - 1;
        const int col = src * 4 + q;
        const T target = __shfl_sync(0xffffffffu, lane_of(r_d[m], q), src);
        int found = fw_tile - 1;
#pragma unroll
        for (int base = 0; base < fw_tile; base += 32) {
          const int k = base + lane;
          // The sum the distance kernel computed, so equality is exact for floats too.
          const bool hit =
              ops::sum(s_a[row * resolve_stride + k], s_b[k * resolve_stride + col]) == target;
          const unsigned hits = __ballot_sync(0xffffffffu, hit);
          if (hits != 0) {
            found = base + __ffs(hits) - 1;
            break;
          }
        }
        if (lane == src)
          set_lane(r_via[m], q, static_cast<int>(k0 + found));
      }
    }
    if ((marked_rows >> m) & 1u) {
      *reinterpret_cast<int4*>(via + (row0 + row) * ld + col0 + lane * 4) = r_via[m];
    }
  }
}

} // namespace apsp::cuda::kernels
