// Explicit instantiation of the blocked Floyd-Warshall driver for float.

#include "cuda/fw_driver.cuh"

namespace apsp::cuda {

template void configure_kernels<float>(const device_problem<float>&);
template void enqueue_round<float>(const device_problem<float>&, std::int64_t, cudaStream_t);
template std::unique_ptr<round_kernels> make_round_kernels<float>(const device_problem<float>&);
template void enqueue_fill_padding<float>(float*, std::int64_t, std::int64_t, cudaStream_t);

} // namespace apsp::cuda
