#pragma once
/// @file plan.hpp
/// What a solve will do and need, computed without allocating the matrices (planning a graph
/// may run the supernodal solver's analysis, see make_plan).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "apsp/options.hpp"
#include "apsp/types.hpp"

namespace apsp {

namespace cpu {
struct elimination_plan; // the supernodal solver's analysis of one graph (opaque here)
}

/// The drivers a plan can run, each with what it needs. make_plan chooses one; solve runs it
/// as it is (the display text is made from it, never read back).
namespace drivers {
struct none {};                          ///< not planned, or nothing can run it (plan::fits)
struct reference {};                     ///< the naive O(n^3) Floyd-Warshall (the oracle)
struct cpu_blocked {                     ///< blocked Floyd-Warshall on the CPU's threads
  int threads = 1;
};
struct supernodal {                      ///< nested-dissection Floyd-Warshall on the CPU
  int threads = 1;
  /// The elimination analysis of the graph it was planned for (made once, by make_plan(graph),
  /// and used by the solve); null when planned without the graph.
  std::shared_ptr<const cpu::elimination_plan> analysis;
};
/// The supernodal Floyd-Warshall on one GPU, in core: the matrix in elimination order on the
/// device, the steps level by level over the elimination tree.
struct cuda_supernodal {
  int device = 0;
  /// More than one, or a matrix larger than the device: the rows split over these devices (or
  /// streamed through the one), each holding the pivot strip and a block of rows
  /// (docs/sparse.md, "Past one GPU's memory"). Empty: in core on `device`.
  std::vector<int> devices;
  /// As drivers::supernodal's: made once by make_plan(graph); null when planned without it.
  std::shared_ptr<const cpu::elimination_plan> analysis;
};
struct johnson {                         ///< potentials, then Dijkstra from every source (CPU)
  int threads = 1;
};
struct cuda_in_core {                    ///< one GPU holds the matrix for every round
  int device = 0;
};
/// One GPU holds the matrix in packed 16-bit lanes, two per register: int32 solves without
/// paths or checkpoints whose weights make it exact (solve_options::narrow).
struct cuda_packed16 {
  int device = 0;
};
struct cuda_split {                      ///< tile rows dealt out over GPUs, in core
  std::vector<int> devices;
};
struct cuda_out_of_core {                ///< the matrix in host memory, streamed through GPUs
  std::vector<int> devices;              ///< in plan::block x plan::block blocks
  bool tagged_paths = false;             ///< paths through tagged slices (device memory allows)
};
/// Blocked Floyd-Warshall over MPI ranks, the tiles dealt out 2D block-cyclically over a
/// grid_rows x grid_cols process grid (apsp/distributed.hpp). Its plan's host_bytes and
/// device_bytes are the largest rank's.
struct distributed {
  int ranks = 1;
  int grid_rows = 1;
  int grid_cols = 1;
  bool gpu = false;    ///< each rank computes on a GPU (else cpu threads)
  int threads = 1;     ///< per rank (pivot and panels; all of it on cpu ranks)
  int gpu_device = -1; ///< this rank's GPU (node rank modulo the node's GPUs)
  /// Round r + 1's pivot and panels before round r's bulk update; unset: the solver decides
  /// once it knows how the panels travel (docs/distributed.md).
  std::optional<bool> lookahead;
  int ranks_per_node = 1;        ///< the most ranks on one node
  std::uint64_t node_memory = 0; ///< physical memory of this node
};
// Row engines: rows of distances made one batch of sources at a time and handed on (reduced by
// the metrics, or cut to a block's columns), never an n x n matrix. Their plans say
// algorithm_kind::johnson: Bellman-Ford potentials first where a weight is negative.
struct johnson_rows { ///< Dijkstra from every source, `batch` sources a step
  int threads = 1;
  std::int64_t batch = 1;
};
/// The same rows from a contraction hierarchy, built once: an upward search and a downward
/// sweep per batch of sources (PHAST; integer weights, road-like graphs).
struct phast_rows {
  int threads = 1;
  std::int64_t batch = 1;
};
/// The block of distances from some sources to some targets (apsp solve --sources/--targets):
/// Dijkstra from the smaller side, the targets' on the reversed graph, each row cut to the
/// block's columns.
struct block_rows {
  int threads = 1;
  bool from_targets = false; ///< rows from the targets on the reversed graph (columns)
  /// Searches per batch, whose rows are held at once (0: as many as make 2^24 distances, at
  /// least one).
  std::int64_t batch = 0;
};
/// The same block from a contraction hierarchy built for it (integer weights, road-like
/// graphs): a backward upward search from each target fills buckets, a forward upward search
/// from each source scans them (the bucket method); Bellman-Ford potentials first where a
/// weight is negative.
struct ch_table {
  int threads = 1;
};
/// PHAST's sweeps on one GPU (integer weights, road-like graphs; int32): the hierarchy built on
/// the cpu, its downward arcs on the device grouped by level, `lanes` sources a sweep whose
/// upward searches run on `threads` cpu threads while the device sweeps the batch before; the
/// metrics' rows reduced on the device, `rows_per_reduction` at a time (docs/tables.md).
struct cuda_phast {
  int device = 0;
  int lanes = 256;
  int threads = 1;
  std::int64_t rows_per_reduction = 256;
};
/// One pair's shortest path and its length (apsp::solve_pair, apsp path): one bidirectional
/// Dijkstra search on one thread, forward from the source and backward from the target until
/// they meet, in memory O(n + m); never a row of n distances per source, never the matrix.
struct pair_search {
  /// A weight is negative: Bellman-Ford potentials over the whole graph first (a negative
  /// cycle anywhere refuses the pair, as solve() refuses it).
  bool potentials = false;
};
/// The same block by RPHAST (integer weights, road-like graphs): the hierarchy's downward
/// sweep restricted to the targets' upward closure, `lanes` sources a sweep in SIMD lanes
/// after their upward searches (docs/tables.md); Bellman-Ford potentials first where a weight
/// is negative.
struct rphast_table {
  int threads = 1;
  int lanes = 0; ///< sources a sweep: 1, 4, 8 or 16 (0: 16 for int32, 8 for int64)
};
/// The same block by RPHAST on one GPU (integer weights, road-like graphs; int32): the
/// hierarchy and the targets' upward closure made on the cpu, the closure's downward arcs on
/// the device grouped by level, `lanes` sources a sweep whose upward searches run on `threads`
/// cpu threads while the device sweeps the batch before, each batch's rows gathered at the
/// targets and copied back (docs/tables.md, "On the GPU").
struct cuda_table {
  int device = 0;
  int lanes = 256; ///< sources a sweep: a power of two >= 32
  int threads = 1;
};
} // namespace drivers

using driver =
    std::variant<drivers::none, drivers::reference, drivers::cpu_blocked, drivers::supernodal,
                 drivers::johnson, drivers::cuda_in_core, drivers::cuda_packed16,
                 drivers::cuda_split, drivers::cuda_out_of_core, drivers::distributed,
                 drivers::johnson_rows, drivers::phast_rows, drivers::block_rows,
                 drivers::cuda_supernodal, drivers::ch_table, drivers::cuda_phast,
                 drivers::pair_search, drivers::rphast_table, drivers::cuda_table>;

/// A driver in words, e.g. "cpu blocked, 2 threads" or "cuda out of core, devices 0,1".
[[nodiscard]] std::string to_string(const driver& d);

/// What a plan is asked to compute (make_plan(graph, options, asked), apsp/solve.hpp): the
/// whole n x n matrix (apsp::solve), the metrics (apsp::compute_metrics: rows reduced, no
/// matrix kept), the block of distances from some sources to some targets, or one pair's
/// shortest path (apsp::solve_pair).
struct plan_request {
  enum class output { matrix, metrics, block, pair };
  output what = output::matrix;
  std::int64_t sources = -1; ///< output::block: the rows asked (-1: every vertex)
  std::int64_t targets = -1; ///< output::block: the columns asked (-1: every vertex)

  [[nodiscard]] static plan_request matrix() { return {}; }
  [[nodiscard]] static plan_request metrics() { return {output::metrics, -1, -1}; }
  /// `sources` x `targets` distances; -1 on a side: every vertex. With solve_options::paths
  /// (predecessors) the block is searched by Dijkstra from the sources, whose shortest-path
  /// trees give the predecessors (docs/semantics.md), unless an all-pairs engine is asked for.
  [[nodiscard]] static plan_request block(std::int64_t sources, std::int64_t targets) {
    return {output::block, sources, targets};
  }
  /// One pair's distance and shortest path (drivers::pair_search, whatever the options' engine).
  [[nodiscard]] static plan_request pair() { return {output::pair, 1, 1}; }
};

/// What make_plan decided. `backend`, `narrow` and `out_of_core` are plain fields, kept for
/// reading, but derived from `run` in one place when the plan is made (core/driver_fields.cpp):
/// set `run`, never them.
struct plan {
  /// What runs the solve (the engine and its driver, with their parameters).
  driver run;
  /// The rounds save and resume checkpoints (solve_options::checkpoint_dir / resume_dir).
  bool checkpointed = false;
  /// Under algorithm_kind::automatic with solve_options::checkpoint_dir: the engine the cost
  /// model chose, which saves no checkpoints, when it was not Floyd-Warshall (whose rounds are
  /// what a checkpoint holds, so auto runs Floyd-Warshall instead); empty when checkpoints
  /// changed nothing. The CLI says so on stderr and in --json.
  struct displaced_engine {
    algorithm_kind algorithm = algorithm_kind::floyd_warshall;
    backend_kind backend = backend_kind::cpu;
    double seconds = 0;    ///< its estimate
    double fw_seconds = 0; ///< the estimate of the Floyd-Warshall that runs instead
  };
  std::optional<displaced_engine> checkpoint_displaced;
  /// The concrete back end (never `automatic`), derived from `run` (for drivers::none: the back
  /// end that planned it).
  backend_kind backend = backend_kind::cpu;
  std::string device;                       ///< e.g. "cpu (2 threads, avx512)" or a GPU name
  algorithm_kind algorithm = algorithm_kind::floyd_warshall; ///< never `automatic`
  /// Why this algorithm (and, under `auto`, this back end): the cost model's estimates, or
  /// "requested".
  std::string algorithm_reason;
  dtype type = dtype::int32;
  std::int64_t n = 0;
  /// Tile edge (Johnson and row engines: sources per step; a table's engines: the rows made and
  /// handed on at once, 0: as the driver likes)
  std::int64_t block = 0;
  std::int64_t rounds = 0; ///< ceil(n / block)
  bool paths = false;
  /// A table (plan_request::block) larger than the host memory budget: made `block` rows at a
  /// time, each tile written out before the next (apsp::solve_table_tiles); host_bytes counts
  /// one tile, not the table.
  bool tiled = false;
  bool narrow = false; ///< derived: the driver is drivers::cuda_packed16 (packed 16-bit)
  /// Peak host memory (RAM): the output matrices that live in RAM (not in the memory-mapped
  /// solve_options::distances_file and paths_file) plus working_host_bytes.
  std::uint64_t host_bytes = 0;
  /// Host memory besides the output matrices: working copies, buffers, staging, the analysis.
  std::uint64_t working_host_bytes = 0;
  std::uint64_t file_bytes = 0;   ///< bytes of the memory-mapped output files (not in RAM)
  std::uint64_t device_bytes = 0; ///< peak device memory (0 for host back ends)
  /// Derived: the driver is drivers::cuda_out_of_core, whose matrix stays in host memory and
  /// streams through the device(s) during the solve (larger than device memory).
  bool out_of_core = false;
  int devices = 1;                ///< GPUs the solve uses (cuda; 1 for host back ends)
  bool fits = true;               ///< false when the memory above is not available
  /// The driver's own part of `fits` (its devices and their memory); `fits` adds the host
  /// memory, counted for where the options keep the outputs (count_host_memory).
  bool driver_fits = true;
  std::string reason;             ///< why it does not fit (empty when it fits)
};

/// Counts `p`'s host memory for where `options` keeps the output matrices (in RAM, or in the
/// memory-mapped solve_options::distances_file and paths_file): sets host_bytes, file_bytes,
/// fits and reason from working_host_bytes, driver_fits and the physical memory. make_plan
/// calls it; a caller that moves a planned solve's outputs into files calls it again instead
/// of planning again (the driver, and any analysis, stay as planned).
void count_host_memory(plan& p, const solve_options& options);

/// Physical memory of this machine in bytes (0 when the system does not say); plans compare
/// their host_bytes with it.
[[nodiscard]] std::uint64_t host_memory_bytes() noexcept;

} // namespace apsp
