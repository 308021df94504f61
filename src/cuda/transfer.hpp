#pragma once
// Copies between the host's n x n matrix and the device's padded ld x ld matrix through two
// pinned staging buffers, so the host-side copy of one chunk overlaps the DMA of the next
// (staging_pipeline.hpp runs the chunks).

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <thread>

#include "cuda/resources.hpp"

namespace apsp::cuda {

/// Bytes of each of the two pinned staging buffers, at most. 16 MiB pays for its page-locking
/// better than 64: a two-GPU split's set-up and download and one GPU's solve stage were all
/// faster with it (measured: docs/dev/benchmark-log.md, 'Figures from code comments').
inline constexpr std::size_t staging_bytes = std::size_t{16} << 20;

/// The staging buffers' size for a copy of `total` bytes: an eighth of it, between 4 MiB and
/// staging_bytes. Page-locking costs time per byte, so a small matrix gets small buffers (and
/// more chunks to overlap); APSP_CUDA_STAGING_MB overrides it (measurements).
[[nodiscard]] std::size_t staging_chunk_bytes(std::size_t total);

/// The two pinned staging buffers of a copy of `total` bytes (staging_chunk_bytes each), made
/// ahead of time: page-locking costs time per MiB pinned (measured: docs/dev/benchmark-log.md,
/// 'Figures from code comments'), so the cuda back end makes the download's buffers on a host
/// thread while the rounds run.
class staging_buffers {
public:
  /// Each buffer holds at least `row_bytes` (one row of the copy).
  explicit staging_buffers(std::size_t total, std::size_t row_bytes = 0)
      : staging_buffers(exactly{std::max(staging_chunk_bytes(total), row_bytes)}) {}
  /// A buffer size in bytes, taken as it is.
  struct exactly {
    std::size_t bytes;
  };
  explicit staging_buffers(exactly size)
      : bytes_(size.bytes), buffers_{pinned_buffer<unsigned char>(bytes_),
                                     pinned_buffer<unsigned char>(bytes_)} {}
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  [[nodiscard]] unsigned char* buffer(int b) const noexcept { return buffers_[b].data(); }
  [[nodiscard]] const event& done(int b) const noexcept { return done_[b]; }

private:
  std::size_t bytes_;
  pinned_buffer<unsigned char> buffers_[2];
  event done_[2] = {event(cudaEventDisableTiming), event(cudaEventDisableTiming)};
};

/// host (n x n, row-major) -> device (ld x ld, rows < n, columns < n). Returns when done.
void upload_rows(const void* host, void* device, std::size_t elem_bytes, std::int64_t n,
                 std::int64_t ld, cudaStream_t s);
/// device -> host, the inverse of upload_rows. Returns when done. `staging`, when given and
/// large enough for a row, is used instead of buffers made here.
void download_rows(const void* device, void* host, std::size_t elem_bytes, std::int64_t n,
                   std::int64_t ld, cudaStream_t s, const staging_buffers* staging = nullptr);

/// Writes zeros over `bytes` of host memory with about half the cores, so that its pages are
/// faulted in (allocated, or for a memory-mapped file, mapped) before a download needs them.
void prefault_host(void* host, std::size_t bytes);
/// Whether solves fault in their host matrices ahead of the download (APSP_CUDA_PREFAULT=0: no;
/// measurements).
[[nodiscard]] bool prefault_enabled();
/// When `fault`, faults in a solve's host matrices, `d` and `via` when not null, on a thread of
/// its own, beside the solve; a std::jthread joins on every way out, exceptions included.
template <class Matrix, class Via>
[[nodiscard]] std::jthread prefault_in_background(Matrix& d, Via* via, bool fault) {
  return std::jthread([&d, via, fault] {
    if (!fault)
      return;
    prefault_host(d.data(), d.size() * sizeof(*d.data()));
    if (via != nullptr)
      prefault_host(via->data(), via->size() * sizeof(*via->data()));
  });
}

/// Where the host's rows of a copy are: row l of the copy is row at(l) of a host matrix with
/// `stride` elements per row (0: the copy's columns). With `block` > 0 the rows are every
/// groups-th block of `block` rows from block `group` on: a device's rows of a block-cyclic row
/// split of the whole matrix. With `list` set, row l is list[l] (any rows, in any order: the
/// supernodal solver's groups of rows by elimination label).
struct host_rows {
  std::int64_t stride = 0;
  std::int64_t block = 0;
  std::int64_t groups = 1;
  std::int64_t group = 0;
  const std::int64_t* list = nullptr;
  [[nodiscard]] std::int64_t at(std::int64_t l) const noexcept {
    if (list != nullptr)
      return list[l];
    return block == 0 ? l : (l / block * groups + group) * block + l % block;
  }
};

/// As above for `rows` rows of `cols` elements (host rows as `map` says, device row stride ld),
/// through `staging` when given and large enough for a row.
void upload_rows(const void* host, void* device, std::size_t elem_bytes, std::int64_t rows,
                 std::int64_t cols, std::int64_t ld, cudaStream_t s,
                 const staging_buffers* staging = nullptr, const host_rows& map = {});
void download_rows(const void* device, void* host, std::size_t elem_bytes, std::int64_t rows,
                   std::int64_t cols, std::int64_t ld, cudaStream_t s,
                   const staging_buffers* staging = nullptr, const host_rows& map = {});

} // namespace apsp::cuda
