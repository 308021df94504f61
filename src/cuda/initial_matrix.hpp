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

/// The tiles of the whole matrix that one device holds: those of a block-cyclic grid
/// (core/round_schedule.hpp's grid_layout: b x b tiles, tile row t on process row t % rows,
/// tile column t on process column t % cols), packed in local order. b == 0: the whole matrix.
struct held_tiles {
  std::int64_t b = 0;
  int rows = 1;
  int cols = 1;
  int row = 0;
  int col = 0;
};

/// d[src[e]][dst[e]] = min(d[src[e]][dst[e]], w[e]) for the m device-resident edges; with
/// `held`, only the edges between held tiles, at their local row and column.
template <class T>
void enqueue_scatter_edges(T* d, std::int64_t ld, const std::int32_t* src, const std::int32_t* dst,
                           const T* w, std::int64_t m, cudaStream_t s, const held_tiles& held = {});

/// d[v][v] = min(d[v][v], 0) for every vertex v < n whose diagonal cell is held (local indices).
template <class T>
void enqueue_lower_held_diagonal(T* d, std::int64_t ld, std::int64_t n, const held_tiles& held,
                                 cudaStream_t s);

class staging_buffers;

/// Bytes per edge in the staging buffers: src, dst and weight, 4 bytes each (so m edges make a
/// copy of m * staged_edge_bytes for staging_buffers).
inline constexpr std::size_t staged_edge_bytes = 12;

/// d[src[e]][dst[e]] = min(d[src[e]][dst[e]], T(w[e])) for m host-resident edges, streamed
/// through two pinned staging buffers (weights converted to T on the host, as fill_initial
/// converts them): `staging` when given (so a later download can reuse its page-locked
/// buffers), else buffers made here. With `held`, the device keeps only the edges between its
/// tiles (so every device of a split streams the whole list, and the host sorts nothing out).
/// Returns when done. W: double (a graph's weights), int32 or float.
template <class T, class W>
void scatter_host_edges(const std::int32_t* src, const std::int32_t* dst, const W* w,
                        std::int64_t m, T* d, std::int64_t ld, cudaStream_t s,
                        const staging_buffers* staging = nullptr, const held_tiles& held = {});

/// The whole initial matrix of `g` in `d` (n x n real part, row stride ld), as the host's
/// fill_initial would make it (scatter_host_edges after the diagonal and infinity).
template <class T>
void build_initial_matrix(const graph& g, T* d, std::int64_t ld, cudaStream_t s,
                          const staging_buffers* staging = nullptr);

} // namespace apsp::cuda
