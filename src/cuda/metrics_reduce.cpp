// reduce_for_metrics: the row, histogram and column reductions of a block of a solved matrix
// on its device, and their O(n) results brought back into matrix_partials.

#include "cuda/metrics_reduce.hpp"

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "core/metrics_histogram.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/resources.hpp"

namespace apsp::cuda {
namespace {

template <class T>
void copy_down(std::vector<T>& to, const T* from, std::size_t count, cudaStream_t s) {
  to.resize(count);
  if (count > 0)
    APSP_CUDA_TRY(cudaMemcpyAsync(to.data(), from, count * sizeof(T), cudaMemcpyDeviceToHost, s));
}

} // namespace

template <class T>
detail::matrix_partials<T>
reduce_for_metrics(const T* d, std::int64_t ld, std::int64_t width,
                   const detail::column_share& share, std::int64_t first_row, std::int64_t rows,
                   const detail::metrics_request& request, cudaStream_t s) {
  detail::matrix_partials<T> p;
  p.first_row = first_row;
  p.share = share;
  const T limit = static_cast<T>(request.path_limit);
  const auto r = static_cast<std::size_t>(rows);
  {
    device_buffer<T> max(r);
    device_buffer<std::int64_t> reach(r);
    device_buffer<double> sum(r);
    device_buffer<double> inverse(r);
    device_buffer<T> diagonal(r);
    enqueue_row_reduce(d, ld, width, share, first_row, rows, limit, max.data(), reach.data(),
                       sum.data(), inverse.data(), diagonal.data(), s);
    std::vector<T> diagonals;
    copy_down(p.row_max, max.data(), r, s);
    copy_down(p.row_reach, reach.data(), r, s);
    copy_down(p.row_sum, sum.data(), r, s);
    copy_down(p.row_inverse, inverse.data(), r, s);
    copy_down(diagonals, diagonal.data(), r, s);
    APSP_CUDA_TRY(cudaStreamSynchronize(s));
    for (std::size_t i = 0; i < r; ++i) {
      if (!(diagonals[i] < T{0}))
        continue;
      ++p.negative_diagonal_count;
      if (p.negative_diagonal.size() < 64)
        p.negative_diagonal.push_back(first_row + static_cast<std::int64_t>(i));
    }
  }
  if (request.histogram_bins > 0) {
    // The width histogram_builder reaches for these values: set by the largest path, which
    // the rows' maxima hold.
    double largest = 0;
    for (const T v : p.row_max)
      largest = std::max(largest, static_cast<double>(v));
    const int bins = request.histogram_bins;
    p.histogram_exponent =
        detail::histogram_builder::exponent_for(largest, bins, std::is_integral_v<T>);
    device_buffer<unsigned long long> counts(static_cast<std::size_t>(bins) + 1);
    APSP_CUDA_TRY(cudaMemsetAsync(counts.data(), 0, counts.size() * sizeof(unsigned long long), s));
    enqueue_histogram(d, ld, width, share, first_row, rows, limit, p.histogram_exponent, bins,
                      counts.data(), s);
    std::vector<unsigned long long> all;
    copy_down(all, counts.data(), counts.size(), s);
    APSP_CUDA_TRY(cudaStreamSynchronize(s));
    p.histogram_counts.assign(all.begin(), all.end() - 1);
    p.histogram_negative = all.back();
  }
  if (request.columns) {
    // Slices of rows give the columns' threads more parallelism than n alone; their partials
    // are summed in slice order, so every run gives the same sums.
    const int slices = static_cast<int>(std::clamp<std::int64_t>(rows / 1024, 1, 16));
    const auto cells = static_cast<std::size_t>(slices) * static_cast<std::size_t>(width);
    device_buffer<T> max(cells);
    device_buffer<std::int64_t> reach(cells);
    device_buffer<double> sum(cells);
    device_buffer<double> inverse(cells);
    enqueue_column_reduce(d, ld, width, share, first_row, rows, slices, limit, max.data(),
                          reach.data(), sum.data(), inverse.data(), s);
    const auto columns = static_cast<std::size_t>(width);
    copy_down(p.column_max, max.data(), columns, s);
    copy_down(p.column_reach, reach.data(), columns, s);
    copy_down(p.column_sum, sum.data(), columns, s);
    copy_down(p.column_inverse, inverse.data(), columns, s);
    APSP_CUDA_TRY(cudaStreamSynchronize(s));
  }
  return p;
}

template detail::matrix_partials<std::int32_t>
reduce_for_metrics(const std::int32_t*, std::int64_t, std::int64_t, const detail::column_share&,
                   std::int64_t, std::int64_t, const detail::metrics_request&, cudaStream_t);
template detail::matrix_partials<float>
reduce_for_metrics(const float*, std::int64_t, std::int64_t, const detail::column_share&,
                   std::int64_t, std::int64_t, const detail::metrics_request&, cudaStream_t);

} // namespace apsp::cuda
