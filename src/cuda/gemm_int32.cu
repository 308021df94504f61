// Explicit instantiation of the min-plus product driver for std::int32_t, and the via merge.

#include "cuda/gemm_driver.cuh"

namespace apsp::cuda {

template void configure_gemm<std::int32_t>(bool, bool);
template void enqueue_gemm<std::int32_t>(const gemm_args<std::int32_t>&, cudaStream_t);
template void enqueue_fill_rect<std::int32_t>(std::int32_t*, std::int64_t, std::int64_t,
                                              std::int64_t, std::int64_t, std::int64_t,
                                              std::int32_t, cudaStream_t);

void enqueue_merge_via(std::int32_t* dst, std::int64_t ld_dst, const std::int32_t* local,
                       std::int64_t ld_local, std::int64_t rows, std::int64_t cols,
                       std::int64_t offset, cudaStream_t s) {
  if (rows <= 0 || cols <= 0)
    return;
  kernels::merge_via_kernel<std::int32_t><<<gemm_detail::helper_blocks(rows * cols), 256, 0, s>>>(
      dst, ld_dst, local, ld_local, rows, cols, static_cast<std::int32_t>(offset));
  APSP_CUDA_CHECK_LAUNCH("merge_via_kernel", s);
}

} // namespace apsp::cuda
