#pragma once
// PHAST's downward sweep on the device (cuda/phast_sweep.hpp): the distances of K sources at
// every slot of the sweep, g_d[slot * K + lane] (a slot's K lanes side by side, so a warp reads
// a tail's 32 lanes in one transaction), seeded by the sources' upward searches and then
// relaxed level by level over the incoming downward arcs; and the gathers that turn a sweep's
// lanes into rows of true distances by column (vertex or target).

#include <cstdint>

#include "cuda/phast_sweep.hpp"

namespace apsp::cuda::kernels {

/// Threads of a block of the sweep kernels.
inline constexpr int sweep_threads = 256;
/// Columns and lanes of the gather's tile (a transpose through shared memory).
inline constexpr int gather_tile = 32;

/// g_d[i] = value for i < count. Grid-stride.
__global__ void __launch_bounds__(sweep_threads)
    sweep_fill_kernel(std::int32_t* __restrict__ g_d, std::int64_t count, std::int32_t value) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < count; i += stride)
    g_d[i] = value;
}

/// Each seed's distance into its slot's lane (seeds in the executor's slots; a source's upward
/// search reaches a slot once, so no two seeds share a cell). g_d: slots x 2^lane_shift.
__global__ void __launch_bounds__(sweep_threads)
    sweep_seed_kernel(std::int32_t* __restrict__ g_d, int lane_shift,
                      const sweep_seed* __restrict__ g_seeds, std::int64_t count) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < count; i += stride) {
    const sweep_seed s = g_seeds[i];
    g_d[(static_cast<std::int64_t>(s.slot) << lane_shift) + s.lane] = s.dist;
  }
}

/// One level of the sweep: slots [first, last), whose incoming arcs' tails all lie in earlier
/// levels. Thread t takes slot first + t / K and lane t % K (K = 2^lane_shift >= 32: a warp is
/// 32 lanes of one slot, its arcs read once for all of them); its distance becomes the least of
/// its seed and of each tail's distance plus the arc's weight. Values stay <= cap and weights
/// < cap, so a sum fits int32 (cap + cap < 2^31), as the cpu's sweep has it.
__global__ void __launch_bounds__(sweep_threads)
    sweep_level_kernel(std::int32_t* __restrict__ g_d, int lane_shift, std::int64_t first,
                       std::int64_t last, const std::int64_t* __restrict__ g_offsets,
                       const int2* __restrict__ g_arcs) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t slot = first + (t >> lane_shift);
  if (slot >= last)
    return;
  const std::int64_t lane = t & ((std::int64_t{1} << lane_shift) - 1);
  std::int32_t acc = g_d[(slot << lane_shift) + lane];
  const std::int64_t end = g_offsets[slot + 1];
  for (std::int64_t a = g_offsets[slot]; a < end; ++a) {
    const int2 arc = __ldg(&g_arcs[a]); // x: the tail's slot, y: the weight
    const std::int32_t c = g_d[(static_cast<std::int64_t>(arc.x) << lane_shift) + lane] + arc.y;
    acc = c < acc ? c : acc;
  }
  g_d[(slot << lane_shift) + lane] = acc;
}

/// Rows of true distances from a sweep: g_out[k * ld + j] for lanes k < count and columns
/// j < cols is the distance of lane k's source to column j, whose slot is g_col_slot[j] and
/// potential g_col_h[j] (null: none): the sweep's value plus h(column) - h(source), or `cap`
/// where the sweep found no path (a value >= cap). g_lane_h: each lane's source potential
/// (null: none). Tiles of gather_tile columns x gather_tile lanes, read along the lanes and
/// written along the columns through shared memory; grid (column tiles, lane tiles).
__global__ void __launch_bounds__(gather_tile * 8)
    sweep_gather_kernel(const std::int32_t* __restrict__ g_d, int lane_shift, int count,
                        const std::int32_t* __restrict__ g_col_slot,
                        const std::int32_t* __restrict__ g_col_h,
                        const std::int32_t* __restrict__ g_lane_h, std::int64_t cols,
                        std::int32_t cap, std::int32_t* __restrict__ g_out, std::int64_t ld) {
  __shared__ std::int32_t s_tile[gather_tile][gather_tile + 1]; // [column][lane]
  const std::int64_t col0 = static_cast<std::int64_t>(blockIdx.x) * gather_tile;
  const int lane0 = static_cast<int>(blockIdx.y) * gather_tile;
  const int tx = static_cast<int>(threadIdx.x); // 0 .. gather_tile - 1
  // Read: column col0 + r, lanes lane0 + tx (a slot's lanes are contiguous).
  for (int r = static_cast<int>(threadIdx.y); r < gather_tile; r += static_cast<int>(blockDim.y)) {
    const std::int64_t j = col0 + r;
    const int k = lane0 + tx;
    std::int32_t v = cap;
    if (j < cols && k < count) {
      const std::int32_t raw =
          g_d[(static_cast<std::int64_t>(g_col_slot[j]) << lane_shift) + k];
      if (raw < cap) {
        const std::int32_t ht = g_col_h != nullptr ? g_col_h[j] : 0;
        const std::int32_t hs = g_lane_h != nullptr ? g_lane_h[k] : 0;
        v = raw + (ht - hs);
      }
    }
    s_tile[r][tx] = v;
  }
  __syncthreads();
  // Write: lane lane0 + r, columns col0 + tx.
  for (int r = static_cast<int>(threadIdx.y); r < gather_tile; r += static_cast<int>(blockDim.y)) {
    const int k = lane0 + r;
    const std::int64_t j = col0 + tx;
    if (k < count && j < cols)
      g_out[static_cast<std::int64_t>(k) * ld + j] = s_tile[tx][r];
  }
}

} // namespace apsp::cuda::kernels
