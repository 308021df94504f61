#pragma once
// Phases 2 and 3 of blocked Floyd-Warshall, distances only, as one min-plus product kernel:
//   C(ti, tj) = min(C(ti, tj), A(ti, r) (x) B(r, tj))   over the 128 pivot columns k.
// Phase 3 runs it on every tile off the pivot cross. Phase 2 runs it on the cross itself: once
// the pivot tile is closed (phase 1), the row panel is D(r, j) = min(D(r, j), D(r, r) (x) D(r, j))
// and the column panel D(i, r) = min(D(i, r), D(i, r) (x) D(r, r)) -- the same formula with
// the output aliasing one operand. That is safe: a block reads its own output tile only as an
// operand, all of it before its epilogue, and blocks never share an output tile.
//
// Pipeline: the panels stream through a 4-stage shared-memory ring of 16-k chunks (cp.async,
// 73 KB), so two blocks fit per SM and one's loads and epilogue overlap the other's math.
// Accumulators start at the semiring identity and the old tile is read once, in the epilogue;
// only vectors that strictly improved are written back.

#include <cstdint>

#include "cuda/kernels/min_plus_common.cuh"

namespace apsp::cuda::kernels {

inline constexpr int pipe_chunk_k = 16;
inline constexpr int pipe_chunks = fw_tile / pipe_chunk_k;
inline constexpr int pipe_stages = 4;
inline constexpr int pipe_a_stride = pipe_chunk_k + 4; // rows 4 apart land 16 banks apart
inline constexpr int pipe_b_stride = fw_tile + 4;
inline constexpr int pipe_stage_elems = fw_tile * pipe_a_stride + pipe_chunk_k * pipe_b_stride;

constexpr std::size_t pipelined_smem_bytes(std::size_t elem_bytes) {
  return static_cast<std::size_t>(pipe_stages) * pipe_stage_elems * elem_bytes;
}

/// The transposed tiles (min_plus_pipelined_kernel): a tile of the last tile column whose live
/// columns number at most this many is computed as its transpose.
inline constexpr int thin_live_cols = 32;
static_assert(thin_live_cols <= fw_tile / 2,
              "a transposed tile loads and merges C's first 64 columns");

/// Whether tile (ti, tj) of a launch of `set` (of `tiles` per side), whose columns hold
/// `live_cols` vertices below n, is computed transposed: in the last tile column, off the last
/// tile row and the cross, with at most thin_live_cols live columns.
__device__ __forceinline__ bool transposed_tile(int set, int ti, int tj, int tiles, int live_cols) {
  return set != cross && tj == tiles - 1 && ti != tiles - 1 && live_cols <= thin_live_cols;
}

/// r_acc = A (x) B over k_chunks chunks of 16 k through the ring (s_ring: pipelined_smem_bytes),
/// A = g_a [128 rows][stride lda], B = g_b [K][stride ldb]. 32-bit strides keep the main loop
/// within the register budget of two blocks per SM. A warp with compute = false (every row it
/// owns is padding) keeps the identity and only helps load. Returns with the ring free for
/// reuse only after a __syncthreads().
/// Transposed: r_acc = B^T (x) A^T, for g_a = B [K][stride lda] and g_b = A [128 rows][stride
/// ldb]; only rows 0..63 of B^T are loaded (its other rows stay unset: their warps' second
/// halves, which the caller must not store).
template <class ops, bool Transposed = false, bool ThreeWay = false, class T>
__device__ __forceinline__ void ring_min_plus(T (&r_acc)[8][8], const T* g_a, int lda, const T* g_b,
                                              int ldb, int k_chunks, T* s_ring, int t,
                                              bool compute = true) {
  // Chunk ch: A(:, 16ch..16ch+15) and B(16ch..16ch+15, :); vector v = t + p * 256 is A row v/4,
  // k (v%4)*4 and B k v/32, column (v%32)*4. Transposed, element by element: v = t + p * 256
  // is B^T's row v%64 at k v/64 (B's row k, column v%64) and A^T's k v%16 at column v/16 (A's
  // row v/16, column k), consecutive threads reading consecutive addresses.
  auto load_chunk = [&](int ch) {
    T* s_a = s_ring + (ch % pipe_stages) * pipe_stage_elems;
    T* s_b = s_a + fw_tile * pipe_a_stride;
    if constexpr (Transposed) {
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        const int v = t + p * mp_threads;
        const int row = v & 63;
        const int k = v >> 6;
        cp_async_4(s_a + row * pipe_a_stride + k,
                   g_a + (static_cast<std::int64_t>(ch * pipe_chunk_k + k) * lda + row));
      }
#pragma unroll
      for (int p = 0; p < 8; ++p) {
        const int v = t + p * mp_threads;
        const int k = v & 15;
        const int col = v >> 4;
        cp_async_4(s_b + k * pipe_b_stride + col,
                   g_b + (static_cast<std::int64_t>(col) * ldb + ch * pipe_chunk_k + k));
      }
    } else {
#pragma unroll
      for (int p = 0; p < 2; ++p) {
        const int v = t + p * mp_threads;
        const int a_row = v >> 2;
        const int a_k = (v & 3) * 4;
        cp_async_16(s_a + a_row * pipe_a_stride + a_k,
                    g_a + (a_row * lda + ch * pipe_chunk_k + a_k));
        const int b_k = v >> 5;
        const int b_col = (v & 31) * 4;
        cp_async_16(s_b + b_k * pipe_b_stride + b_col,
                    g_b + (static_cast<std::int64_t>(ch * pipe_chunk_k + b_k) * ldb + b_col));
      }
    }
  };

#pragma unroll
  for (int ch = 0; ch < pipe_stages - 1; ++ch) {
    if (ch < k_chunks)
      load_chunk(ch);
    cp_async_commit();
  }

  const int tx = t & 15;
  const int ty = t >> 4;
  fill_identity<ops>(r_acc);

#pragma unroll 1
  for (int ch = 0; ch < k_chunks; ++ch) {
    cp_async_wait<pipe_stages - 2>(); // chunk ch has landed (for this thread)
    __syncthreads();                  // ... for all threads; and chunk ch-1's slot is free
    if (ch + pipe_stages - 1 < k_chunks)
      load_chunk(ch + pipe_stages - 1);
    cp_async_commit(); // possibly empty: keeps the group count uniform
    const T* s_a = s_ring + (ch % pipe_stages) * pipe_stage_elems;
    if (compute)
      min_plus_chunk<ops, pipe_a_stride, pipe_b_stride, pipe_chunk_k, 8, false, 8, ThreeWay>(
          r_acc, s_a, s_a + fw_tile * pipe_a_stride, tx, ty);
  }
}

/// The epilogue of a transposed tile (r_acc = C^T, thread map as in min_plus_chunk): merges the
/// thread's outputs in C's columns tile_line(ty, 0..3) below `live` into the tile at g_c, as
/// merge_tile does; C's other columns (padding) keep their values.
template <class Ops, bool Clamp, class T>
__device__ __forceinline__ void
merge_tile_transposed(T* g_c, std::int64_t ld, const T (&r_acc)[8][8], int tx, int ty, int live) {
  using vec4 = typename Ops::vec4;
  const int c0 = tile_line(ty, 0);
  if (c0 >= live)
    return;
  const bool whole = c0 + 4 <= live;
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    T* row = g_c + tile_line(tx, j) * ld + c0;
    if (whole) {
      vec4 v = *reinterpret_cast<const vec4*>(row);
      bool any = false;
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const T x = clamp_min<T, Clamp>(r_acc[q][j]);
        if (x < lane_of(v, q)) {
          set_lane(v, q, x);
          any = true;
        }
      }
      if (any)
        *reinterpret_cast<vec4*>(row) = v;
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const T x = clamp_min<T, Clamp>(r_acc[q][j]);
        if (c0 + q < live && x < row[q])
          row[q] = x;
      }
    }
  }
}

/// Padding (the matrix's vertices n..ld-1) feeds nothing real, so a block skips it: the pivots
/// from n on (only the last round has some: its k chunks stop at n) and, in the last tile row,
/// the warps whose rows are all padding (warp w owns rows 8w..8w+7 and 64+8w..64+8w+7). A tile
/// of the last tile column (off the last row and the cross) with at most thin_live_cols live
/// columns is computed as its transpose, C^T = B^T (x) A^T, so that the warps whose rows of C^T
/// are all padding columns skip their products in the same way; its padding columns keep the
/// values they had (infinity). ThreeWay: see min_plus_chunk.
template <class T, bool Clamp, bool ThreeWay = false>
__global__ void __launch_bounds__(mp_threads, 2)
    min_plus_pipelined_kernel(T* __restrict__ d, std::int64_t ld, std::int64_t n, int r, int tiles,
                              int set) {
  static_assert(fw_tile == 128 && mp_threads == 256, "thread map assumes 16 x 16 threads");
  static_assert(pipe_chunks >= pipe_stages - 1);
  using ops = min_plus<T, false>; // clamped once, in the epilogue (clamp_min)

  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* s_ring = reinterpret_cast<T*>(smem_raw); // pipe_stages x {A [128][20], B [16][132]}

  int ti = 0;
  int tj = 0;
  tile_of_block(r, tiles, set, ti, tj);
  const std::int64_t row0 = static_cast<std::int64_t>(ti) * fw_tile;
  const std::int64_t col0 = static_cast<std::int64_t>(tj) * fw_tile;
  const std::int64_t k0 = static_cast<std::int64_t>(r) * fw_tile;
  const T* g_a = d + row0 * ld + k0; // [128][128], row stride ld
  const T* g_b = d + k0 * ld + col0; // [128][128]
  T* g_c = d + row0 * ld + col0;     // [128][128]
  const int t = static_cast<int>(threadIdx.x);
  const int k_chunks = live_k_chunks(n, k0, pipe_chunk_k);
  const int tx = t & 15;
  const int ty = t >> 4;
  T r_acc[8][8];
  const int live_cols = live_lines(n, col0);
  if (transposed_tile(set, ti, tj, tiles, live_cols)) {
    const bool live = warp_has_live_rows(n, col0, t); // C^T's rows are C's columns
    ring_min_plus<ops, true, ThreeWay>(r_acc, g_b, static_cast<int>(ld), g_a, static_cast<int>(ld),
                                       k_chunks, s_ring, t, live);
    if (live)
      merge_tile_transposed<ops, Clamp>(g_c, ld, r_acc, tx, ty, live_cols);
    return;
  }
  const bool live_rows = warp_has_live_rows(n, row0, t);
  ring_min_plus<ops, false, ThreeWay>(r_acc, g_a, static_cast<int>(ld), g_b, static_cast<int>(ld),
                                      k_chunks, s_ring, t, live_rows);
  if (!live_rows)
    return; // its rows are padding: infinity before, infinity after
  merge_tile<ops, Clamp>(g_c, ld, r_acc, tx, ty);
}

} // namespace apsp::cuda::kernels
