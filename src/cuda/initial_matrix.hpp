#pragma once
// Building the initial distance matrix on the device from the graph's edges: the edge list
// (12 bytes per edge for int32 and float32) crosses the bus instead of the n x n matrix, and
// the host neither fills nor copies the matrix.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "apsp/graph.hpp"

namespace apsp::cuda {

/// d[i][j] = (i == j ? 0 : infinity) for i, j < n (row stride ld).
template <class T>
void enqueue_init_matrix(T* d, std::int64_t n, std::int64_t ld, T infinity, cudaStream_t s);

/// d[src[e]][dst[e]] = min(d[src[e]][dst[e]], w[e]) for the m device-resident edges.
template <class T>
void enqueue_scatter_edges(T* d, std::int64_t ld, const std::int32_t* src, const std::int32_t* dst,
                           const T* w, std::int64_t m, cudaStream_t s);

class staging_buffers;

/// Bytes per edge in the staging buffers: src, dst and weight, 4 bytes each (so m edges make a
/// copy of m * staged_edge_bytes for staging_buffers).
inline constexpr std::size_t staged_edge_bytes = 12;

/// d[src[e]][dst[e]] = min(d[src[e]][dst[e]], T(w[e])) for m host-resident edges, streamed
/// through two pinned staging buffers (weights converted to T on the host, as fill_initial
/// converts them): `staging` when given (so a later download can reuse its page-locked
/// buffers), else buffers made here. Returns when done. W: double (a graph's weights), int32
/// or float.
template <class T, class W>
void scatter_host_edges(const std::int32_t* src, const std::int32_t* dst, const W* w,
                        std::int64_t m, T* d, std::int64_t ld, cudaStream_t s,
                        const staging_buffers* staging = nullptr);

/// The whole initial matrix of `g` in `d` (n x n real part, row stride ld), as the host's
/// fill_initial would make it (scatter_host_edges after the diagonal and infinity).
template <class T>
void build_initial_matrix(const graph& g, T* d, std::int64_t ld, cudaStream_t s,
                          const staging_buffers* staging = nullptr);

} // namespace apsp::cuda
