#pragma once
// Phase 3 with the path matrix at the speed of the distance kernel, for int32 without negative
// weights: the pivot index rides in the low bits of the sums.
//
// After phase 2, tag_panels_kernel copies the two pivot panels of the round into side buffers
// as tagged values: B'(k, j) = B(k, j) * 128 and A'(i, k) = A(i, k) * 128 + k. Then
//   A'(i, k) + B'(k, j) = (A(i, k) + B(k, j)) * 128 + k,
// so the plain min-plus product of the tagged panels -- the distance kernel's main loop, one
// VIADDMNMX per update -- yields per output the minimum sum in the high bits and, among the k
// reaching it, the smallest in the low 7: exactly the pivot a sequential scan keeps (the first k
// reaching the minimum), with no rescan in the epilogue.
//
// That needs every finite panel value v to satisfy 0 <= v < 2^22 (so sums stay below 2^30);
// infinity is tagged as 2^30 - 128 (two of them still fit in 31 bits). A round whose panels
// hold anything else sets its overflow flag, and that round's phase 3 runs
// min_plus_paths_kernel instead (the two launches check the flag and one of them returns).

#include <cstdint>
#include <type_traits>

#include "cuda/kernels/min_plus_pipelined.cuh"

namespace apsp::cuda::kernels {

inline constexpr int tag_bits = 7;                               // log2(fw_tile)
inline constexpr std::int32_t tag_limit = std::int32_t{1} << 22; // finite values < this
inline constexpr std::int32_t tagged_infinity = (std::int32_t{1} << 30) - fw_tile;
static_assert(fw_tile == 1 << tag_bits);

/// Writes the tagged copies of round r's panels: a_tag [ld rows][128] from columns r*128.. of d,
/// b_tag [128][ld] from rows r*128.. of d; sets overflow[r] when a value cannot be tagged.
/// (T is std::int32_t; a template only so that every translation unit may include this.)
template <class T>
__global__ void tag_panels_kernel(const T* __restrict__ d, std::int64_t ld, int r,
                                  std::int32_t* __restrict__ a_tag,
                                  std::int32_t* __restrict__ b_tag, int* __restrict__ overflow) {
  static_assert(std::is_same_v<T, std::int32_t>);
  const std::int64_t k0 = static_cast<std::int64_t>(r) * fw_tile;
  const std::int64_t per_panel = ld * fw_tile;
  bool bad = false;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       e < 2 * per_panel; e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const bool is_a = e < per_panel;
    const std::int64_t f = is_a ? e : e - per_panel;
    // A: row f / 128, pivot f % 128; B: rows k0.. of d are one contiguous run of 128 * ld.
    const std::int32_t v =
        is_a ? d[(f >> tag_bits) * ld + k0 + (f & (fw_tile - 1))] : d[k0 * ld + f];
    std::int32_t tagged = tagged_infinity;
    if (v >= 0 && v < tag_limit) {
      tagged = v * fw_tile + (is_a ? static_cast<std::int32_t>(f & (fw_tile - 1)) : 0);
    } else if (v != int32_infinity) {
      bad = true;
    }
    (is_a ? a_tag : b_tag)[f] = tagged;
  }
  if (__syncthreads_or(bad) && threadIdx.x == 0)
    overflow[r] = 1;
}

/// Phase 3 of round r from the tagged panels (returns at once when overflow[r] is set): merges
/// each improved distance into d and its pivot into via.
template <class T>
__global__ void __launch_bounds__(mp_threads, 2)
    min_plus_tagged_kernel(T* __restrict__ d, std::int32_t* __restrict__ via, std::int64_t ld,
                           int r, int tiles, const std::int32_t* a_tag, const std::int32_t* b_tag,
                           const int* overflow) {
  static_assert(fw_tile == 128 && mp_threads == 256, "thread map assumes 16 x 16 threads");
  static_assert(std::is_same_v<T, std::int32_t>);
  if (overflow[r] != 0)
    return;
  using ops = min_plus<std::int32_t, false>;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto* s_ring = reinterpret_cast<std::int32_t*>(smem_raw);

  int ti = 0;
  int tj = 0;
  tile_of_block(r, tiles, false, ti, tj);
  const std::int64_t row0 = static_cast<std::int64_t>(ti) * fw_tile;
  const std::int64_t col0 = static_cast<std::int64_t>(tj) * fw_tile;
  const int t = static_cast<int>(threadIdx.x);
  std::int32_t r_acc[8][8];
  ring_min_plus<ops>(r_acc, a_tag + row0 * fw_tile, fw_tile, b_tag + col0, static_cast<int>(ld),
                     pipe_chunks, s_ring, t);

  const int tx = t & 15;
  const int ty = t >> 4;
  const std::int32_t k0 = r * fw_tile;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const std::int64_t row = row0 + tile_line(ty, i);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const std::int64_t col = col0 + tile_line(tx, h * 4);
      auto* g_d = reinterpret_cast<int4*>(d + row * ld + col);
      int4 v = *g_d;
      bool any = false;
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const std::int32_t acc = r_acc[i][h * 4 + q];
        const std::int32_t sum = acc >> tag_bits; // floor: the tag is the low 7 bits
        // A sum with an infinite operand is at least tagged_infinity: not a path.
        const bool improved = acc < tagged_infinity && sum < lane_of(v, q);
        if (improved) {
          set_lane(v, q, sum);
          via[row * ld + col + q] = k0 + (acc & (fw_tile - 1));
        }
        any |= improved;
      }
      if (any)
        *g_d = v;
    }
  }
}

} // namespace apsp::cuda::kernels
