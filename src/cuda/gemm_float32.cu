// Explicit instantiation of the min-plus product driver for float.

#include "cuda/gemm_driver.cuh"

namespace apsp::cuda {

template void configure_gemm<float>(bool, bool);
template void enqueue_gemm<float>(const gemm_args<float>&, cudaStream_t);
template void enqueue_fill_rect<float>(float*, std::int64_t, std::int64_t, std::int64_t,
                                       std::int64_t, std::int64_t, float, cudaStream_t);

} // namespace apsp::cuda
