#pragma once
// The double-buffered staging pipeline of every copy between a host matrix and a device one
// that goes through pinned buffers: rows go in chunks through two buffers, so the host-side
// work on one chunk (a copy, a conversion) overlaps the DMA of the other. The callers say
// only what the host does with a chunk (transfer.cpp, packed16_solve.cpp).

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cuda/cuda_check.hpp"
#include "cuda/transfer.hpp"

namespace apsp::cuda {

/// The rows of a staged copy: `count` rows of `row_bytes`, dense in the staging buffers; on
/// the device row r starts `r * pitch` bytes on.
struct staged_rows {
  std::int64_t count = 0;
  std::size_t row_bytes = 0;
  std::size_t pitch = 0;
  /// Rows per chunk through `st`: as many whole rows as a buffer holds (at least one, at most
  /// all).
  [[nodiscard]] std::int64_t per_chunk(const staging_buffers& st) const {
    return std::max<std::int64_t>(
        1, std::min<std::int64_t>(count, static_cast<std::int64_t>(st.bytes() / row_bytes)));
  }
};

/// host -> device through `st` (each buffer holds at least a row), on stream `s`: chunk by
/// chunk, once its buffer's DMA of two chunks before is done, `stage(buffer, row0, rows)` writes
/// rows [row0, row0 + rows) densely into the buffer, and their DMA to `device` is enqueued.
/// Returns when every DMA is done.
template <class Stage>
void staged_upload(const staging_buffers& st, const staged_rows& rows, void* device, cudaStream_t s,
                   Stage&& stage) {
  const std::int64_t per_chunk = rows.per_chunk(st);
  auto* dst = static_cast<unsigned char*>(device);
  int chunk = 0;
  for (std::int64_t row0 = 0; row0 < rows.count; row0 += per_chunk, ++chunk) {
    const int b = chunk % 2;
    const std::int64_t n = std::min(per_chunk, rows.count - row0);
    // The buffer is free once the copy issued from it two chunks ago has finished.
    if (chunk >= 2)
      st.done(b).synchronize();
    stage(st.buffer(b), row0, n);
    APSP_CUDA_TRY(cudaMemcpy2DAsync(dst + static_cast<std::size_t>(row0) * rows.pitch, rows.pitch,
                                    st.buffer(b), rows.row_bytes, rows.row_bytes,
                                    static_cast<std::size_t>(n), cudaMemcpyHostToDevice, s));
    st.done(b).record(s);
  }
  APSP_CUDA_TRY(cudaStreamSynchronize(s));
}

/// device -> host through `st`, the inverse: chunk c's DMA into one buffer is enqueued on `s`,
/// then, while it runs, `unstage(buffer, row0, rows)` takes chunk c - 1's rows from the other.
/// Returns when the last chunk is taken.
template <class Unstage>
void staged_download(const staging_buffers& st, const staged_rows& rows, const void* device,
                     cudaStream_t s, Unstage&& unstage) {
  const std::int64_t per_chunk = rows.per_chunk(st);
  const auto* src = static_cast<const unsigned char*>(device);
  const std::int64_t chunks = (rows.count + per_chunk - 1) / per_chunk;
  for (std::int64_t c = 0; c <= chunks; ++c) {
    if (c < chunks) {
      const std::int64_t row0 = c * per_chunk;
      const std::int64_t n = std::min(per_chunk, rows.count - row0);
      const int b = static_cast<int>(c % 2);
      APSP_CUDA_TRY(cudaMemcpy2DAsync(
          st.buffer(b), rows.row_bytes, src + static_cast<std::size_t>(row0) * rows.pitch,
          rows.pitch, rows.row_bytes, static_cast<std::size_t>(n), cudaMemcpyDeviceToHost, s));
      st.done(b).record(s);
    }
    if (c > 0) {
      const std::int64_t row0 = (c - 1) * per_chunk;
      const std::int64_t n = std::min(per_chunk, rows.count - row0);
      const int b = static_cast<int>((c - 1) % 2);
      st.done(b).synchronize();
      unstage(st.buffer(b), row0, n);
    }
  }
}

} // namespace apsp::cuda
