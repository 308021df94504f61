#pragma once
// Host-side entry to the general min-plus product and the small helper kernels the out-of-core
// and multi-GPU drivers need. Instantiated for int32 and float in gemm_int32.cu and
// gemm_float32.cu.

#include <cuda_runtime_api.h>

#include <cstdint>

namespace apsp::cuda {

/// Device workspace for products with paths from tagged slices
/// (kernels/min_plus_tagged.cuh): a [a_rows][128], b [128][b_cols], one overflow flag per k
/// slice. Used only where it is large enough for the product; tagged_panels.hpp owns it.
struct gemm_tags {
  std::int32_t* a = nullptr;
  std::int64_t a_rows = 0;
  std::int32_t* b = nullptr;
  std::int64_t b_cols = 0;
  int* overflow = nullptr;
  std::int64_t slices = 0;
};

/// C = min(C, A (x) B): C is rows x cols (stride ldc), A rows x k (lda), B k x cols (ldb); rows,
/// cols and k are multiples of fw_tile (the buffers are padded with infinity). With `via` (laid
/// out like C) every element that strictly improves records k_base + its winning column of A.
template <class T> struct gemm_args {
  T* c = nullptr;
  std::int64_t ldc = 0;
  const T* a = nullptr;
  std::int64_t lda = 0;
  const T* b = nullptr;
  std::int64_t ldb = 0;
  std::int32_t* via = nullptr;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t k = 0;
  std::int64_t k_base = 0;
  bool clamp = false; ///< clamp sums at -infinity (integer types, negative weights)
  /// float32 distances without paths whose values all lack the sign bit (three_way_minima):
  /// the minima two pivots at a time on the bit patterns (kernels/min_plus_common.cuh).
  bool three_way = false;
  gemm_tags tags; ///< paths without clamp: tagged slices where they fit (optional)
};

/// Raises the product kernels' shared-memory limits on the current device.
template <class T> void configure_gemm(bool clamp, bool paths);
/// Enqueues the product on s (nothing when rows, cols or k is 0).
template <class T> void enqueue_gemm(const gemm_args<T>& g, cudaStream_t s);
/// Sets d[r0 .. r0+rows)[c0 .. c0+cols) (stride ld) to value.
template <class T>
void enqueue_fill_rect(T* d, std::int64_t ld, std::int64_t r0, std::int64_t rows, std::int64_t c0,
                       std::int64_t cols, T value, cudaStream_t s);
/// dst = local + offset wherever local >= 0 (rows x cols, strides ld_dst and ld_local).
void enqueue_merge_via(std::int32_t* dst, std::int64_t ld_dst, const std::int32_t* local,
                       std::int64_t ld_local, std::int64_t rows, std::int64_t cols,
                       std::int64_t offset, cudaStream_t s);

extern template void configure_gemm<std::int32_t>(bool, bool);
extern template void configure_gemm<float>(bool, bool);
extern template void enqueue_gemm<std::int32_t>(const gemm_args<std::int32_t>&, cudaStream_t);
extern template void enqueue_gemm<float>(const gemm_args<float>&, cudaStream_t);
extern template void enqueue_fill_rect<std::int32_t>(std::int32_t*, std::int64_t, std::int64_t,
                                                     std::int64_t, std::int64_t, std::int64_t,
                                                     std::int32_t, cudaStream_t);
extern template void enqueue_fill_rect<float>(float*, std::int64_t, std::int64_t, std::int64_t,
                                              std::int64_t, std::int64_t, float, cudaStream_t);

} // namespace apsp::cuda
