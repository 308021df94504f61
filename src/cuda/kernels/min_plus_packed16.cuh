#pragma once
// Phases 2 and 3 of blocked Floyd-Warshall in packed 16-bit arithmetic, one min-plus product
// kernel (phase 2 runs it on the pivot cross, as min_plus_pipelined.cuh explains):
//   C(ti, tj) = min(C(ti, tj), A(ti, r) (x) B(r, tj))   over the 128 pivot columns k.
// Every 32-bit word holds two adjacent columns j, j+1 (the int16 matrix read as words). The A
// operand comes from the expanded pivot column (fw_pivot_packed16.cuh: d[i][k] in both halves),
// so one __viaddmin_s16x2 (Hopper DPX: VIADDMNMX.S16x2) applies two updates: min(a + b, c) per
// lane. Values stay in [0, 16383], so sums never leave a signed 16-bit lane.
//
// Thread map: 128 threads own a 128 x 128 output tile (128 rows x 64 words), each thread 8 rows
// x 8 words (16 columns): rows ty*4 + {0..3} and 64 + ty*4 + {0..3} (ty in 0..15), words
// tx*4 + {0..3} and 32 + tx*4 + {0..3} (tx in 0..7). Per 4 k a thread issues 16 vector loads
// for 256 instructions, the ratio of the int32 kernel, at twice the updates.
// Pipeline: 3-stage cp.async ring of 16-k chunks (43 KB), four blocks per SM.

#include <cstdint>

#include "cuda/kernels/min_plus_common.cuh"
#include "cuda/tile_config.hpp"

namespace apsp::cuda::kernels {

inline constexpr int p16_threads = 128;
inline constexpr int p16_words = fw_tile / 2; // words per tile row
inline constexpr int p16_chunk_k = 16;
inline constexpr int p16_chunks = fw_tile / p16_chunk_k;
inline constexpr int p16_stages = 3;
inline constexpr int p16_a_stride = p16_chunk_k + 4; // words; rows 4 apart land 16 banks apart
inline constexpr int p16_b_stride = p16_words + 4;   // words
inline constexpr int p16_stage_words = fw_tile * p16_a_stride + p16_chunk_k * p16_b_stride;

// Without DPX (before sm_90) the lane-wise add-min is emulated and needs more registers.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define APSP_P16_MIN_BLOCKS 2
#else
#define APSP_P16_MIN_BLOCKS 4
#endif

constexpr std::size_t packed16_smem_bytes() {
  return static_cast<std::size_t>(p16_stages) * p16_stage_words * sizeof(std::uint32_t);
}

/// Column word (0..63) within the tile of a thread's h-th group of 4 words (h in 0..1).
__device__ __forceinline__ int p16_word(int tx, int h) {
  return h * 32 + tx * 4;
}

/// Lanes q of a uint4 (compile-time q after unrolling).
__device__ __forceinline__ std::uint32_t p16_lane(const uint4& v, int q) {
  return q == 0 ? v.x : q == 1 ? v.y : q == 2 ? v.z : v.w;
}

/// d: the ld x ld int16 matrix as ld x ld/2 words; g_panel: ld x fw_tile expanded pivot column
/// words (D(i, r*128 + k) in both halves).
__global__ void __launch_bounds__(p16_threads, APSP_P16_MIN_BLOCKS)
    min_plus_packed16_kernel(std::uint32_t* __restrict__ d,
                             const std::uint32_t* __restrict__ g_panel, std::int64_t ld, int r,
                             int tiles, int set) {
  static_assert(fw_tile == 128 && p16_threads == 128, "thread map assumes 8 x 16 threads");
  static_assert(p16_chunks >= p16_stages - 1);
  static_assert(p16_a_stride % 4 == 0 && p16_b_stride % 4 == 0, "16-byte vector reads");

  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto* s_ring = reinterpret_cast<std::uint32_t*>(smem_raw); // stages x {A [128][20], B [16][68]}

  int ti = 0;
  int tj = 0;
  tile_of_block(r, tiles, set, ti, tj);
  const std::int64_t ldw = ld / 2; // words per matrix row
  const std::int64_t row0 = static_cast<std::int64_t>(ti) * fw_tile;
  const std::int64_t colw0 = static_cast<std::int64_t>(tj) * p16_words;
  const std::int64_t k0 = static_cast<std::int64_t>(r) * fw_tile;
  const std::uint32_t* g_a = g_panel + row0 * fw_tile; // [128 rows][128 k], row stride 128
  const std::uint32_t* g_b = d + k0 * ldw + colw0;     // [128 k][64 words], row stride ldw
  std::uint32_t* g_c = d + row0 * ldw + colw0;         // [128 rows][64 words], row stride ldw
  const int t = static_cast<int>(threadIdx.x);

  // Chunk c = A(:, 16c..16c+15): 512 vectors, 4 per thread; B(16c..16c+15, :): 256, 2 each.
  auto load_chunk = [&](int c) {
    std::uint32_t* s_a = s_ring + (c % p16_stages) * p16_stage_words;
    std::uint32_t* s_b = s_a + fw_tile * p16_a_stride;
#pragma unroll
    for (int p = 0; p < 4; ++p) {
      const int v = t + p * p16_threads;
      const int a_row = v >> 2;
      const int a_k = (v & 3) * 4;
      cp_async_16(s_a + a_row * p16_a_stride + a_k, g_a + a_row * fw_tile + c * p16_chunk_k + a_k);
    }
#pragma unroll
    for (int p = 0; p < 2; ++p) {
      const int v = t + p * p16_threads;
      const int b_k = v >> 4;
      const int b_w = (v & 15) * 4;
      cp_async_16(s_b + b_k * p16_b_stride + b_w, g_b + (c * p16_chunk_k + b_k) * ldw + b_w);
    }
  };

#pragma unroll
  for (int c = 0; c < p16_stages - 1; ++c) {
    load_chunk(c);
    cp_async_commit();
  }

  const int tx = t & 7;
  const int ty = t >> 3;
  std::uint32_t r_acc[8][8]; // [row][word], two lanes each
#pragma unroll
  for (int i = 0; i < 8; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j)
      r_acc[i][j] = 0x7fff7fffu; // the identity: above any sum of two values <= 16383
  }

#pragma unroll 1
  for (int c = 0; c < p16_chunks; ++c) {
    cp_async_wait<p16_stages - 2>(); // chunk c has landed (for this thread)
    __syncthreads();                 // ... for all threads; and chunk c-1's slot is free
    if (c + p16_stages - 1 < p16_chunks)
      load_chunk(c + p16_stages - 1);
    cp_async_commit(); // possibly empty: keeps the group count uniform
    const std::uint32_t* s_a = s_ring + (c % p16_stages) * p16_stage_words;
    const std::uint32_t* s_b = s_a + fw_tile * p16_a_stride;
#pragma unroll
    for (int kq = 0; kq < p16_chunk_k; kq += 4) {
      uint4 r_a[8]; // 8 rows x 4 consecutive k, each value in both halves
#pragma unroll
      for (int i = 0; i < 8; ++i)
        r_a[i] = *reinterpret_cast<const uint4*>(s_a + tile_line(ty, i) * p16_a_stride + kq);
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const std::uint32_t* b_row = s_b + (kq + q) * p16_b_stride;
        const uint4 b_lo = *reinterpret_cast<const uint4*>(b_row + p16_word(tx, 0));
        const uint4 b_hi = *reinterpret_cast<const uint4*>(b_row + p16_word(tx, 1));
        const std::uint32_t r_b[8] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w,
                                      b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          const std::uint32_t a = p16_lane(r_a[i], q);
#pragma unroll
          for (int j = 0; j < 8; ++j)
            r_acc[i][j] = __viaddmin_s16x2(a, r_b[j], r_acc[i][j]);
        }
      }
    }
  }

  // Epilogue: lane-wise signed min with the old tile; a vector is written only if it changed.
  // The old values of merge_batch_rows rows are loaded before any store (load_old_rows).
  constexpr int rows = merge_batch_rows;
  const auto col = [tx](int h) { return p16_word(tx, h); };
#pragma unroll
  for (int i0 = 0; i0 < 8; i0 += rows) {
    uint4 r_old[rows][2];
    load_old_rows(r_old, g_c, ldw, i0, ty, col);
#pragma unroll
    for (int i = 0; i < rows; ++i) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const uint4 old = r_old[i][h];
        uint4 v;
        v.x = __vmins2(old.x, r_acc[i0 + i][h * 4 + 0]);
        v.y = __vmins2(old.y, r_acc[i0 + i][h * 4 + 1]);
        v.z = __vmins2(old.z, r_acc[i0 + i][h * 4 + 2]);
        v.w = __vmins2(old.w, r_acc[i0 + i][h * 4 + 3]);
        if (v.x != old.x || v.y != old.y || v.z != old.z || v.w != old.w)
          *reinterpret_cast<uint4*>(g_c + tile_line(ty, i0 + i) * ldw + col(h)) = v;
      }
    }
  }
}

} // namespace apsp::cuda::kernels
