#pragma once
// The min-plus product of two 128 x 128 operands with the path matrix, for the out-of-core and
// multi-GPU slices (min_plus_gemm.cuh): the same product as min_plus_pipelined.cuh, but both
// operands stay in shared memory (132 KB, one block per SM), so the epilogue can find the pivot
// of every element that strictly improved without touching the inner loop: the main loop stays
// one instruction per update (plus a compare per output per 32 k, to remember the winning 32-k
// group), and a warp resolves each improved element in one step, one candidate k per lane. via =
// the first k reaching the minimum, i.e. the one a sequential scan would keep. The in-core
// rounds use min_plus_paths.cuh instead (half tiles, two blocks per SM); its chunk layout and
// cp_async_wait_pending come from here.

#include <cstdint>

#include "cuda/kernels/min_plus_common.cuh"

namespace apsp::cuda::kernels {

inline constexpr int panel_chunk_k = 16;
inline constexpr int panel_chunks = fw_tile / panel_chunk_k;
inline constexpr int panel_groups = fw_tile / 32; // 32-k groups: one warp checks a group at once
inline constexpr int panel_stride = fw_tile + 4;  // rows 4 apart land 16 banks apart

constexpr std::size_t panel_smem_bytes(std::size_t elem_bytes) {
  return 2 * static_cast<std::size_t>(fw_tile) * panel_stride * elem_bytes;
}

/// Waits until at most `pending` chunk groups are in flight (run-time value; the instruction
/// needs an immediate).
__device__ __forceinline__ void cp_async_wait_pending(int pending) {
  static_assert(panel_chunks == 8);
  switch (pending) {
  case 0:
    cp_async_wait<0>();
    break;
  case 1:
    cp_async_wait<1>();
    break;
  case 2:
    cp_async_wait<2>();
    break;
  case 3:
    cp_async_wait<3>();
    break;
  case 4:
    cp_async_wait<4>();
    break;
  case 5:
    cp_async_wait<5>();
    break;
  case 6:
    cp_async_wait<6>();
    break;
  default:
    cp_async_wait<7>();
    break;
  }
}

/// The first pivot k in [32 group, 32 group + 32) with a(row, k) + b(k, col) == target, found by
/// the whole warp at once, one candidate per lane (s_a_row: the row's A values; s_b_col: B's
/// column, k rows BStride apart). The sum is the one the main loop formed, so equality is exact
/// for floats too; fw_tile - 1 when no k matches (unreachable: the main loop reached target in
/// that group).
template <class ops, int BStride, class T>
__device__ __forceinline__ int first_pivot_in_group(const T* s_a_row, const T* s_b_col, T target,
                                                    int group, int lane) {
  const int k = group * 32 + lane;
  const bool hit = ops::sum(s_a_row[k], s_b_col[k * BStride]) == target;
  const unsigned hits = __ballot_sync(0xffffffffu, hit);
  return hits != 0 ? group * 32 + __ffs(hits) - 1 : fw_tile - 1;
}

/// The body of the path kernels: stages A (128 x 128 from g_a, stride lda) and B (128 x 128 from
/// g_b, stride ldb) in shared memory (s_a, s_b: panel_smem_bytes), forms their min-plus product,
/// merges it into the C tile (g_c, stride ldc) and, for every element that strictly improved,
/// stores k_base + the first k reaching the new minimum into the via tile (g_v, stride ldc).
template <class ops, class T>
__device__ __forceinline__ void
min_plus_tile_with_via(const T* g_a, std::int64_t lda, const T* g_b, std::int64_t ldb, T* g_c,
                       std::int32_t* g_v, std::int64_t ldc, std::int64_t k_base, T* s_a, T* s_b) {
  const int t = static_cast<int>(threadIdx.x);
  // Every chunk is issued up front; compute on chunk c waits only for chunk c.
#pragma unroll 1
  for (int c = 0; c < panel_chunks; ++c) {
#pragma unroll
    for (int p = 0; p < 2; ++p) {
      const int v = t + p * mp_threads;
      const int a_row = v >> 2;
      const int a_k = c * panel_chunk_k + (v & 3) * 4;
      cp_async_16(s_a + a_row * panel_stride + a_k, g_a + a_row * lda + a_k);
      const int b_k = c * panel_chunk_k + (v >> 5);
      const int b_col = (v & 31) * 4;
      cp_async_16(s_b + b_k * panel_stride + b_col, g_b + b_k * ldb + b_col);
    }
    cp_async_commit();
  }

  const int tx = t & 15;
  const int ty = t >> 4;
  // The main loop also remembers, per output, which 32-k group last strictly improved it
  // (2 bits each, packed: output i*8+j in r_win[(i*8+j)/16] at bit 2*((i*8+j)%16)), so the
  // epilogue checks 32 candidates -- one warp-wide step -- instead of 128.
  T r_acc[8][8];
  unsigned r_win[4] = {0, 0, 0, 0};
  fill_identity<ops>(r_acc);
#pragma unroll 1
  for (int g = 0; g < panel_groups; ++g) {
    T r_m[8][8];
    fill_identity<ops>(r_m);
#pragma unroll 1
    for (int h = 0; h < panel_chunks / panel_groups; ++h) {
      const int c = g * (panel_chunks / panel_groups) + h;
      cp_async_wait_pending(panel_chunks - 1 - c);
      __syncthreads();
      min_plus_chunk<ops, panel_stride, panel_stride, panel_chunk_k>(
          r_m, s_a + c * panel_chunk_k, s_b + c * panel_chunk_k * panel_stride, tx, ty);
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const int o = i * 8 + j;
        if (r_m[i][j] < r_acc[i][j]) {
          r_acc[i][j] = r_m[i][j];
          r_win[o / 16] = (r_win[o / 16] & ~(3u << (2 * (o % 16)))) |
                          (static_cast<unsigned>(g) << (2 * (o % 16)));
        }
      }
    }
  }

  // Epilogue. Load the whole old tile first (one memory latency, not sixteen), and store via
  // entries one by one from their owning lanes, so nothing waits on a global read-modify-write
  // between the warp-wide steps below.
  using vec4 = typename ops::vec4;
  vec4 r_old[8][2];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      r_old[i][h] =
          *reinterpret_cast<const vec4*>(g_c + tile_line(ty, i) * ldc + tile_line(tx, h * 4));
    }
  }
  const int lane = t & 31;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = tile_line(ty, i);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = tile_line(tx, h * 4);
      vec4 v = r_old[i][h];
      bool improved[4];
      bool any = false;
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        improved[q] = r_acc[i][h * 4 + q] < lane_of(v, q);
        any |= improved[q];
        if (improved[q])
          set_lane(v, q, r_acc[i][h * 4 + q]);
      }
      if (any)
        *reinterpret_cast<vec4*>(g_c + row * ldc + col) = v;
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        // Warp-uniform loop over the lanes whose element q improved.
        unsigned pending = __ballot_sync(0xffffffffu, improved[q]);
        while (pending != 0) {
          const int src = __ffs(pending) - 1;
          pending &= pending - 1;
          const int w_row = __shfl_sync(0xffffffffu, row, src);
          const int w_col = __shfl_sync(0xffffffffu, col + q, src);
          const T target = __shfl_sync(0xffffffffu, r_acc[i][h * 4 + q], src);
          const int o = i * 8 + h * 4 + q;
          const int group = static_cast<int>(
              __shfl_sync(0xffffffffu, (r_win[o / 16] >> (2 * (o % 16))) & 3u, src));
          const int found = first_pivot_in_group<ops, panel_stride>(
              s_a + w_row * panel_stride, s_b + w_col, target, group, lane);
          if (lane == src)
            g_v[row * ldc + col + q] = static_cast<std::int32_t>(k_base + found);
        }
      }
    }
  }
}

} // namespace apsp::cuda::kernels
