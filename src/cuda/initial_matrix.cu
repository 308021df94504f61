// Launchers of the initial-matrix kernels (kernels/initial_matrix.cuh) for int32 and float32.

#include <algorithm>

#include "cuda/cuda_check.hpp"
#include "cuda/initial_matrix.hpp"
#include "cuda/kernels/initial_matrix.cuh"

namespace apsp::cuda {

template <class T>
void enqueue_init_matrix(T* d, std::int64_t n, std::int64_t ld, T infinity, cudaStream_t s) {
  if (n == 0)
    return;
  kernels::init_matrix_kernel<T><<<2048, 256, 0, s>>>(d, n, ld, infinity);
  APSP_CUDA_CHECK_LAUNCH("init_matrix_kernel", s);
}

template <class T>
void enqueue_scatter_edges(T* d, std::int64_t ld, const std::int32_t* src, const std::int32_t* dst,
                           const T* w, std::int64_t m, cudaStream_t s, const held_tiles& held) {
  if (m == 0)
    return;
  kernels::scatter_edges_kernel<T><<<2048, 256, 0, s>>>(d, ld, src, dst, w, m, held);
  APSP_CUDA_CHECK_LAUNCH("scatter_edges_kernel", s);
}

template <class T>
void enqueue_lower_held_diagonal(T* d, std::int64_t ld, std::int64_t n, const held_tiles& held,
                                 cudaStream_t s) {
  if (n == 0)
    return;
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(1024, (n + 255) / 256));
  kernels::lower_held_diagonal_kernel<T><<<blocks, 256, 0, s>>>(d, ld, n, held);
  APSP_CUDA_CHECK_LAUNCH("lower_held_diagonal_kernel", s);
}

template void enqueue_init_matrix<std::int32_t>(std::int32_t*, std::int64_t, std::int64_t,
                                                std::int32_t, cudaStream_t);
template void enqueue_init_matrix<float>(float*, std::int64_t, std::int64_t, float, cudaStream_t);
template void enqueue_scatter_edges<std::int32_t>(std::int32_t*, std::int64_t, const std::int32_t*,
                                                  const std::int32_t*, const std::int32_t*,
                                                  std::int64_t, cudaStream_t, const held_tiles&);
template void enqueue_scatter_edges<float>(float*, std::int64_t, const std::int32_t*,
                                           const std::int32_t*, const float*, std::int64_t,
                                           cudaStream_t, const held_tiles&);
template void enqueue_lower_held_diagonal<std::int32_t>(std::int32_t*, std::int64_t, std::int64_t,
                                                        const held_tiles&, cudaStream_t);
template void enqueue_lower_held_diagonal<float>(float*, std::int64_t, std::int64_t,
                                                 const held_tiles&, cudaStream_t);

} // namespace apsp::cuda
