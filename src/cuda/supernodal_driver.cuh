#pragma once
// Definitions behind supernodal_kernels.hpp; included once per weight type by
// supernodal_<type>.cu.

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "cuda/cuda_check.hpp"
#include "cuda/kernels/supernodal_steps.cuh"
#include "cuda/supernodal_kernels.hpp"

namespace apsp::cuda {
namespace sn_detail {

template <class T> kernels::sn_args<T> args_of(const sn_launch<T>& l) {
  kernels::sn_args<T> g;
  g.rows = l.rows;
  g.pivot_rows = l.pivot_rows;
  g.via_rows = l.via_rows;
  g.row_lists = l.row_lists;
  g.pivots_final = l.pivots_final;
  g.tasks = l.tasks;
  g.count = l.count;
  g.pivots = l.pivots;
  g.ancestors = l.ancestors;
  g.order = l.order;
  g.shared = l.shared;
  return g;
}

template <class T, bool Clamp, bool Paths> void configure_variant() {
  const auto block =
      static_cast<int>(kernels::sn_close_smem_bytes(kernels::sn_slice, sizeof(T), Paths));
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::sn_block_kernel<T, Clamp, Paths, false>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, block));
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::sn_block_kernel<T, Clamp, Paths, true>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, block));
  const auto product = static_cast<int>(kernels::sn_product_smem_bytes(sizeof(T)));
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::sn_product_kernel<T, Clamp, Paths, false>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, product));
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::sn_product_kernel<T, Clamp, Paths, true>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, product));
}

template <class T, bool Clamp, bool Paths> void enqueue_variant(const sn_launch<T>& l, cudaStream_t s) {
  const auto g = args_of(l);
  const std::size_t close_smem = kernels::sn_close_smem_bytes(l.widest, sizeof(T), Paths);
  if (l.whole) {
    kernels::sn_block_kernel<T, Clamp, Paths, true>
        <<<static_cast<unsigned>(l.count), kernels::mp_threads, close_smem, s>>>(g);
    APSP_CUDA_CHECK_LAUNCH("sn_block_kernel (whole steps)", s);
    if (l.after_close != nullptr)
      APSP_CUDA_TRY(cudaEventRecord(l.after_close, s));
    if (l.after_panels != nullptr)
      APSP_CUDA_TRY(cudaEventRecord(l.after_panels, s));
    return;
  }
  const std::size_t smem = kernels::sn_product_smem_bytes(sizeof(T));
  if (l.outer_only) {
    if (l.after_close != nullptr)
      APSP_CUDA_TRY(cudaEventRecord(l.after_close, s));
    if (l.after_panels != nullptr)
      APSP_CUDA_TRY(cudaEventRecord(l.after_panels, s));
    kernels::sn_product_kernel<T, Clamp, Paths, true>
        <<<static_cast<unsigned>(l.outer_blocks), kernels::mp_threads, smem, s>>>(g);
    APSP_CUDA_CHECK_LAUNCH("sn_product_kernel (outer alone)", s);
    return;
  }
  if (!l.pivots_final) {
    kernels::sn_block_kernel<T, Clamp, Paths, false>
        <<<static_cast<unsigned>(l.count), kernels::mp_threads, close_smem, s>>>(g);
    APSP_CUDA_CHECK_LAUNCH("sn_block_kernel (close)", s);
  }
  if (l.after_close != nullptr)
    APSP_CUDA_TRY(cudaEventRecord(l.after_close, s));
  kernels::sn_product_kernel<T, Clamp, Paths, false>
      <<<static_cast<unsigned>(l.panel_blocks), kernels::mp_threads, smem, s>>>(g);
  APSP_CUDA_CHECK_LAUNCH("sn_product_kernel (panels)", s);
  if (l.after_panels != nullptr)
    APSP_CUDA_TRY(cudaEventRecord(l.after_panels, s));
  if (l.skip_outer)
    return;
  kernels::sn_product_kernel<T, Clamp, Paths, true>
      <<<static_cast<unsigned>(l.outer_blocks), kernels::mp_threads, smem, s>>>(g);
  APSP_CUDA_CHECK_LAUNCH("sn_product_kernel (outer)", s);
}

inline dim3 rows_grid(std::int64_t rows) {
  return dim3(static_cast<unsigned>(rows));
}

} // namespace sn_detail

template <class T> void configure_sn_kernels(bool paths) {
  if (paths) {
    sn_detail::configure_variant<T, false, true>();
    sn_detail::configure_variant<T, true, true>();
  } else {
    sn_detail::configure_variant<T, false, false>();
    sn_detail::configure_variant<T, true, false>();
  }
}

template <class T> void enqueue_sn_launch(const sn_launch<T>& l, cudaStream_t s) {
  if (l.count == 0)
    return;
  // Only integer sums need the clamp (float32 keeps -inf as it is).
  const bool clamp = l.clamp && std::is_integral_v<T>;
  if (l.via_rows != nullptr) {
    if (clamp)
      sn_detail::enqueue_variant<T, true, true>(l, s);
    else
      sn_detail::enqueue_variant<T, false, true>(l, s);
  } else if (clamp) {
    sn_detail::enqueue_variant<T, true, false>(l, s);
  } else {
    sn_detail::enqueue_variant<T, false, false>(l, s);
  }
}

template <class E> void enqueue_sn_row_table(E** table, E* base, std::int64_t ld, std::int64_t n,
                                             cudaStream_t s) {
  if (n <= 0)
    return;
  kernels::sn_row_table_kernel<E>
      <<<static_cast<unsigned>((n + 255) / 256), 256, 0, s>>>(table, base, ld, n);
  APSP_CUDA_CHECK_LAUNCH("sn_row_table_kernel", s);
}

template <class E>
void enqueue_sn_gather_rows(E* out, E* const* rows, const std::int32_t* row_labels,
                            std::int64_t count, const std::int32_t* label, std::int64_t n,
                            cudaStream_t s) {
  if (count <= 0 || n <= 0)
    return;
  kernels::sn_gather_rows_kernel<E>
      <<<sn_detail::rows_grid(count), 256, 0, s>>>(out, rows, row_labels, label, n);
  APSP_CUDA_CHECK_LAUNCH("sn_gather_rows_kernel", s);
}

template <class E>
void enqueue_sn_scatter_rows(E* const* rows, const E* in, const std::int32_t* row_labels,
                             std::int64_t count, const std::int32_t* label, std::int64_t n,
                             cudaStream_t s) {
  if (count <= 0 || n <= 0)
    return;
  kernels::sn_scatter_rows_kernel<E>
      <<<sn_detail::rows_grid(count), 256, 0, s>>>(rows, in, row_labels, label, n);
  APSP_CUDA_CHECK_LAUNCH("sn_scatter_rows_kernel", s);
}

template <class T>
void enqueue_sn_fill_rows(T* local, const std::int32_t* labels, std::int64_t count,
                          std::int64_t n, T infinity, cudaStream_t s) {
  if (count <= 0 || n <= 0)
    return;
  kernels::sn_fill_rows_kernel<T>
      <<<sn_detail::rows_grid(count), 256, 0, s>>>(local, labels, n, infinity);
  APSP_CUDA_CHECK_LAUNCH("sn_fill_rows_kernel", s);
}

template <class T>
void enqueue_sn_min_into(T* dst, const T* src, std::int32_t* dst_via, const std::int32_t* src_via,
                         std::int64_t count, cudaStream_t s) {
  if (count <= 0)
    return;
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((count + 255) / 256, 65536));
  kernels::sn_min_into_kernel<T><<<blocks, 256, 0, s>>>(dst, src, dst_via, src_via, count);
  APSP_CUDA_CHECK_LAUNCH("sn_min_into_kernel", s);
}

} // namespace apsp::cuda
