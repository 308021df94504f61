// Launchers of the metrics' reduction kernels (kernels/metrics_reduce.cuh) for int32 and float32.

#include <algorithm>

#include "cuda/cuda_check.hpp"
#include "cuda/kernels/metrics_reduce.cuh"
#include "cuda/metrics_reduce.hpp"

namespace apsp::cuda {
namespace {

/// Enough blocks to fill the device, no more than there are rows.
unsigned row_blocks(std::int64_t rows) {
  int device = 0;
  int sms = 132;
  if (cudaGetDevice(&device) == cudaSuccess)
    (void)cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>(rows, 8LL * sms)));
}

kernels::share_map map_of(const detail::column_share& share) {
  return {share.b, share.stride, share.offset};
}

} // namespace

template <class T>
void enqueue_row_reduce(const T* d, std::int64_t ld, std::int64_t width,
                        const detail::column_share& share, std::int64_t first_row,
                        std::int64_t rows, T limit, T* max, std::int64_t* reach, double* sum,
                        double* inverse, T* diagonal, cudaStream_t s) {
  if (rows == 0)
    return;
  kernels::row_reduce_kernel<T><<<row_blocks(rows), kernels::reduce_threads, 0, s>>>(
      d, ld, width, map_of(share), first_row, rows, limit, max, reach, sum, inverse, diagonal);
  APSP_CUDA_CHECK_LAUNCH("row_reduce_kernel", s);
}

template <class T>
void enqueue_column_reduce(const T* d, std::int64_t ld, std::int64_t width,
                           const detail::column_share& share, std::int64_t first_row,
                           std::int64_t rows, int slices, T limit, T* max, std::int64_t* reach,
                           double* sum, double* inverse, cudaStream_t s) {
  if (width == 0)
    return;
  const std::int64_t slice_rows = (rows + slices - 1) / slices;
  const dim3 grid(static_cast<unsigned>((width + 255) / 256), static_cast<unsigned>(slices));
  kernels::column_reduce_kernel<T><<<grid, 256, 0, s>>>(
      d, ld, width, map_of(share), first_row, rows, slice_rows, limit, max, reach, sum, inverse);
  APSP_CUDA_CHECK_LAUNCH("column_reduce_kernel", s);
  kernels::column_combine_kernel<T><<<static_cast<unsigned>((width + 255) / 256), 256, 0, s>>>(
      width, slices, max, reach, sum, inverse);
  APSP_CUDA_CHECK_LAUNCH("column_combine_kernel", s);
}

template <class T>
void enqueue_histogram(const T* d, std::int64_t ld, std::int64_t width,
                       const detail::column_share& share, std::int64_t first_row, std::int64_t rows,
                       T limit, int exponent, int bins, unsigned long long* counts,
                       cudaStream_t s) {
  if (rows == 0 || width == 0)
    return;
  // Shared-memory bins up to 32 KiB; a block's cells (rows / blocks x n) stay below 2^32 so no
  // shared count overflows.
  const bool shared_bins = bins <= 8192;
  const std::int64_t min_blocks = (rows * width >> 31) + 1;
  const auto blocks = std::max<unsigned>(
      row_blocks(rows), static_cast<unsigned>(std::min<std::int64_t>(rows, min_blocks)));
  const std::size_t shared = shared_bins ? static_cast<std::size_t>(bins) * sizeof(unsigned) : 0;
  kernels::histogram_kernel<T><<<blocks, kernels::reduce_threads, shared, s>>>(
      d, ld, width, map_of(share), first_row, rows, limit, exponent, bins, shared_bins, counts,
      counts + bins);
  APSP_CUDA_CHECK_LAUNCH("histogram_kernel", s);
}

#define APSP_METRICS_REDUCE(T)                                                                     \
  template void enqueue_row_reduce<T>(const T*, std::int64_t, std::int64_t,                        \
                                      const detail::column_share&, std::int64_t, std::int64_t, T,  \
                                      T*, std::int64_t*, double*, double*, T*, cudaStream_t);      \
  template void enqueue_column_reduce<T>(                                                          \
      const T*, std::int64_t, std::int64_t, const detail::column_share&, std::int64_t,             \
      std::int64_t, int, T, T*, std::int64_t*, double*, double*, cudaStream_t);                    \
  template void enqueue_histogram<T>(const T*, std::int64_t, std::int64_t,                         \
                                     const detail::column_share&, std::int64_t, std::int64_t, T,   \
                                     int, int, unsigned long long*, cudaStream_t);
APSP_METRICS_REDUCE(std::int32_t)
APSP_METRICS_REDUCE(float)
#undef APSP_METRICS_REDUCE

} // namespace apsp::cuda
