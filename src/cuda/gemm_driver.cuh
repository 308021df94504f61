#pragma once
// Definitions behind gemm_driver.hpp; included once per weight type by gemm_<type>.cu.

#include <algorithm>
#include <type_traits>

#include "cuda/cuda_check.hpp"
#include "cuda/gemm_driver.hpp"
#include "cuda/kernels/min_plus_gemm.cuh"
#include "cuda/kernels/min_plus_tagged.cuh"

namespace apsp::cuda {
namespace gemm_detail {

/// Blocks for a grid-stride helper kernel over `total` elements.
inline unsigned helper_blocks(std::int64_t total) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((total + 255) / 256, 1, 4096));
}

/// The distance product for g: float32 with gemm_args::three_way takes its minima three at a
/// time (min_plus_chunk), as fw_driver.cuh's kernels do.
template <class T, bool Clamp> auto gemm_kernel(const gemm_args<T>& g) {
  if constexpr (std::is_same_v<T, float>) {
    if (g.three_way)
      return &kernels::min_plus_gemm_kernel<T, Clamp, true>;
  }
  return &kernels::min_plus_gemm_kernel<T, Clamp, false>;
}

template <class T, bool Clamp, bool Paths> void configure_variant() {
  if constexpr (Paths) {
    APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_gemm_via_kernel<T, Clamp>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       kernels::panel_smem_bytes(sizeof(T))));
    APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_tagged_kernel<T, false>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       kernels::pipelined_smem_bytes(sizeof(T))));
  } else {
    APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_gemm_kernel<T, Clamp>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       kernels::pipelined_smem_bytes(sizeof(T))));
    if constexpr (std::is_same_v<T, float>) {
      APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_gemm_kernel<T, Clamp, true>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         kernels::pipelined_smem_bytes(sizeof(T))));
    }
  }
}

template <class T, bool Clamp, bool Paths>
void enqueue_variant(const gemm_args<T>& g, cudaStream_t s) {
  constexpr std::int64_t tile = kernels::fw_tile;
  const auto col_tiles = static_cast<int>(g.cols / tile);
  const auto blocks = static_cast<unsigned>((g.rows / tile) * (g.cols / tile));
  if constexpr (Paths) {
    // Tagged slices (workspace large enough), else the panel epilogue.
    const gemm_tags& w = g.tags;
    const bool tagged =
        w.a != nullptr && w.a_rows >= g.rows && w.b_cols >= g.cols && w.slices >= g.k / tile;
    if (tagged) {
      APSP_CUDA_TRY(
          cudaMemsetAsync(w.overflow, 0, static_cast<std::size_t>(g.k / tile) * sizeof(int), s));
    }
    // One step per 128-wide k slice, in stream order: each sees the previous slices' result.
    for (std::int64_t k0 = 0; k0 < g.k; k0 += tile) {
      const int* run_if = nullptr;
      if (tagged) {
        int* overflow = g.tags.overflow + k0 / tile;
        kernels::tag_slice_kernel<T, Clamp><<<helper_blocks(128 * (g.rows + g.cols)), 256, 0, s>>>(
            g.a + k0, g.lda, g.rows, g.b + k0 * g.ldb, g.ldb, g.cols, g.tags.a, g.tags.b, overflow);
        APSP_CUDA_CHECK_LAUNCH("tag_slice_kernel", s);
        kernels::min_plus_tagged_kernel<T, false>
            <<<blocks, kernels::mp_threads, kernels::pipelined_smem_bytes(sizeof(T)), s>>>(
                g.c, g.via, g.ldc, g.tags.a, g.tags.b, g.cols,
                static_cast<std::int32_t>(g.k_base + k0), overflow, -1, col_tiles, INT64_MAX);
        APSP_CUDA_CHECK_LAUNCH("min_plus_tagged_kernel", s);
        run_if = overflow;
      }
      kernels::min_plus_gemm_via_kernel<T, Clamp>
          <<<blocks, kernels::mp_threads, kernels::panel_smem_bytes(sizeof(T)), s>>>(
              g.c, g.via, g.ldc, g.a + k0, g.lda, g.b + k0 * g.ldb, g.ldb, g.k_base + k0, col_tiles,
              run_if);
      APSP_CUDA_CHECK_LAUNCH("min_plus_gemm_via_kernel", s);
    }
  } else {
    auto* kernel = gemm_kernel<T, Clamp>(g);
    kernel<<<blocks, kernels::mp_threads, kernels::pipelined_smem_bytes(sizeof(T)), s>>>(
        g.c, g.ldc, g.a, g.lda, g.b, g.ldb, static_cast<int>(g.k / kernels::pipe_chunk_k),
        col_tiles);
    APSP_CUDA_CHECK_LAUNCH("min_plus_gemm_kernel", s);
  }
}

/// Calls f(clamp, paths) as bool constants; float never clamps (see fw_driver.cuh).
template <class T, class F> void dispatch(bool clamp, bool paths, F&& f) {
  using yes = std::true_type;
  using no = std::false_type;
  if constexpr (std::is_integral_v<T>) {
    if (clamp) {
      paths ? f(yes{}, yes{}) : f(yes{}, no{});
      return;
    }
  }
  paths ? f(no{}, yes{}) : f(no{}, no{});
}

} // namespace gemm_detail

template <class T> void configure_gemm(bool clamp, bool paths) {
  gemm_detail::dispatch<T>(clamp, paths, [](auto c, auto p) {
    gemm_detail::configure_variant<T, decltype(c)::value, decltype(p)::value>();
  });
}

template <class T> void enqueue_gemm(const gemm_args<T>& g, cudaStream_t s) {
  if (g.rows <= 0 || g.cols <= 0 || g.k <= 0)
    return;
  // The distance kernel forms A offsets in 32 bits (row < 128 times lda).
  if (g.lda > (std::int64_t{1} << 31) / kernels::fw_tile - kernels::fw_tile)
    throw_cuda_error(cudaErrorInvalidValue, "min-plus product: leading dimension beyond 2^24",
                     __FILE__, __LINE__);
  gemm_detail::dispatch<T>(g.clamp, g.via != nullptr, [&](auto c, auto p) {
    gemm_detail::enqueue_variant<T, decltype(c)::value, decltype(p)::value>(g, s);
  });
}

template <class T>
void enqueue_fill_rect(T* d, std::int64_t ld, std::int64_t r0, std::int64_t rows, std::int64_t c0,
                       std::int64_t cols, T value, cudaStream_t s) {
  if (rows <= 0 || cols <= 0)
    return;
  kernels::fill_rect_kernel<T>
      <<<gemm_detail::helper_blocks(rows * cols), 256, 0, s>>>(d, ld, r0, rows, c0, cols, value);
  APSP_CUDA_CHECK_LAUNCH("fill_rect_kernel", s);
}

} // namespace apsp::cuda
