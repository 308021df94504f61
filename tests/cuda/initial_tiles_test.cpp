// The tiles a GPU rank builds on the device from the whole edge list (scatter_host_edges with
// held_tiles, and the held diagonal): equal to the host's fill_initial_tiles for every process
// of block-cyclic grids, tile edges that do and do not divide n included, negative weights and a
// negative self-loop.

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "common/grid_cases.hpp"
#include "common/test_graphs.hpp"
#include "core/checks.hpp"
#include "cuda/initial_matrix.hpp"
#include "cuda/resources.hpp"

namespace apsp {
namespace {

using testing::grid_case;

bool have_gpu() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

template <class T> void expect_device_tiles_like_the_host(const graph& g, const grid_case& c) {
  for (int r = 0; r < c.rows; ++r) {
    for (int q = 0; q < c.cols; ++q) {
      const detail::grid_layout L = testing::grid_layout_of(c, r, q);
      const std::int64_t rows = L.local_rows();
      const std::int64_t cols = L.local_cols();
      const std::int64_t ld = cols + 3; // a row stride wider than the tiles, as on the devices
      if (rows == 0 || cols == 0)
        continue;
      std::vector<T> host(static_cast<std::size_t>(rows * cols));
      detail::fill_initial_tiles(g, L, host.data());

      std::vector<T> device_copy(static_cast<std::size_t>(rows * ld), weight_traits<T>::infinity);
      cuda::device_buffer<T> d(device_copy.size());
      cuda::stream s;
      // s is a non-blocking stream: the copies go on it and the host waits for it, since
      // cudaMemcpy's legacy stream does not order with it (the upload's DMA could land after
      // the kernels, and the read-back could start before them).
      ASSERT_EQ(cudaMemcpyAsync(d.data(), device_copy.data(), device_copy.size() * sizeof(T),
                                cudaMemcpyHostToDevice, s.get()),
                cudaSuccess);
      const cuda::held_tiles held{L.b, L.rows, L.cols, L.row, L.col};
      cuda::enqueue_lower_held_diagonal<T>(d.data(), ld, L.n, held, s.get());
      cuda::scatter_host_edges(g.sources().data(), g.targets().data(), g.weights().data(),
                               g.num_edges(), d.data(), ld, s.get(), nullptr, held);
      ASSERT_EQ(cudaMemcpyAsync(device_copy.data(), d.data(), device_copy.size() * sizeof(T),
                                cudaMemcpyDeviceToHost, s.get()),
                cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(s.get()), cudaSuccess);
      for (std::int64_t i = 0; i < rows; ++i) {
        for (std::int64_t j = 0; j < cols; ++j) {
          ASSERT_EQ(device_copy[static_cast<std::size_t>(i * ld + j)],
                    host[static_cast<std::size_t>(i * cols + j)])
              << "n " << c.n << " b " << c.b << " grid " << c.rows << "x" << c.cols << " process "
              << r << "," << q << " local cell " << i << "," << j;
        }
      }
    }
  }
}

TEST(InitialTiles, HeldScatterOnTheDeviceMakesTheHostsTiles) {
  if (!have_gpu())
    GTEST_SKIP() << "no GPU";
  testing::random_graph_spec s;
  s.negative_edges = true;
  for (const grid_case& c : testing::grid_cases) {
    s.n = c.n;
    graph g = testing::make_random_graph(s, static_cast<std::uint64_t>(c.n * 7 + c.b));
    g.add_edge(0, 0, -3); // a negative self-loop: min(0, w) on the diagonal
    expect_device_tiles_like_the_host<std::int32_t>(g, c);
    expect_device_tiles_like_the_host<float>(g, c);
  }
}

} // namespace
} // namespace apsp
