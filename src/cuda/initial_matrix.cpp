// build_initial_matrix (initial_matrix.hpp): the edge list streamed to the device in chunks.

#include "cuda/initial_matrix.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>

#include "apsp/types.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/resources.hpp"
#include "cuda/transfer.hpp"

namespace apsp::cuda {

template <class T, class W>
void scatter_host_edges(const std::int32_t* src, const std::int32_t* dst, const W* w,
                        std::int64_t m, T* d, std::int64_t ld, cudaStream_t s,
                        const staging_buffers* given, const held_tiles& held) {
  static_assert(sizeof(T) == 4, "edges are staged as three 4-byte arrays");
  if (m == 0) {
    APSP_CUDA_TRY(cudaStreamSynchronize(s));
    return;
  }
  // Each chunk: src, dst and weight arrays of `chunk` entries, in one buffer.
  constexpr std::size_t edge_bytes = staged_edge_bytes;
  std::optional<staging_buffers> own;
  if (given == nullptr || given->bytes() < edge_bytes)
    given = &own.emplace(static_cast<std::size_t>(m) * edge_bytes, edge_bytes);
  const std::int64_t chunk =
      std::min<std::int64_t>(m, static_cast<std::int64_t>(given->bytes() / edge_bytes));
  const auto chunk_bytes = static_cast<std::size_t>(chunk) * edge_bytes;
  device_buffer<unsigned char> dev[2] = {device_buffer<unsigned char>(chunk_bytes),
                                         device_buffer<unsigned char>(chunk_bytes)};
  int c = 0;
  for (std::int64_t e0 = 0; e0 < m; e0 += chunk, ++c) {
    const int b = c % 2;
    const std::int64_t count = std::min(chunk, m - e0);
    // The staging buffer is free once its copy from two chunks ago has finished; the device
    // buffer is reused in stream order after the scatter that read it.
    if (c >= 2)
      given->done(b).synchronize();
    auto* hs = reinterpret_cast<std::int32_t*>(given->buffer(b));
    auto* hd = hs + chunk;
    auto* hw = reinterpret_cast<T*>(hd + chunk);
#pragma omp parallel for schedule(static) if (count > (1 << 16))
    for (std::int64_t k = 0; k < count; ++k) {
      hs[k] = src[e0 + k];
      hd[k] = dst[e0 + k];
      hw[k] = static_cast<T>(w[e0 + k]); // as fill_initial converts
    }
    // Three copies of the used prefix of each array.
    auto* ds = reinterpret_cast<std::int32_t*>(dev[b].data());
    auto* dd = ds + chunk;
    auto* dw = reinterpret_cast<T*>(dd + chunk);
    const auto bytes = static_cast<std::size_t>(count) * 4;
    APSP_CUDA_TRY(cudaMemcpyAsync(ds, hs, bytes, cudaMemcpyHostToDevice, s));
    APSP_CUDA_TRY(cudaMemcpyAsync(dd, hd, bytes, cudaMemcpyHostToDevice, s));
    APSP_CUDA_TRY(cudaMemcpyAsync(dw, hw, bytes, cudaMemcpyHostToDevice, s));
    given->done(b).record(s);
    enqueue_scatter_edges<T>(d, ld, ds, dd, dw, count, s, held);
  }
  APSP_CUDA_TRY(cudaStreamSynchronize(s));
}

template <class T>
void build_initial_matrix(const graph& g, T* d, std::int64_t ld, cudaStream_t s,
                          const staging_buffers* staging) {
  nvtx_range range("apsp::cuda initial matrix from edges");
  enqueue_init_matrix<T>(d, g.num_vertices(), ld, weight_traits<T>::infinity, s);
  scatter_host_edges(g.sources().data(), g.targets().data(), g.weights().data(), g.num_edges(), d,
                     ld, s, staging);
}

template void build_initial_matrix<std::int32_t>(const graph&, std::int32_t*, std::int64_t,
                                                 cudaStream_t, const staging_buffers*);
template void build_initial_matrix<float>(const graph&, float*, std::int64_t, cudaStream_t,
                                          const staging_buffers*);

#define APSP_SCATTER_HOST_EDGES(T, W)                                                              \
  template void scatter_host_edges(const std::int32_t*, const std::int32_t*, const W*,             \
                                   std::int64_t, T*, std::int64_t, cudaStream_t,                   \
                                   const staging_buffers*, const held_tiles&);
APSP_SCATTER_HOST_EDGES(std::int32_t, std::int32_t)
APSP_SCATTER_HOST_EDGES(float, float)
APSP_SCATTER_HOST_EDGES(std::int32_t, double)
APSP_SCATTER_HOST_EDGES(float, double)
#undef APSP_SCATTER_HOST_EDGES

} // namespace apsp::cuda
