#pragma once
// Reductions of a solved distance matrix for the metrics, where the matrix lives: per row (one
// block a row), per column (one thread a column, rows in slices), and the histogram. A value
// is a path when it is off the diagonal and at most `limit` (matrix_partials.hpp).

#include <cstdint>

namespace apsp::cuda::kernels {

/// Threads of a block of the row and histogram kernels.
inline constexpr int reduce_threads = 256;

/// Which columns a block holds (matrix_partials.hpp's column_share): local column k is global
/// column (k / b * stride + offset) * b + k % b; stride 1: column k itself.
struct share_map {
  std::int64_t b;
  std::int64_t stride;
  std::int64_t offset;
  __device__ std::int64_t global(std::int64_t k) const {
    return stride == 1 ? k : (k / b * stride + offset) * b + k % b;
  }
  /// The local column of global column j, or -1 when the block does not hold it.
  __device__ std::int64_t local(std::int64_t j) const {
    if (stride == 1)
      return j;
    return (j / b) % stride == offset ? j / b / stride * b + j % b : -1;
  }
};

template <class T> struct row_totals {
  T max;
  std::int64_t reach;
  double sum;
  double inverse;
};

template <class T>
__device__ inline row_totals<T> combine(row_totals<T> a, const row_totals<T>& b) {
  a.max = a.max > b.max ? a.max : b.max;
  a.reach += b.reach;
  a.sum += b.sum;
  a.inverse += b.inverse;
  return a;
}

template <class T> __device__ inline row_totals<T> shuffle_down(const row_totals<T>& v, int by) {
  return {__shfl_down_sync(0xffffffffu, v.max, by),
          static_cast<std::int64_t>(__shfl_down_sync(0xffffffffu, v.reach, by)),
          __shfl_down_sync(0xffffffffu, v.sum, by), __shfl_down_sync(0xffffffffu, v.inverse, by)};
}

/// Row i of the `rows` rows at g_d (row stride ld, `width` columns, global columns by `cols`;
/// global row first_row + i): the largest path (0 if none), the paths, their sum and the sum of
/// 1/d over d > 0; and its diagonal value (0 when the block does not hold it). Grid: one block
/// of reduce_threads per row (grid-stride over rows).
template <class T>
__global__ void __launch_bounds__(reduce_threads)
    row_reduce_kernel(const T* __restrict__ g_d, std::int64_t ld, std::int64_t width,
                      share_map cols, std::int64_t first_row, std::int64_t rows, T limit, T* g_max,
                      std::int64_t* g_reach, double* g_sum, double* g_inverse, T* g_diagonal) {
  __shared__ row_totals<T> s_warp[reduce_threads / 32]; // one per warp
  for (std::int64_t i = blockIdx.x; i < rows; i += gridDim.x) {
    const T* g_row = g_d + i * ld;
    const std::int64_t diagonal = first_row + i;
    row_totals<T> r{T{0}, 0, 0.0, 0.0};
    for (std::int64_t t = threadIdx.x; t < width; t += reduce_threads) {
      const T v = g_row[t];
      if (cols.global(t) == diagonal || !(v <= limit))
        continue;
      r.max = v > r.max ? v : r.max;
      ++r.reach;
      r.sum += static_cast<double>(v);
      if (v > T{0})
        r.inverse += 1.0 / static_cast<double>(v);
    }
    for (int by = 16; by > 0; by /= 2)
      r = combine(r, shuffle_down(r, by));
    if (threadIdx.x % 32 == 0)
      s_warp[threadIdx.x / 32] = r;
    __syncthreads();
    if (threadIdx.x == 0) {
      row_totals<T> all = s_warp[0];
      for (int w = 1; w < reduce_threads / 32; ++w)
        all = combine(all, s_warp[w]);
      g_max[i] = all.max;
      g_reach[i] = all.reach;
      g_sum[i] = all.sum;
      g_inverse[i] = all.inverse;
      const std::int64_t at = cols.local(diagonal);
      g_diagonal[i] = at >= 0 && at < width ? g_row[at] : T{0};
    }
    __syncthreads(); // s_warp is reused by the next row
  }
}

/// Column t over rows [slice * slice_rows, ...) of the block: its paths, their largest, sum and
/// sum of inverses, into slice `blockIdx.y`'s partial arrays (`width` entries each). Grid: x
/// over columns, y over slices.
template <class T>
__global__ void column_reduce_kernel(const T* __restrict__ g_d, std::int64_t ld, std::int64_t width,
                                     share_map cols, std::int64_t first_row, std::int64_t rows,
                                     std::int64_t slice_rows, T limit, T* g_max,
                                     std::int64_t* g_reach, double* g_sum, double* g_inverse) {
  const std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (t >= width)
    return;
  const std::int64_t column = cols.global(t);
  const std::int64_t begin = blockIdx.y * slice_rows;
  const std::int64_t end = begin + slice_rows < rows ? begin + slice_rows : rows;
  T max = T{0};
  std::int64_t reach = 0;
  double sum = 0;
  double inverse = 0;
  for (std::int64_t i = begin; i < end; ++i) {
    const T v = g_d[i * ld + t];
    if (first_row + i == column || !(v <= limit))
      continue;
    max = v > max ? v : max;
    ++reach;
    sum += static_cast<double>(v);
    if (v > T{0})
      inverse += 1.0 / static_cast<double>(v);
  }
  const std::int64_t at = blockIdx.y * width + t;
  g_max[at] = max;
  g_reach[at] = reach;
  g_sum[at] = sum;
  g_inverse[at] = inverse;
}

/// The slices' column partials summed in slice order (the same result on every run).
template <class T>
__global__ void column_combine_kernel(std::int64_t width, int slices, T* g_max,
                                      std::int64_t* g_reach, double* g_sum, double* g_inverse) {
  const std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (t >= width)
    return;
  for (int k = 1; k < slices; ++k) {
    const std::int64_t at = k * width + t;
    g_max[t] = g_max[at] > g_max[t] ? g_max[at] : g_max[t];
    g_reach[t] += g_reach[at];
    g_sum[t] += g_sum[at];
    g_inverse[t] += g_inverse[at];
  }
}

/// Paths d >= 0 counted in bin floor(d / 2^exponent) of `bins`, paths d < 0 in g_negative.
/// Shared-memory counts when `bins` fit (dynamic shared memory of bins x 4 bytes), else global
/// atomics. Grid-stride over rows (a block's count of one bin stays below 2^32 while it holds
/// fewer than 2^32 cells: the launcher makes enough blocks).
template <class T>
__global__ void histogram_kernel(const T* __restrict__ g_d, std::int64_t ld, std::int64_t width,
                                 share_map cols, std::int64_t first_row, std::int64_t rows, T limit,
                                 int exponent, int bins, bool shared_bins,
                                 unsigned long long* g_counts, unsigned long long* g_negative) {
  extern __shared__ unsigned int s_counts[]; // [bins] when shared_bins
  if (shared_bins) {
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
      s_counts[b] = 0;
    __syncthreads();
  }
  unsigned long long negative = 0;
  for (std::int64_t i = blockIdx.x; i < rows; i += gridDim.x) {
    const T* g_row = g_d + i * ld;
    for (std::int64_t t = threadIdx.x; t < width; t += blockDim.x) {
      const T v = g_row[t];
      if (first_row + i == cols.global(t) || !(v <= limit))
        continue;
      if (v < T{0}) {
        ++negative;
        continue;
      }
      // A power-of-two scaling: exact, so the bin is the host builder's.
      const auto bin = static_cast<int>(floor(ldexp(static_cast<double>(v), -exponent)));
      if (shared_bins)
        atomicAdd(&s_counts[bin], 1u);
      else
        atomicAdd(&g_counts[bin], 1ull);
    }
  }
  if (negative != 0)
    atomicAdd(g_negative, negative);
  if (shared_bins) {
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
      if (s_counts[b] != 0)
        atomicAdd(&g_counts[b], static_cast<unsigned long long>(s_counts[b]));
  }
}

} // namespace apsp::cuda::kernels
