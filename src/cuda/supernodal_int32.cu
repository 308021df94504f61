// Explicit instantiation of the supernodal step launchers for std::int32_t.

#include "cuda/supernodal_driver.cuh"

namespace apsp::cuda {

template void configure_sn_kernels<std::int32_t>(bool);
template void enqueue_sn_launch<std::int32_t>(const sn_launch<std::int32_t>&, cudaStream_t);
template void enqueue_sn_row_table<std::int32_t>(std::int32_t**, std::int32_t*, std::int64_t, std::int64_t, cudaStream_t);
template void enqueue_sn_gather_rows<std::int32_t>(std::int32_t*, std::int32_t* const*, const std::int32_t*, std::int64_t,
                                          const std::int32_t*, std::int64_t, cudaStream_t);
template void enqueue_sn_scatter_rows<std::int32_t>(std::int32_t* const*, const std::int32_t*, const std::int32_t*,
                                           std::int64_t, const std::int32_t*, std::int64_t,
                                           cudaStream_t);
template void enqueue_sn_fill_rows<std::int32_t>(std::int32_t*, const std::int32_t*, std::int64_t, std::int64_t, std::int32_t,
                                        cudaStream_t);
template void enqueue_sn_min_into<std::int32_t>(std::int32_t*, const std::int32_t*, std::int32_t*, const std::int32_t*,
                                       std::int64_t, cudaStream_t);

} // namespace apsp::cuda
