// The launchers of PHAST's sweep kernels (kernels/phast_sweep.cuh), int32.

#include <algorithm>

#include "cuda/cuda_check.hpp"
#include "cuda/kernels/phast_sweep.cuh"
#include "cuda/phast_sweep.hpp"

namespace apsp::cuda {
namespace {

/// Blocks of sweep_threads for `count` items, capped for the grid-stride kernels.
unsigned grid_for(std::int64_t count) {
  const std::int64_t blocks = (count + kernels::sweep_threads - 1) / kernels::sweep_threads;
  return static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, 65535));
}

} // namespace

void enqueue_sweep_fill(std::int32_t* d, std::int64_t count, std::int32_t value, cudaStream_t s) {
  if (count <= 0)
    return;
  kernels::sweep_fill_kernel<<<grid_for(count), kernels::sweep_threads, 0, s>>>(d, count, value);
  APSP_CUDA_CHECK_LAUNCH("sweep_fill_kernel", s);
}

void enqueue_sweep_seeds(std::int32_t* d, int lane_shift, const sweep_seed* seeds,
                         std::int64_t count, cudaStream_t s) {
  if (count <= 0)
    return;
  kernels::sweep_seed_kernel<<<grid_for(count), kernels::sweep_threads, 0, s>>>(d, lane_shift,
                                                                                  seeds, count);
  APSP_CUDA_CHECK_LAUNCH("sweep_seed_kernel", s);
}

void enqueue_sweep_level(std::int32_t* d, int lane_shift, std::int64_t first, std::int64_t last,
                         const std::int64_t* offsets, const std::int32_t* arcs, cudaStream_t s) {
  if (last <= first)
    return;
  const std::int64_t threads = (last - first) << lane_shift;
  const std::int64_t blocks = (threads + kernels::sweep_threads - 1) / kernels::sweep_threads;
  kernels::sweep_level_kernel<<<static_cast<unsigned>(blocks), kernels::sweep_threads, 0, s>>>(
      d, lane_shift, first, last, offsets, reinterpret_cast<const int2*>(arcs));
  APSP_CUDA_CHECK_LAUNCH("sweep_level_kernel", s);
}

void enqueue_sweep_gather(const std::int32_t* d, int lane_shift, int count,
                          const std::int32_t* col_slot, const std::int32_t* col_h,
                          const std::int32_t* lane_h, std::int64_t cols, std::int32_t cap,
                          std::int32_t* out, std::int64_t ld, cudaStream_t s) {
  if (count <= 0 || cols <= 0)
    return;
  const dim3 grid(static_cast<unsigned>((cols + kernels::gather_tile - 1) / kernels::gather_tile),
                  static_cast<unsigned>((count + kernels::gather_tile - 1) / kernels::gather_tile));
  const dim3 block(kernels::gather_tile, 8);
  kernels::sweep_gather_kernel<<<grid, block, 0, s>>>(d, lane_shift, count, col_slot, col_h,
                                                      lane_h, cols, cap, out, ld);
  APSP_CUDA_CHECK_LAUNCH("sweep_gather_kernel", s);
}

} // namespace apsp::cuda
