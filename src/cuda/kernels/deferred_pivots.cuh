#pragma once
// Deferred pivots: phase 3 with paths (min_plus_paths.cuh) finds the pivot of each improved
// element after the rounds instead of in them.
//
// In the rounds, the rescan path kernel scans, for every element it strictly improves, the
// group of 16 pivots whose minimum took the element's new value. Most of those scans are
// wasted: an element improves in many rounds, and only the last improvement's pivot is kept.
// Deferred, the kernel writes the round and the group (deferred_code) where the pivot goes, and
// each round's panels, as phase 3 reads them, are kept (snapshot_panels_kernel): once every round
// has run, resolve_deferred_kernel scans each remaining code's group in its round's snapshot. An
// element keeps a code only while no later round improves it, so its value is still the
// minimum that round's group reached: the same values, sums and tie rule as the scan in the
// round, so the path matrix is the same bit for bit. Costs: the snapshots (2 x ld x ld values
// for all rounds) and one scan per element instead of one per improvement.

#include <cstdint>

#include "cuda/kernels/min_plus_common.cuh"
#include "cuda/kernels/min_plus_paths.cuh"

namespace apsp::cuda::kernels {

/// Values of one round's snapshot: A (ld rows x 128 pivots, D(i, k0 + k)) then B transposed
/// (ld columns x 128 pivots, D(k0 + k, j)).
__host__ __device__ constexpr std::int64_t snapshot_values(std::int64_t ld) {
  return 2 * ld * fw_tile;
}

inline constexpr int snapshot_threads = 256;

/// Round r's pivot column (A) and pivot row (B, transposed) of d into snap + r *
/// snapshot_values(ld), after the round's phase 2. Blocks stride over 32 x 32 pieces: the A
/// part's copies, then the B part's transposes through shared memory. With run_if, only for a
/// round whose phase 3 rescans (needs_rescan, min_plus_common.cuh).
template <class T>
__global__ void __launch_bounds__(snapshot_threads)
    snapshot_panels_kernel(const T* __restrict__ d, std::int64_t ld, int r, T* __restrict__ snap,
                           const int* run_if) {
  if (run_if != nullptr && !needs_rescan(run_if[r]))
    return;
  __shared__ T piece[32][33];
  const std::int64_t k0 = static_cast<std::int64_t>(r) * fw_tile;
  T* a = snap + static_cast<std::int64_t>(r) * snapshot_values(ld);
  T* bt = a + ld * fw_tile;
  const std::int64_t pieces = ld / 32 * (fw_tile / 32); // per part
  const int tx = static_cast<int>(threadIdx.x) & 31;
  const int ty = static_cast<int>(threadIdx.x) >> 5; // 0..7
  for (std::int64_t b = blockIdx.x; b < 2 * pieces; b += gridDim.x) {
    const bool transpose = b >= pieces;
    const std::int64_t q = transpose ? b - pieces : b;
    const std::int64_t line0 = q / (fw_tile / 32) * 32; // rows of A, columns of B
    const int kk0 = static_cast<int>(q % (fw_tile / 32)) * 32;
    if (!transpose) {
      for (int y = ty; y < 32; y += 8)
        a[(line0 + y) * fw_tile + kk0 + tx] = d[(line0 + y) * ld + k0 + kk0 + tx];
      continue;
    }
    for (int y = ty; y < 32; y += 8) // pivot kk0 + y, column line0 + tx
      piece[y][tx] = d[(k0 + kk0 + y) * ld + line0 + tx];
    __syncthreads();
    for (int y = ty; y < 32; y += 8) // column line0 + y, pivot kk0 + tx
      bt[(line0 + y) * fw_tile + kk0 + tx] = piece[tx][y];
    __syncthreads();
  }
}

/// Replaces every deferred code in rows and columns below n of via with its pivot, from the
/// snapshots (deferred_pivots above). Threads stride over groups of 4 entries of a row.
template <class T, bool Clamp>
__global__ void resolve_deferred_kernel(std::int32_t* __restrict__ via, std::int64_t ld,
                                        std::int64_t n, const T* __restrict__ snap) {
  using ops = min_plus<T, Clamp>;
  const std::int64_t quads = ld / 4;
  const std::int64_t total = n * quads;
  for (std::int64_t x = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; x < total;
       x += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = x / quads;
    const std::int64_t j0 = x % quads * 4;
    if (j0 >= n)
      continue;
    auto* at = reinterpret_cast<int4*>(via + i * ld + j0);
    int4 v = *at;
    int e[4] = {v.x, v.y, v.z, v.w};
    bool any = false;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      if (e[q] > -2)
        continue;
      const int code = -2 - e[q];
      const int r = code / paths_groups;
      const int group = code % paths_groups;
      const T* a = snap + static_cast<std::int64_t>(r) * snapshot_values(ld);
      const T* bt = a + ld * fw_tile;
      const int found =
          first_minimum_in_group<ops, 1>(a + i * fw_tile, bt + (j0 + q) * fw_tile, group);
      e[q] = r * fw_tile + found;
      any = true;
    }
    if (any)
      *at = make_int4(e[0], e[1], e[2], e[3]);
  }
}

} // namespace apsp::cuda::kernels
