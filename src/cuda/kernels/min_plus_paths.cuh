#pragma once
// Phases 2 and 3 of blocked Floyd-Warshall with the path matrix, at two blocks per SM.
//
// min_plus_panel.cuh holds both 128 x 128 panels in shared memory (132 KB) so that its epilogue
// can find the pivot of every improved element; that leaves one block of 8 warps per SM, and the
// SM idles while the block waits for its first chunk and while it runs its epilogue. Here a
// block owns half a tile, 128 rows x 64 columns (NI = 8) or 64 rows x 128 columns (NI = 4): its
// A rows (x 128 k) and B columns (128 k x) take 100 KB, so two blocks share an SM and one's loads
// and epilogue overlap the other's math, as in the distance kernel (min_plus_pipelined.cuh).
// Each of the 256 threads owns 32 outputs (NI rows x 32 / NI columns), which leaves registers
// (<= 128 at two blocks of 256) for the minimum of the current k group next to the running
// minimum: per output the main loop remembers which group of 16 pivots last strictly improved
// it (three bit planes; each group's first k sets its minima, no fill), and in the epilogue each
// thread resolves its own improved outputs, scanning the 16 candidates of that group (all lanes
// at once; a warp-wide step per element, one element after another, left the SM waiting on that
// chain; spreading the outputs evenly over the warp's lanes measured slower). via = the first k
// reaching the new minimum, the one a sequential scan would keep.
//
// Phase 2 (the cross) runs here too, a tile's halves being independent: a row panel tile
// D(r, j) = min(D(r, j), D(r, r) (x) D(r, j)) in column halves (each reads only its own columns
// of B, the tile itself), a column panel tile D(i, r) = min(D(i, r), D(i, r) (x) D(r, r)) in
// row halves (each reads only its own rows of A). A block stages all its operands before its
// epilogue writes, and no two blocks share outputs.

#include <cstdint>

#include "cuda/kernels/min_plus_common.cuh"
#include "cuda/kernels/min_plus_panel.cuh"

namespace apsp::cuda::kernels {

inline constexpr int paths_a_stride = fw_tile + 4; // rows 4 apart land 16 banks apart

/// Rows and columns of a block's half tile, and B's row stride in shared memory.
template <int NI> inline constexpr int paths_rows = 16 * NI;
template <int NI> inline constexpr int paths_cols = 16 * (32 / NI);
template <int NI> inline constexpr int paths_b_stride = paths_cols<NI> + 4;

template <int NI = 8> constexpr std::size_t paths_smem_bytes(std::size_t elem_bytes) {
  constexpr auto a_elems = static_cast<std::size_t>(paths_rows<NI>) * paths_a_stride;
  constexpr auto b_elems = static_cast<std::size_t>(fw_tile) * paths_b_stride<NI>;
  return (a_elems + b_elems) * elem_bytes;
}

/// Pivots per group whose last strict improvement of each output the main loop remembers.
inline constexpr int paths_group_k = 16;
inline constexpr int paths_groups = fw_tile / paths_group_k;

/// A deferred pivot in the path matrix (deferred_pivots.cuh): round r's phase 3 last strictly
/// improved the element, in group g of the round's pivots. Every real entry is >= -1 (no_via).
__host__ __device__ constexpr std::int32_t deferred_code(int r, int g) {
  return -2 - (r * paths_groups + g);
}

/// The first k of group `group` (paths_group_k pivots) reaching the group's minimum of
/// A(row, k) + B(k, col), by one thread (s_a_row: the row of A, 16-byte aligned; s_b_col: the
/// column of B, row stride BStride; both 16-byte aligned where BStride is 1). A tree of pairwise
/// minima, the left one kept on ties: the leftmost minimum, as a sequential scan keeps it, in 4
/// dependent steps instead of 15.
template <class ops, int BStride, class T>
__device__ __forceinline__ int first_minimum_in_group(const T* s_a_row, const T* s_b_col,
                                                      int group) {
  constexpr int gk = paths_group_k;
  static_assert(gk == 16, "the tree below has four levels");
  using vec4 = typename ops::vec4;
  const T* a = s_a_row + group * gk;
  const T* b = s_b_col + group * gk * BStride;
  T sum[gk];
  int at[gk / 2];
#pragma unroll
  for (int v = 0; v < gk / 4; ++v) {
    const vec4 a4 = *reinterpret_cast<const vec4*>(a + v * 4);
    if constexpr (BStride == 1) { // B's column stored contiguously (deferred_pivots.cuh)
      const vec4 b4 = *reinterpret_cast<const vec4*>(b + v * 4);
#pragma unroll
      for (int q = 0; q < 4; ++q)
        sum[v * 4 + q] = ops::sum(lane_of(a4, q), lane_of(b4, q));
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q)
        sum[v * 4 + q] = ops::sum(lane_of(a4, q), b[(v * 4 + q) * BStride]);
    }
  }
#pragma unroll
  for (int p = 0; p < gk / 2; ++p) {
    const bool right = sum[2 * p + 1] < sum[2 * p];
    sum[p] = right ? sum[2 * p + 1] : sum[2 * p];
    at[p] = right ? 2 * p + 1 : 2 * p;
  }
#pragma unroll
  for (int width = gk / 4; width >= 1; width /= 2) {
#pragma unroll
    for (int p = 0; p < width; ++p) {
      const bool right = sum[2 * p + 1] < sum[2 * p];
      sum[p] = right ? sum[2 * p + 1] : sum[2 * p];
      at[p] = right ? at[2 * p + 1] : at[2 * p];
    }
  }
  return group * gk + at[0];
}

/// Block b (of `blocks`, grid-strided): half b % 2 of tile tile0 + b / 2 of `set` in round r
/// (min_plus_common.cuh), its columns (NI = 8) or its rows (NI = 4) split. Padding (vertices n..
/// ld - 1) is skipped as in min_plus_pipelined_kernel: the last round's groups of pivots from n
/// on and the halves that hold only padding rows or columns; the warps whose rows are all
/// padding skip the epilogue's merge and pivot scans (skipping their products too measured
/// slower at n = 20,000). ThreeWay: the group minima as in min_plus_chunk (the sums and their
/// minimum are the same values, so the group and pivot found are too).
template <class T, bool Clamp, int NI = 8, bool Defer = false, bool ThreeWay = false>
__global__ void __launch_bounds__(mp_threads, 2)
    min_plus_paths_kernel(T* __restrict__ d, std::int32_t* __restrict__ via, std::int64_t ld,
                          std::int64_t n, int r, int tiles, int blocks, const int* run_if, int set,
                          int tile0) {
  static_assert(fw_tile == 128 && mp_threads == 256, "thread map assumes 16 x 16 threads");
  static_assert(NI == 8 || NI == 4);
  constexpr int NJ = 32 / NI;
  constexpr int rows = paths_rows<NI>;
  constexpr int cols = paths_cols<NI>;
  constexpr int b_stride = paths_b_stride<NI>;
  constexpr int groups = paths_groups;
  constexpr int planes = 3; // bits of a group index
  static_assert(groups <= (1 << planes) && panel_chunk_k == paths_group_k,
                "a group is one staged chunk");
  using ops = min_plus<T, Clamp>;
  using vec4 = typename ops::vec4;

  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* s_a = reinterpret_cast<T*>(smem_raw); // [rows][132]: A(this block's rows, all k)
  T* s_b = s_a + rows * paths_a_stride;    // [128 k][cols + 4]: B(all k, this block's columns)

  // With run_if (min_plus_tagged.cuh), this round's phase 3 is ours only if it cannot be tagged.
  if (run_if != nullptr && !needs_rescan(run_if[r]))
    return;
#pragma unroll 1
  for (int block = static_cast<int>(blockIdx.x); block < blocks;
       block += static_cast<int>(gridDim.x)) {
    const auto bi = static_cast<unsigned>(block);
    int ti = 0;
    int tj = 0;
    tile_of(tile0 + static_cast<int>(bi >> 1), r, tiles, set, ti, tj);
    const int half = static_cast<int>(bi & 1) * (fw_tile / 2);
    const int row0 = ti * fw_tile + (NI == 4 ? half : 0);
    const int col0 = tj * fw_tile + (NI == 8 ? half : 0);
    const int n32 = static_cast<int>(n);
    if (row0 >= n32 || col0 >= n32)
      continue; // padding only (block-uniform; nothing staged yet)
    const int k0 = r * fw_tile;
    const T* g_a = d + row0 * ld + k0; // [rows][128]
    const T* g_b = d + k0 * ld + col0; // [128][cols]
    T* g_c = d + row0 * ld + col0;     // [rows][cols]
    std::int32_t* g_v = via + row0 * ld + col0;
    const int t = static_cast<int>(threadIdx.x);
    const int live_groups = live_k_chunks(n32, k0, paths_group_k);
    const bool live_rows = warp_has_live_rows(n32, row0, t);

    // Every chunk is issued up front; compute on chunk c waits only for chunk c. The chunks past
    // live_groups stay empty groups, so that the wait counts hold.
#pragma unroll 1
    for (int c = 0; c < panel_chunks; ++c) {
      if (c >= live_groups) {
        cp_async_commit();
        continue;
      }
#pragma unroll
      for (int p = 0; p < rows * 4 / mp_threads; ++p) { // 4 vectors per row of 16 k
        const int v = t + p * mp_threads;
        const int a_row = v >> 2;
        const int a_k = c * panel_chunk_k + (v & 3) * 4;
        cp_async_16(s_a + a_row * paths_a_stride + a_k, g_a + a_row * ld + a_k);
      }
#pragma unroll
      for (int p = 0; p < cols * 4 / mp_threads; ++p) { // cols / 4 vectors per k, 16 k
        const int v = t + p * mp_threads;
        const int b_k = c * panel_chunk_k + v / (cols / 4);
        const int b_col = (v % (cols / 4)) * 4;
        cp_async_16(s_b + b_k * b_stride + b_col, g_b + b_k * ld + b_col);
      }
      cp_async_commit();
    }

    const int tx = t & 15;
    const int ty = t >> 4;
    T r_acc[NI][NJ];
    fill_identity<ops>(r_acc);
    // Bit o (= i * NJ + j) of plane p: bit p of the group that last strictly improved output o.
    unsigned r_plane[planes] = {0, 0, 0};
#pragma unroll 1
    for (int g = 0; g < live_groups; ++g) {
      T r_m[NI][NJ]; // the group's minima (its first k sets them)
      cp_async_wait_pending(panel_chunks - 1 - g);
      __syncthreads();
      min_plus_chunk<ops, paths_a_stride, b_stride, panel_chunk_k, NJ, true, NI, ThreeWay>(
          r_m, s_a + g * panel_chunk_k, s_b + g * panel_chunk_k * b_stride, tx, ty);
      unsigned won = 0;
#pragma unroll
      for (int i = 0; i < NI; ++i) {
#pragma unroll
        for (int j = 0; j < NJ; ++j) {
          if (r_m[i][j] < r_acc[i][j]) {
            r_acc[i][j] = r_m[i][j];
            won |= 1u << (i * NJ + j);
          }
        }
      }
#pragma unroll
      for (int p = 0; p < planes; ++p)
        r_plane[p] = ((g >> p) & 1) != 0 ? (r_plane[p] | won) : (r_plane[p] & ~won);
    }

    if (!live_rows) {
      __syncthreads(); // as below
      continue;
    }
    // Epilogue: the whole old half tile first (one memory latency), then the merge, then the
    // pivots of the improved elements.
    vec4 r_old[NI][NJ / 4];
#pragma unroll
    for (int i = 0; i < NI; ++i) {
#pragma unroll
      for (int h = 0; h < NJ / 4; ++h) {
        r_old[i][h] =
            *reinterpret_cast<const vec4*>(g_c + tile_line(ty, i) * ld + tile_line(tx, h * 4));
      }
    }
    // Bit o (= i * NJ + j) of mine: output o strictly improved.
    unsigned mine = 0;
#pragma unroll
    for (int i = 0; i < NI; ++i) {
#pragma unroll
      for (int h = 0; h < NJ / 4; ++h) {
        vec4 v = r_old[i][h];
        bool any = false;
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          if (r_acc[i][h * 4 + q] < lane_of(v, q)) {
            set_lane(v, q, r_acc[i][h * 4 + q]);
            mine |= 1u << (i * NJ + h * 4 + q);
            any = true;
          }
        }
        if (any)
          *reinterpret_cast<vec4*>(g_c + tile_line(ty, i) * ld + tile_line(tx, h * 4)) = v;
      }
    }
    if constexpr (Defer) {
      // Deferred pivots (deferred_pivots.cuh): each improved output gets the round and the group
      // that last strictly improved it; the pivot is found after the rounds, from the round's
      // panels as they stand now.
#pragma unroll
      for (int i = 0; i < NI; ++i) {
#pragma unroll
        for (int h = 0; h < NJ / 4; ++h) {
          const unsigned m4 = (mine >> (i * NJ + h * 4)) & 0xfu;
          if (m4 == 0)
            continue;
          int code[4];
#pragma unroll
          for (int q = 0; q < 4; ++q) {
            const int o = i * NJ + h * 4 + q;
            int group = 0;
#pragma unroll
            for (int p = 0; p < planes; ++p)
              group |= static_cast<int>((r_plane[p] >> o) & 1u) << p;
            code[q] = deferred_code(r, group);
          }
          std::int32_t* at = g_v + tile_line(ty, i) * ld + tile_line(tx, h * 4);
          if (m4 == 0xfu) {
            *reinterpret_cast<int4*>(at) = make_int4(code[0], code[1], code[2], code[3]);
          } else {
#pragma unroll
            for (int q = 0; q < 4; ++q) {
              if (((m4 >> q) & 1u) != 0)
                at[q] = code[q];
            }
          }
        }
      }
    } else {
      // Each thread resolves its own improved outputs, all lanes at once: the group that last
      // strictly improved an output holds its new value as that group's minimum, so the pivot is
      // the first k of the group reaching the group's minimum.
      while (mine != 0) {
        const int o = __ffs(static_cast<int>(mine)) - 1;
        mine &= mine - 1;
        const int w_row = tile_line(ty, o / NJ);
        const int w_col = tile_line(tx, o % NJ);
        int group = 0;
#pragma unroll
        for (int p = 0; p < planes; ++p)
          group |= static_cast<int>((r_plane[p] >> o) & 1u) << p;
        const int found =
            first_minimum_in_group<ops, b_stride>(s_a + w_row * paths_a_stride, s_b + w_col, group);
        g_v[w_row * ld + w_col] = static_cast<std::int32_t>(k0 + found);
      }
    }
    __syncthreads(); // the next block's loads reuse shared memory
  }
}

} // namespace apsp::cuda::kernels
