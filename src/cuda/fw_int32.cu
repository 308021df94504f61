// Explicit instantiation of the blocked Floyd-Warshall driver for std::int32_t.

#include "cuda/fw_driver.cuh"

namespace apsp::cuda {

template void configure_kernels<std::int32_t>(const device_problem<std::int32_t>&);
template void enqueue_round<std::int32_t>(const device_problem<std::int32_t>&, std::int64_t,
                                          cudaStream_t);
template std::unique_ptr<round_kernels>
make_round_kernels<std::int32_t>(const device_problem<std::int32_t>&);
template void enqueue_fill_padding<std::int32_t>(std::int32_t*, std::int64_t, std::int64_t,
                                                 cudaStream_t);

} // namespace apsp::cuda
