#pragma once
// The initial distance matrix built on the device from an edge list, with the same meaning as
// the host's fill_initial (src/core/checks.cpp): infinity everywhere, 0 on the diagonal, then
// every edge u -> v lowers d[u][v] to its weight (parallel edges keep the minimum, a
// self-loop only counts when negative).

#include <cstdint>

namespace apsp::cuda::kernels {

/// d[i][j] = (i == j ? 0 : infinity) for i, j < n (row stride ld); the padding is left alone.
template <class T>
__global__ void init_matrix_kernel(T* d, std::int64_t n, std::int64_t ld, T infinity) {
  const std::int64_t total = n * n;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t i = e / n;
    const std::int64_t j = e - i * n;
    d[i * ld + j] = i == j ? T(0) : infinity;
  }
}

__device__ inline void atomic_lower(std::int32_t* cell, std::int32_t v) {
  atomicMin(cell, v);
}

/// Float minimum by compare-and-swap on the bit pattern (weights are finite: no NaN).
__device__ inline void atomic_lower(float* cell, float v) {
  auto* bits = reinterpret_cast<int*>(cell);
  int old = *bits;
  while (v < __int_as_float(old)) {
    const int seen = atomicCAS(bits, old, __float_as_int(v));
    if (seen == old)
      break;
    old = seen;
  }
}

/// d[src[e]][dst[e]] = min(d[src[e]][dst[e]], w[e]) for e < m.
template <class T>
__global__ void scatter_edges_kernel(T* d, std::int64_t ld, const std::int32_t* src,
                                     const std::int32_t* dst, const T* w, std::int64_t m) {
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < m;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    atomic_lower(d + static_cast<std::int64_t>(src[e]) * ld + dst[e], w[e]);
  }
}

} // namespace apsp::cuda::kernels
