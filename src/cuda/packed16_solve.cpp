#include "cuda/packed16_solve.hpp"

#include <algorithm>
#include <cstddef>

#include "cuda/cuda_check.hpp"
#include "cuda/device_rounds.hpp"
#include "cuda/fw_packed16.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/resources.hpp"
#include "cuda/transfer.hpp"

namespace apsp::cuda {
namespace {

constexpr std::int32_t int32_infinity = weight_traits<std::int32_t>::infinity;
constexpr std::int16_t int16_infinity = static_cast<std::int16_t>(detail::narrow_infinity);

/// Bytes of each packed staging buffer: the 64 MiB that transfer.cpp's buffers had until
/// 16 MiB measured faster there (the packed copies were not measured at 16 MiB).
constexpr std::size_t packed_staging_bytes = std::size_t{64} << 20;

/// Two pinned int16 buffers of whole rows (packed_staging_bytes, in int16 rows), so the
/// host-side conversion of one chunk overlaps the DMA of the other.
struct staging16 {
  explicit staging16(std::int64_t n)
      : rows_per_chunk(std::max<std::int64_t>(
            1, std::min<std::int64_t>(n, static_cast<std::int64_t>(packed_staging_bytes /
                                                                   (static_cast<std::size_t>(n) *
                                                                    sizeof(std::int16_t)))))),
        buffers{pinned_buffer<std::int16_t>(static_cast<std::size_t>(rows_per_chunk * n)),
                pinned_buffer<std::int16_t>(static_cast<std::size_t>(rows_per_chunk * n))} {}
  std::int64_t rows_per_chunk;
  pinned_buffer<std::int16_t> buffers[2];
  event done[2] = {event(cudaEventDisableTiming), event(cudaEventDisableTiming)};
};

void narrow_rows(std::int16_t* dst, const std::int32_t* src, std::int64_t rows, std::int64_t n) {
#pragma omp parallel for schedule(static) if (rows * n > (std::int64_t{1} << 20))
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int32_t* in = src + i * n;
    std::int16_t* out = dst + i * n;
    for (std::int64_t j = 0; j < n; ++j)
      out[j] = static_cast<std::int16_t>(std::min<std::int32_t>(in[j], int16_infinity));
  }
}

void widen_rows(std::int32_t* dst, const std::int16_t* src, std::int64_t rows, std::int64_t n) {
#pragma omp parallel for schedule(static) if (rows * n > (std::int64_t{1} << 20))
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int16_t* in = src + i * n;
    std::int32_t* out = dst + i * n;
    for (std::int64_t j = 0; j < n; ++j)
      out[j] = in[j] >= int16_infinity ? int32_infinity : std::int32_t{in[j]};
  }
}

} // namespace

void upload_packed16(const std::int32_t* host, std::int16_t* device, std::int64_t n,
                     std::int64_t ld, cudaStream_t s) {
  if (n == 0)
    return;
  nvtx_range range("apsp::cuda upload (packed16)");
  staging16 st(n);
  const std::size_t row_bytes = static_cast<std::size_t>(n) * sizeof(std::int16_t);
  int chunk = 0;
  for (std::int64_t row0 = 0; row0 < n; row0 += st.rows_per_chunk, ++chunk) {
    const int b = chunk % 2;
    const std::int64_t rows = std::min(st.rows_per_chunk, n - row0);
    // The buffer is free once the copy issued from it two chunks ago has finished.
    if (chunk >= 2)
      st.done[b].synchronize();
    narrow_rows(st.buffers[b].data(), host + row0 * n, rows, n);
    APSP_CUDA_TRY(cudaMemcpy2DAsync(device + row0 * ld, static_cast<std::size_t>(ld) * 2,
                                    st.buffers[b].data(), row_bytes, row_bytes,
                                    static_cast<std::size_t>(rows), cudaMemcpyHostToDevice, s));
    st.done[b].record(s);
  }
  APSP_CUDA_TRY(cudaStreamSynchronize(s));
}

void download_packed16(const std::int16_t* device, std::int32_t* host, std::int64_t n,
                       std::int64_t ld, cudaStream_t s) {
  if (n == 0)
    return;
  nvtx_range range("apsp::cuda download (packed16)");
  staging16 st(n);
  const std::size_t row_bytes = static_cast<std::size_t>(n) * sizeof(std::int16_t);
  const std::int64_t chunks = (n + st.rows_per_chunk - 1) / st.rows_per_chunk;
  // Issue chunk c's DMA, then widen chunk c-1 from the other buffer while it runs.
  for (std::int64_t c = 0; c <= chunks; ++c) {
    if (c < chunks) {
      const std::int64_t row0 = c * st.rows_per_chunk;
      const std::int64_t rows = std::min(st.rows_per_chunk, n - row0);
      const int b = static_cast<int>(c % 2);
      APSP_CUDA_TRY(cudaMemcpy2DAsync(st.buffers[b].data(), row_bytes, device + row0 * ld,
                                      static_cast<std::size_t>(ld) * 2, row_bytes,
                                      static_cast<std::size_t>(rows), cudaMemcpyDeviceToHost, s));
      st.done[b].record(s);
    }
    if (c > 0) {
      const std::int64_t prev = c - 1;
      const std::int64_t row0 = prev * st.rows_per_chunk;
      const std::int64_t rows = std::min(st.rows_per_chunk, n - row0);
      const int b = static_cast<int>(prev % 2);
      st.done[b].synchronize();
      widen_rows(host + row0 * n, st.buffers[b].data(), rows, n);
    }
  }
}

} // namespace apsp::cuda

namespace apsp::detail {

void solve_packed16_on_device(dense_matrix<std::int32_t>& h_d, run_context& ctx, int device) {
  const std::int64_t n = h_d.n();
  if (n == 0)
    return;
  constexpr std::int64_t b = cuda::kernels::fw_tile;
  const std::int64_t ld = (n + b - 1) / b * b;
  cuda::nvtx_range range("apsp::cuda::solve (packed16)");
  cuda::device_guard guard(device);
  cuda::stream s;
  cuda::device_buffer<std::int16_t> d_d(static_cast<std::size_t>(ld) *
                                        static_cast<std::size_t>(ld));
  cuda::device_buffer<std::uint32_t> d_panel(cuda::packed16_panel_words(ld));

  cuda::upload_packed16(h_d.data(), d_d.data(), n, ld, s.get());
  cuda::enqueue_packed16_fill_padding(d_d.data(), n, ld, s.get());

  cuda::packed16_problem p;
  p.d = d_d.data();
  p.panel = d_panel.data();
  p.ld = ld;
  cuda::configure_packed16_kernels();

  // No checkpoints here (solves that ask for them run in int32): nothing to make current.
  const auto kernels = cuda::make_packed16_round_kernels(p);
  cuda::run_device_rounds(*kernels, s.get(), ctx, round_hooks{}, [] {});
  cuda::download_packed16(d_d.data(), h_d.data(), n, ld, s.get());
  s.synchronize();
}

} // namespace apsp::detail
