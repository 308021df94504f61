#pragma once
// The initial distance matrix built on the device from an edge list, with the same meaning as
// the host's fill_initial (src/core/checks.cpp): infinity everywhere, 0 on the diagonal, then
// every edge u -> v lowers d[u][v] to its weight (parallel edges keep the minimum, a
// self-loop only counts when negative).

#include <cstdint>

#include "cuda/initial_matrix.hpp"

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

/// Where global cell (i, j) lives in the held tiles: false when it is not held; i and j become
/// the local row and column (grid_layout::holds, local_row and local_col).
__device__ inline bool to_held(const held_tiles& held, std::int64_t& i, std::int64_t& j) {
  if (held.b == 0)
    return true;
  const std::int64_t ti = i / held.b;
  const std::int64_t tj = j / held.b;
  if (ti % held.rows != held.row || tj % held.cols != held.col)
    return false;
  i = ti / held.rows * held.b + (i - ti * held.b);
  j = tj / held.cols * held.b + (j - tj * held.b);
  return true;
}

/// d[src[e]][dst[e]] = min(d[src[e]][dst[e]], w[e]) for e < m, for the held cells only.
template <class T>
__global__ void scatter_edges_kernel(T* d, std::int64_t ld, const std::int32_t* src,
                                     const std::int32_t* dst, const T* w, std::int64_t m,
                                     held_tiles held) {
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < m;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t i = src[e];
    std::int64_t j = dst[e];
    if (to_held(held, i, j))
      atomic_lower(d + i * ld + j, w[e]);
  }
}

/// d[v][v] = min(d[v][v], 0) for the held diagonal cells of v < n.
template <class T>
__global__ void lower_held_diagonal_kernel(T* d, std::int64_t ld, std::int64_t n, held_tiles held) {
  for (std::int64_t v = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; v < n;
       v += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::int64_t i = v;
    std::int64_t j = v;
    if (to_held(held, i, j))
      atomic_lower(d + i * ld + j, T(0));
  }
}

} // namespace apsp::cuda::kernels
