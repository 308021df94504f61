#pragma once
// Sets the padding of the ld x ld device matrix (columns n..ld-1 of rows < n, and all of rows
// n..ld-1) to infinity, so padded vertices are isolated and never improve a real distance.

#include <cstdint>

namespace apsp::cuda::kernels {

template <class T>
__global__ void fill_padding_kernel(T* d, std::int64_t n, std::int64_t ld, T infinity) {
  const std::int64_t pad = ld - n;
  const std::int64_t right = n * pad; // the strip right of the real matrix
  const std::int64_t total = right + pad * ld;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if (e < right) {
      d[(e / pad) * ld + n + e % pad] = infinity;
    } else {
      d[n * ld + (e - right)] = infinity;
    }
  }
}

} // namespace apsp::cuda::kernels
