#include "cuda/transfer.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <type_traits>

#include <omp.h>

#include "core/tuning.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/resources.hpp"
#include "cuda/staging_pipeline.hpp"

namespace apsp::cuda {
namespace {

/// The threads of a parallel host copy: half the cores. On all the cores the download is no faster
/// and far more variable than on half, as their static shares wait for the slowest core while
/// the CUDA runtime's and the solve's other threads run (measured: docs/dev/benchmark-log.md,
/// 'Figures from code comments').
int copy_threads() {
  static const int threads = std::max(1, omp_get_num_procs() / 2);
  return threads;
}

/// Copies rows [row0, row0 + rows) of a copy between the host (rows where `map` says) and a
/// dense staging buffer, in parallel from 1 MiB on (one core's copy is well below what a PCIe 5
/// link carries; measured: docs/dev/benchmark-log.md, 'Figures from code comments'): into the
/// staging buffer when the host side is const, out of it otherwise.
template <class Host>
void copy_rows(Host* host, unsigned char* stage, std::int64_t row0, std::int64_t rows,
               std::size_t row_bytes, std::size_t stride_bytes, const host_rows& map) {
#pragma omp parallel for schedule(static)                                                          \
    num_threads(copy_threads()) if (rows * row_bytes > (std::size_t{1} << 20))
  for (std::int64_t i = 0; i < rows; ++i) {
    Host* h = host + static_cast<std::size_t>(map.at(row0 + i)) * stride_bytes;
    unsigned char* t = stage + static_cast<std::size_t>(i) * row_bytes;
    if constexpr (std::is_const_v<Host>)
      std::memcpy(t, h, row_bytes);
    else
      std::memcpy(h, t, row_bytes);
  }
}

/// The buffers of one copy of n rows: `given` when it holds a row, else its own.
struct staging {
  staging(std::size_t row_bytes, std::int64_t n, const staging_buffers* given) {
    if (given == nullptr || given->bytes() < row_bytes) {
      own.emplace(row_bytes * static_cast<std::size_t>(n), row_bytes);
      given = &*own;
    }
    buffers = given;
  }
  std::optional<staging_buffers> own;
  const staging_buffers* buffers = nullptr;
};

/// One staged copy of n rows of `cols` elements between the host (rows where `map` says) and
/// the device (rows `ld` elements apart): an upload when the host side is const, a download
/// otherwise.
template <class Host, class Device>
void staged_row_copy(Host* host, Device* device, std::size_t elem_bytes, std::int64_t n,
                     std::int64_t cols, std::int64_t ld, cudaStream_t s,
                     const staging_buffers* given, const host_rows& map) {
  if (n == 0 || cols == 0)
    return;
  constexpr bool upload = std::is_const_v<Host>;
  nvtx_range range(upload ? "apsp::cuda upload" : "apsp::cuda download");
  const std::size_t row_bytes = static_cast<std::size_t>(cols) * elem_bytes;
  const std::size_t stride_bytes =
      static_cast<std::size_t>(map.stride != 0 ? map.stride : cols) * elem_bytes;
  const staging st(row_bytes, n, given);
  const staged_rows rows{n, row_bytes, static_cast<std::size_t>(ld) * elem_bytes};
  const auto copy = [&](unsigned char* buffer, std::int64_t row0, std::int64_t count) {
    copy_rows(host, buffer, row0, count, row_bytes, stride_bytes, map);
  };
  if constexpr (upload)
    staged_upload(*st.buffers, rows, device, s, copy);
  else
    staged_download(*st.buffers, rows, device, s, copy);
}

} // namespace

std::size_t staging_chunk_bytes(std::size_t total) {
  if (const int mb = apsp::detail::current_tuning().cuda_staging_mb; mb > 0)
    return static_cast<std::size_t>(mb) << 20;
  constexpr std::size_t least = std::size_t{4} << 20;
  return std::clamp(total / 8, least, staging_bytes);
}

bool prefault_enabled() {
  return apsp::detail::current_tuning().cuda_prefault;
}

void prefault_host(void* host, std::size_t bytes) {
  nvtx_range range("apsp::cuda prefault host matrix");
  constexpr std::size_t chunk = std::size_t{2} << 20;
  const auto chunks = static_cast<std::int64_t>((bytes + chunk - 1) / chunk);
  const int threads = std::max(1, omp_get_num_procs() / 2);
  auto* p = static_cast<unsigned char*>(host);
#pragma omp parallel for schedule(dynamic, 8) num_threads(threads)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::size_t at = static_cast<std::size_t>(c) * chunk;
    std::memset(p + at, 0, std::min(chunk, bytes - at));
  }
}

void upload_rows(const void* host, void* device, std::size_t elem_bytes, std::int64_t n,
                 std::int64_t ld, cudaStream_t s) {
  upload_rows(host, device, elem_bytes, n, n, ld, s, nullptr);
}

void upload_rows(const void* host, void* device, std::size_t elem_bytes, std::int64_t n,
                 std::int64_t cols, std::int64_t ld, cudaStream_t s, const staging_buffers* given,
                 const host_rows& map) {
  staged_row_copy(static_cast<const unsigned char*>(host), device, elem_bytes, n, cols, ld, s,
                  given, map);
}

void download_rows(const void* device, void* host, std::size_t elem_bytes, std::int64_t n,
                   std::int64_t ld, cudaStream_t s, const staging_buffers* staging) {
  download_rows(device, host, elem_bytes, n, n, ld, s, staging);
}

void download_rows(const void* device, void* host, std::size_t elem_bytes, std::int64_t n,
                   std::int64_t cols, std::int64_t ld, cudaStream_t s, const staging_buffers* given,
                   const host_rows& map) {
  staged_row_copy(static_cast<unsigned char*>(host), device, elem_bytes, n, cols, ld, s, given,
                  map);
}

} // namespace apsp::cuda
