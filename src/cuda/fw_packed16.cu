// Launchers of the packed 16-bit blocked Floyd-Warshall (see fw_packed16.hpp).

#include <algorithm>

#include "cuda/cuda_check.hpp"
#include "cuda/fw_packed16.hpp"
#include "cuda/kernels/fill_padding.cuh"
#include "cuda/kernels/fw_pivot_packed16.cuh"
#include "cuda/kernels/min_plus_packed16.cuh"

namespace apsp::cuda {
namespace {

void enqueue_expand(const packed16_problem& p, int round, cudaStream_t s) {
  constexpr int threads = 256;
  const std::int64_t work = p.ld * kernels::fw_tile;
  const auto blocks = static_cast<unsigned>(
      std::min<std::int64_t>((work + threads - 1) / threads, std::int64_t{4096}));
  kernels::expand_pivot_column_kernel<<<blocks, threads, 0, s>>>(p.d, p.panel, p.ld, round);
  APSP_CUDA_CHECK_LAUNCH("expand_pivot_column_kernel (packed16)", s);
}

} // namespace

void configure_packed16_kernels() {
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_packed16_kernel,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(kernels::packed16_smem_bytes())));
  // Four blocks per SM need 4 x 43 KB: ask for the largest shared-memory carveout.
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_packed16_kernel,
                                     cudaFuncAttributePreferredSharedMemoryCarveout,
                                     cudaSharedmemCarveoutMaxShared));
}

void enqueue_packed16_round(const packed16_problem& p, std::int64_t r, cudaStream_t s) {
  const int tiles = static_cast<int>(p.tiles());
  const int round = static_cast<int>(r);
  kernels::pivot_packed16_kernel<<<1, kernels::pivot16_threads, 0, s>>>(p.d, p.ld, round);
  APSP_CUDA_CHECK_LAUNCH("pivot_packed16_kernel (phase 1)", s);
  if (tiles < 2)
    return;
  auto* words = reinterpret_cast<std::uint32_t*>(p.d);
  const auto others = static_cast<unsigned>(tiles - 1);
  // The A operand is the pivot column as it stands: after phase 1 for phase 2 (the column
  // panel reads its own old tile, the row panel the closed pivot tile), after phase 2 for
  // phase 3.
  for (const bool cross : {true, false}) {
    enqueue_expand(p, round, s);
    const unsigned blocks = cross ? 2 * others : others * others;
    kernels::min_plus_packed16_kernel<<<blocks, kernels::p16_threads,
                                        kernels::packed16_smem_bytes(), s>>>(words, p.panel, p.ld,
                                                                             round, tiles, cross);
    APSP_CUDA_CHECK_LAUNCH(
        cross ? "min_plus_packed16_kernel (phase 2)" : "min_plus_packed16_kernel (phase 3)", s);
  }
}

void enqueue_packed16_fill_padding(std::int16_t* d, std::int64_t n, std::int64_t ld,
                                   cudaStream_t s) {
  if (ld == n)
    return;
  kernels::fill_padding_kernel<std::int16_t>
      <<<1024, 256, 0, s>>>(d, n, ld, kernels::int16_infinity);
  APSP_CUDA_CHECK_LAUNCH("fill_padding_kernel (packed16)", s);
}

} // namespace apsp::cuda
