#include "cuda/packed16_solve.hpp"

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "cuda/cuda_check.hpp"
#include "cuda/device_rounds.hpp"
#include "cuda/fw_packed16.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/resources.hpp"
#include "cuda/staging_pipeline.hpp"
#include "cuda/transfer.hpp"

namespace apsp::cuda {
namespace {

constexpr std::int32_t int32_infinity = weight_traits<std::int32_t>::infinity;
constexpr std::int16_t int16_infinity = static_cast<std::int16_t>(detail::narrow_infinity);

/// Bytes of each packed staging buffer: the 64 MiB that transfer.cpp's buffers had until
/// 16 MiB measured faster there (the packed copies were not measured at 16 MiB).
constexpr std::size_t packed_staging_bytes = std::size_t{64} << 20;

/// The packed copies' two pinned buffers: whole int16 rows, packed_staging_bytes at most (at
/// least one row).
staging_buffers packed_staging(std::int64_t n) {
  const std::size_t row_bytes = static_cast<std::size_t>(n) * sizeof(std::int16_t);
  const auto rows = std::max<std::int64_t>(
      1, std::min<std::int64_t>(n, static_cast<std::int64_t>(packed_staging_bytes / row_bytes)));
  return staging_buffers(staging_buffers::exactly{static_cast<std::size_t>(rows) * row_bytes});
}

/// The rows of an n x n int16 copy to or from a device matrix of edge ld.
staged_rows packed_rows(std::int64_t n, std::int64_t ld) {
  return {n, static_cast<std::size_t>(n) * sizeof(std::int16_t),
          static_cast<std::size_t>(ld) * sizeof(std::int16_t)};
}

/// Rows [row0, row0 + rows) of an n x n copy between the host's int32 matrix and the staging
/// buffer's int16 rows: narrowed into the buffer when the host side is const (an upload), widened
/// out of it otherwise (a download).
template <class Host>
void convert_rows(Host* host, unsigned char* buffer, std::int64_t row0, std::int64_t rows,
                  std::int64_t n) {
  auto* packed = reinterpret_cast<std::int16_t*>(buffer);
#pragma omp parallel for schedule(static) if (rows * n > (std::int64_t{1} << 20))
  for (std::int64_t i = 0; i < rows; ++i) {
    Host* wide = host + (row0 + i) * n;
    std::int16_t* narrow = packed + i * n;
    for (std::int64_t j = 0; j < n; ++j) {
      if constexpr (std::is_const_v<Host>)
        narrow[j] = static_cast<std::int16_t>(std::min<std::int32_t>(wide[j], int16_infinity));
      else
        wide[j] = narrow[j] >= int16_infinity ? int32_infinity : std::int32_t{narrow[j]};
    }
  }
}

/// One staged n x n copy between the host's int32 matrix and the device's int16 one (edge ld):
/// an upload when the host side is const, a download otherwise.
template <class Host, class Device>
void staged_packed16_copy(Host* host, Device* device, std::int64_t n, std::int64_t ld,
                          cudaStream_t s) {
  if (n == 0)
    return;
  constexpr bool upload = std::is_const_v<Host>;
  nvtx_range range(upload ? "apsp::cuda upload (packed16)" : "apsp::cuda download (packed16)");
  const staging_buffers st = packed_staging(n);
  const auto convert = [&](unsigned char* buffer, std::int64_t row0, std::int64_t rows) {
    convert_rows(host, buffer, row0, rows, n);
  };
  if constexpr (upload)
    staged_upload(st, packed_rows(n, ld), device, s, convert);
  else
    staged_download(st, packed_rows(n, ld), device, s, convert);
}

} // namespace

void upload_packed16(const std::int32_t* host, std::int16_t* device, std::int64_t n,
                     std::int64_t ld, cudaStream_t s) {
  staged_packed16_copy(host, device, n, ld, s);
}

void download_packed16(const std::int16_t* device, std::int32_t* host, std::int64_t n,
                       std::int64_t ld, cudaStream_t s) {
  staged_packed16_copy(host, device, n, ld, s);
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
