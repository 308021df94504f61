// Explicit instantiation of the supernodal step launchers for float.

#include "cuda/supernodal_driver.cuh"

namespace apsp::cuda {

template void configure_sn_kernels<float>(bool);
template void enqueue_sn_launch<float>(const sn_launch<float>&, cudaStream_t);
template void enqueue_sn_row_table<float>(float**, float*, std::int64_t, std::int64_t, cudaStream_t);
template void enqueue_sn_gather_rows<float>(float*, float* const*, const std::int32_t*, std::int64_t,
                                          const std::int32_t*, std::int64_t, cudaStream_t);
template void enqueue_sn_scatter_rows<float>(float* const*, const float*, const std::int32_t*,
                                           std::int64_t, const std::int32_t*, std::int64_t,
                                           cudaStream_t);
template void enqueue_sn_fill_rows<float>(float*, const std::int32_t*, std::int64_t, std::int64_t, float,
                                        cudaStream_t);
template void enqueue_sn_min_into<float>(float*, const float*, std::int32_t*, const std::int32_t*,
                                       std::int64_t, cudaStream_t);

} // namespace apsp::cuda
