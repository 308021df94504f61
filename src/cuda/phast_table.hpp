#pragma once
// PHAST's sweeps on one GPU for tables and rows (src/cuda/cuda_phast.cpp): a sweep structure
// (the caller's contraction hierarchy, or any restricted one) swept on the device
// (cuda/phast_sweep.hpp) for batches of sources whose seeds the host makes while the device
// sweeps the batch before, each batch's rows gathered at the table's columns and copied into
// the caller's table. Host-only: a build without CUDA links stand-ins that throw
// backend_unavailable_error.

#include <cstdint>
#include <functional>
#include <vector>

#include "cpu/contraction_hierarchy.hpp"
#include "cuda/sweep_structure.hpp"

namespace apsp::cuda {

struct gpu_sweep_config {
  int device = 0;
  int lanes = 256;  ///< sources a sweep: a power of two >= 32
  int threads = 1;  ///< cpu threads of the upward searches
  bool launch_graph = true; ///< the levels replayed as one CUDA graph (sweep_executor)
};

/// The seeds of sources first .. first + count - 1 (count <= the lanes), source first + k in
/// lane k, slots in the structure's numbering, into `out` (cleared first).
using seed_source = std::function<void(std::int64_t first, int count, std::vector<sweep_seed>& out)>;

/// The rows x cols table (row-major in `out`) of any sweep structure `s`: row i's sources seeded
/// by `seeds`, column j the structure's slot col_slot[j] with potential col_h[j] (null: none),
/// row i's source potential source_h[i] (null: none); each cell the sweep's distance plus
/// h(column) - h(source), weight_traits<int32>::infinity where there is no path. RPHAST's
/// tables: `s` the targets' upward closure, `seeds` the sources' upward searches cut to it.
void sweep_table_on_gpu(const sweep_structure& s, const seed_source& seeds, std::int64_t rows,
                        const std::int32_t* col_slot, const std::int32_t* col_h, std::int64_t cols,
                        const std::int32_t* source_h, const gpu_sweep_config& cfg,
                        std::int32_t* out);

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
