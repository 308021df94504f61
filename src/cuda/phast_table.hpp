#pragma once
// PHAST's sweeps on one GPU for tables and rows (src/cuda/cuda_phast.cpp): the caller's
// contraction hierarchy swept on the device (cuda/phast_sweep.hpp) for batches of sources whose
// upward searches run on cpu threads, each batch's rows gathered at the targets' columns and
// copied into the caller's table. Host-only: a build without CUDA links a stand-in that throws
// backend_unavailable_error.

#include <cstdint>
#include <vector>

#include "cpu/contraction_hierarchy.hpp"

namespace apsp::cuda {

struct gpu_sweep_config {
  int device = 0;
  int lanes = 256;  ///< sources a sweep: a power of two >= 32
  int threads = 1;  ///< cpu threads of the upward searches
  bool launch_graph = true; ///< the levels replayed as one CUDA graph (sweep_executor)
};

/// The rows x cols table (row-major in `out`) of distances from sources[i] to targets[j]
/// (vertex ids; targets null: every vertex in order, cols = ch.n) in the graph whose reweighted
/// copy `ch` (complete) is the hierarchy of, with potentials `h` in vertex order (empty: none):
/// the sweep's distance d plus h(t) - h(s), weight_traits<int32>::infinity where there is no
/// path, the same values as the cpu's PHAST (sink_phast) and Dijkstra.
void phast_table_on_gpu(const cpu::contraction_hierarchy<std::int32_t>& ch,
                        const std::vector<std::int32_t>& h, const std::int64_t* sources,
                        std::int64_t rows, const std::int64_t* targets, std::int64_t cols,
                        const gpu_sweep_config& cfg, std::int32_t* out);

} // namespace apsp::cuda
