#pragma once
// The metrics' reductions of a solved distance matrix on the device that holds it
// (kernels/metrics_reduce.cuh), so the matrix never crosses the bus: only O(n) sums and the
// histogram's counts come back.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/matrix_partials.hpp"

namespace apsp::cuda {

/// Rows [first_row, first_row + rows) of a distance matrix held at `d` (row stride ld) on the
/// current device, of which `width` columns are there (`share` says which: every column of an
/// n x n matrix is width n and the default share), reduced as `request` asks on stream `s`;
/// returns when done.
template <class T>
[[nodiscard]] detail::matrix_partials<T>
reduce_for_metrics(const T* d, std::int64_t ld, std::int64_t width,
                   const detail::column_share& share, std::int64_t first_row, std::int64_t rows,
                   const detail::metrics_request& request, cudaStream_t s);

// The launchers (metrics_reduce.cu), for int32 and float32; arguments as the kernels have them.
template <class T>
void enqueue_row_reduce(const T* d, std::int64_t ld, std::int64_t width,
                        const detail::column_share& share, std::int64_t first_row,
                        std::int64_t rows, T limit, T* max, std::int64_t* reach, double* sum,
                        double* inverse, T* diagonal, cudaStream_t s);
/// Column partials of `slices` slices of rows (arrays of slices x width), summed into the first
/// width.
template <class T>
void enqueue_column_reduce(const T* d, std::int64_t ld, std::int64_t width,
                           const detail::column_share& share, std::int64_t first_row,
                           std::int64_t rows, int slices, T limit, T* max, std::int64_t* reach,
                           double* sum, double* inverse, cudaStream_t s);
/// counts: bins + 1 zeroed entries, the last for paths < 0.
template <class T>
void enqueue_histogram(const T* d, std::int64_t ld, std::int64_t width,
                       const detail::column_share& share, std::int64_t first_row, std::int64_t rows,
                       T limit, int exponent, int bins, unsigned long long* counts, cudaStream_t s);

} // namespace apsp::cuda
