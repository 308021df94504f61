#pragma once
// Pieces shared by the min-plus tile kernels (min_plus_pipelined.cuh and min_plus_tagged.cuh
// on the 4-stage ring, min_plus_panel.cuh and min_plus_paths.cuh with resident panels):
// cp.async staging, the block -> tile map, and the register-tiled inner product.
//
// Thread map: 256 threads own a 128 x 128 output tile, each thread an 8 x 8 block in registers:
// rows ty*4 + {0..3} and 64 + ty*4 + {0..3}, likewise columns with tx (16 x 16 threads). Every
// shared-memory read is a 16-byte vector, and one k step costs 4 vector loads per 64 updates.

#include <cstdint>
#include <type_traits>

#include "cuda/kernels/min_plus_ops.cuh"
#include "cuda/tile_config.hpp"

namespace apsp::cuda::kernels {

inline constexpr int mp_threads = 256;
inline constexpr int mp_thread_rows = 8; // outputs per thread along each axis

/// Bits of a k slice's flag with paths (min_plus_tagged.cuh): some value of the slice lies
/// outside the unsigned / the signed range of tagged values.
inline constexpr int tag_outside_unsigned = 1;
inline constexpr int tag_outside_signed = 2;
/// Whether a slice with these flags cannot be tagged, and the rescanning kernels take it.
__host__ __device__ constexpr bool needs_rescan(int flags) {
  return (flags & tag_outside_unsigned) != 0 && (flags & tag_outside_signed) != 0;
}

__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem) {
  const auto s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::);
}
/// 4 bytes at a time, for operands read across their rows (the transposed tiles' loads).
__device__ __forceinline__ void cp_async_4(void* smem, const void* gmem) {
  const auto s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(gmem));
}
template <int N> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/// Which tiles a launch covers in round r (of `tiles`): the cross (phase 2: row panel first,
/// then column panel), the rest (phase 3, row-major so neighbours share their A panel in L2),
/// or with look-ahead the rest split in two: the tiles of row and column r + 1 first (so round
/// r + 1's pivot and cross can start), then all others. `bool cross` converts to the first two.
enum tile_set : int { rest = 0, cross = 1, next_lines = 2, rest_ahead = 3 };

/// Blocks a launch of `set` needs in round r of `tiles` (r + 1 < tiles for the look-ahead sets).
__host__ __device__ constexpr unsigned blocks_of(int set, int tiles) {
  const unsigned others = static_cast<unsigned>(tiles - 1);
  switch (set) {
  case cross:
    return 2 * others;
  case next_lines:
    return 2 * others - 1;
  case rest_ahead:
    return (others - 1) * (others - 1);
  default:
    return others * others;
  }
}

/// Tile (ti, tj) of the b-th block of a launch of `set` in round r.
__device__ __forceinline__ void tile_of(int b, int r, int tiles, int set, int& ti, int& tj) {
  const int others = tiles - 1;
  // Skipping tiles r and r + 1 (the look-ahead sets).
  const auto skip_two = [r](int x) { return x < r ? x : x + 2; };
  if (set == cross) {
    if (b < others) {
      ti = r;
      tj = b + (b >= r);
    } else {
      b -= others;
      ti = b + (b >= r);
      tj = r;
    }
  } else if (set == next_lines) {
    // Row r + 1 off column r, then column r + 1 off rows r and r + 1.
    if (b < others) {
      ti = r + 1;
      tj = b + (b >= r);
    } else {
      ti = skip_two(b - others);
      tj = r + 1;
    }
  } else if (set == rest_ahead) {
    const int x = b / (others - 1);
    const int y = b - x * (others - 1);
    ti = skip_two(x);
    tj = skip_two(y);
  } else {
    const int x = b / others;
    const int y = b - x * others;
    ti = x + (x >= r);
    tj = y + (y >= r);
  }
}

__device__ __forceinline__ void tile_of_block(int r, int tiles, int set, int& ti, int& tj) {
  tile_of(static_cast<int>(blockIdx.x), r, tiles, set, ti, tj);
}

/// Row (or column) within the tile of a thread's i-th output (i in 0..7), t = ty (or tx).
__device__ __forceinline__ int tile_line(int t, int i) {
  return (i < 4 ? 0 : 60) + t * 4 + i;
}

/// The padding trim of the tile kernels (the matrix's vertices n..ld-1 feed nothing real): how
/// many of the fw_tile rows, columns or pivots from `first` lie below n; the k chunks of
/// `chunk_k` pivots from k0 that hold some pivot below n; and whether thread t's warp owns a row
/// below n in the tile from row0 (warp w owns rows 8w..8w+7 and 64+8w..64+8w+7; warp-uniform).
/// Index (n's type) is std::int64_t or int: the rescan path kernel keeps its indices in 32 bits
/// (64-bit ones spill its int32 instance).
template <class Index>
__device__ __forceinline__ int live_lines(Index n, std::common_type_t<Index> first) {
  return static_cast<int>(n - first < fw_tile ? n - first : fw_tile);
}
template <class Index>
__device__ __forceinline__ int live_k_chunks(Index n, std::common_type_t<Index> k0, int chunk_k) {
  return (live_lines(n, k0) + chunk_k - 1) / chunk_k;
}
template <class Index>
__device__ __forceinline__ bool warp_has_live_rows(Index n, std::common_type_t<Index> row0, int t) {
  return row0 + 8 * (t >> 5) < n;
}

/// r_acc[i][j] = min over K k of relax(a(row_i, k), b(k, col_j)).
/// s_a: [128 rows][AStride] starting at the chunk's first k; s_b: [K][BStride] likewise.
/// NJ = 8: columns tx*4 + {0..3} and 64 + tx*4 + {0..3} (a 128-wide tile); NJ = 4: columns
/// tx*4 + {0..3} only (a 64-wide tile, min_plus_paths.cuh). NI = 4: rows ty*4 + {0..3} only (a
/// 64-high tile, likewise). Fresh: r_acc's values on entry are ignored, the chunk's first k sets
/// them (a sum instead of a fill and a min per output). ThreeWay (float32 whose values all lack
/// the sign bit, device_problem::three_way): the minima two pivots at a time on the bit patterns.
template <class Ops, int AStride, int BStride, int K, int NJ = 8, bool Fresh = false, int NI = 8,
          bool ThreeWay = false, class T>
__device__ __forceinline__ void min_plus_chunk(T (&r_acc)[NI][NJ], const T* s_a, const T* s_b,
                                               int tx, int ty) {
  static_assert(K % 4 == 0 && AStride % 4 == 0 && BStride % 4 == 0, "16-byte vector reads");
  static_assert((NJ == 8 || NJ == 4) && (NI == 8 || NI == 4));
  using vec4 = typename Ops::vec4;
#pragma unroll
  for (int kq = 0; kq < K; kq += 4) {
    vec4 r_a[NI]; // NI rows x 4 consecutive k
#pragma unroll
    for (int i = 0; i < NI; ++i) {
      r_a[i] = *reinterpret_cast<const vec4*>(s_a + tile_line(ty, i) * AStride + kq);
    }
    if constexpr (ThreeWay) {
      // Two pivots per step: both sums, then one three-way integer minimum (DPX VIMNMX3) of
      // their bit patterns and the running minimum's, which order like the values for floats
      // without a sign bit (no negative weight, no -0.0): half the minimum instructions.
      static_assert(std::is_same_v<T, float>, "bit-pattern minima are for float32");
#pragma unroll
      for (int q = 0; q < 4; q += 2) {
        T r_b0[NJ];
        T r_b1[NJ];
#pragma unroll
        for (int h = 0; h < NJ / 4; ++h) {
          const vec4 b0 =
              *reinterpret_cast<const vec4*>(s_b + (kq + q) * BStride + h * 64 + tx * 4);
          const vec4 b1 =
              *reinterpret_cast<const vec4*>(s_b + (kq + q + 1) * BStride + h * 64 + tx * 4);
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            r_b0[h * 4 + e] = lane_of(b0, e);
            r_b1[h * 4 + e] = lane_of(b1, e);
          }
        }
#pragma unroll
        for (int i = 0; i < NI; ++i) {
          const T a0 = lane_of(r_a[i], q);
          const T a1 = lane_of(r_a[i], q + 1);
#pragma unroll
          for (int j = 0; j < NJ; ++j) {
            const T s0 = a0 + r_b0[j];
            const T s1 = a1 + r_b1[j];
            if (Fresh && kq == 0 && q == 0)
              r_acc[i][j] = fminf(s0, s1);
            else
              r_acc[i][j] = __int_as_float(__vimin3_s32(__float_as_int(r_acc[i][j]),
                                                        __float_as_int(s0), __float_as_int(s1)));
          }
        }
      }
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const T* b_row = s_b + (kq + q) * BStride;
        T r_b[NJ];
        const vec4 b_lo = *reinterpret_cast<const vec4*>(b_row + tx * 4);
        r_b[0] = b_lo.x;
        r_b[1] = b_lo.y;
        r_b[2] = b_lo.z;
        r_b[3] = b_lo.w;
        if constexpr (NJ == 8) {
          const vec4 b_hi = *reinterpret_cast<const vec4*>(b_row + 64 + tx * 4);
          r_b[4] = b_hi.x;
          r_b[5] = b_hi.y;
          r_b[6] = b_hi.z;
          r_b[7] = b_hi.w;
        }
#pragma unroll
        for (int i = 0; i < NI; ++i) {
          const T a = lane_of(r_a[i], q);
#pragma unroll
          for (int j = 0; j < NJ; ++j) {
            if (Fresh && kq == 0 && q == 0)
              r_acc[i][j] = Ops::sum(a, r_b[j]);
            else
              r_acc[i][j] = Ops::relax(r_acc[i][j], a, r_b[j]);
          }
        }
      }
    }
  }
}

template <class Ops, int NJ = 8, int NI = 8, class T>
__device__ __forceinline__ void fill_identity(T (&r_acc)[NI][NJ]) {
#pragma unroll
  for (int i = 0; i < NI; ++i) {
#pragma unroll
    for (int j = 0; j < NJ; ++j)
      r_acc[i][j] = Ops::identity();
  }
}

/// Rows of a thread's outputs whose old values merge_tile loads before storing any of them: two
/// measured best on the H100 (four cost registers that the small solves miss; eight spill).
inline constexpr int merge_batch_rows = 2;

/// The old 4-vectors of a thread's output rows i0..i0 + Rows - 1 (two per row, at columns
/// col(0) and col(1) of the row tile_line(ty, i), row stride ld), all loaded before the caller
/// stores any: for all the compiler knows a store to C may alias a later load, so merging vector
/// by vector waited one memory latency per vector.
template <int Rows, class V, class E, class Col>
__device__ __forceinline__ void load_old_rows(V (&r_old)[Rows][2], const E* g_c, std::int64_t ld,
                                              int i0, int ty, Col col) {
#pragma unroll
  for (int i = 0; i < Rows; ++i) {
#pragma unroll
    for (int h = 0; h < 2; ++h)
      r_old[i][h] = *reinterpret_cast<const V*>(g_c + tile_line(ty, i0 + i) * ld + col(h));
  }
}

/// The epilogue of the distance products: merges r_acc, clamped (clamp_min), into the 128 x 128
/// tile at g_c (row stride ld; the thread's outputs as in min_plus_chunk), writing only the
/// vectors that strictly improved; the old values of Rows rows at a time (load_old_rows).
template <class Ops, bool Clamp, int Rows = merge_batch_rows, class T>
__device__ __forceinline__ void merge_tile(T* g_c, std::int64_t ld, const T (&r_acc)[8][8], int tx,
                                           int ty) {
  using vec4 = typename Ops::vec4;
  constexpr int rows = Rows;
  static_assert(8 % rows == 0);
  const auto col = [tx](int h) { return tile_line(tx, h * 4); };
#pragma unroll
  for (int i0 = 0; i0 < 8; i0 += rows) {
    vec4 r_old[rows][2];
    load_old_rows(r_old, g_c, ld, i0, ty, col);
#pragma unroll
    for (int i = 0; i < rows; ++i) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        vec4 v = r_old[i][h];
        bool any = false;
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          const T x = clamp_min<T, Clamp>(r_acc[i0 + i][h * 4 + q]);
          if (x < lane_of(v, q)) {
            set_lane(v, q, x);
            any = true;
          }
        }
        if (any)
          *reinterpret_cast<vec4*>(g_c + tile_line(ty, i0 + i) * ld + col(h)) = v;
      }
    }
  }
}

} // namespace apsp::cuda::kernels
