#pragma once
/// @file solve.hpp
/// The entry points: plan, solve, and back-end discovery.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/matrix.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "apsp/result.hpp"

namespace apsp {

/// Plans a solve of an n-vertex problem without allocating. Resolves `backend_kind::automatic`;
/// with no edges known, `algorithm_kind::automatic` means Floyd-Warshall (a dense problem), and
/// packed 16-bit arithmetic (solve_options::narrow) is planned only when required.
/// Throws backend_unavailable_error when a named back end cannot run here.
[[nodiscard]] plan make_plan(std::int64_t n, const solve_options& options = {});

/// Plans a solve of `g`: as above, and also resolves `algorithm_kind::automatic` from the
/// graph's size, edge count and weights (the cost model of docs/sparse.md); the plan says
/// which algorithm and why, and whether packed 16-bit arithmetic runs (drivers::cuda_packed16:
/// asked for, and provably exact for these weights). Where auto weighs the supernodal solver (a
/// sparse graph, a cpu back end, METIS present) this runs its analysis, the nested-dissection order
/// and the fill, which takes time and memory of the order of the graph's.
[[nodiscard]] plan make_plan(const graph& g, const solve_options& options = {});

/// Plans what is asked of `g` (apsp/plan.hpp's plan_request), choosing among the whole-matrix
/// engines above, the row engines and the block engines with one cost model; `apsp info`
/// shows it, and the run that follows executes it as it is:
/// - matrix: make_plan(g, options).
/// - metrics: apsp::compute_metrics's engine. Rows (drivers::johnson_rows, or phast_rows on
///   large sparse graphs with integer weights) when algorithm_kind::johnson is asked, when auto
///   picks Johnson, or when the n x n matrix would not fit in RAM (unless the GPUs hold it and
///   reduce it where they solve it); else the matrix plan, counted without the matrix in RAM
///   where its GPUs reduce it. Throws invalid_argument_error for options a metrics run cannot
///   take.
/// - block: the distances from `asked.sources` sources to `asked.targets` targets:
///   drivers::block_rows (Dijkstra from the smaller side on the cpu) or, when the options ask
///   for an all-pairs engine (algorithm fw or supernodal, back end cuda or reference, devices,
///   device_memory_limit) or under auto when it fits in RAM and the cost model says it ends
///   sooner, the whole matrix's plan, the block cut from it. plan::algorithm_reason says why.
/// - pair: apsp::solve_pair's engine, drivers::pair_search (one bidirectional search on one
///   thread, potentials first when a weight is negative), whatever engine the options name;
///   its host memory is solve_pair_host_bytes.
[[nodiscard]] plan make_plan(const graph& g, const solve_options& options,
                             const plan_request& asked);

/// The plan make_plan(g, options, asked) makes for a graph of `n` vertices and `m` arcs, where
/// those counts alone decide it; empty where the graph must be read. Today a block: Dijkstra's
/// rows when predecessors or Johnson are asked, or under auto when the searches end before any
/// engine that reads the edges could (writing the n x n matrix, starting a GPU, building a
/// contraction hierarchy). For callers whose graph is not an apsp::graph yet (SciPy's CSR
/// arrays in the Python module): a small block needs no copy of the edges to be planned.
[[nodiscard]] std::optional<plan> make_plan_by_counts(std::int64_t n, std::int64_t m,
                                                      const solve_options& options,
                                                      const plan_request& asked);

/// All-pairs shortest paths of `g`: plans (make_plan(g, options)), then runs that plan.
/// Throws overflow_risk_error (int types whose range the graph could exceed),
/// negative_cycle_error, out_of_memory_error, backend_unavailable_error, cancelled_error.
[[nodiscard]] result solve(const graph& g, const solve_options& options = {});

/// Runs exactly `p`, a plan that make_plan(g, options) returned for this graph and these
/// options (its driver, devices, block and, for the supernodal solver, its analysis: nothing is
/// planned again). A caller that has since moved the outputs into memory-mapped files
/// (distances_file, paths_file) recounts the plan's host memory with count_host_memory first.
/// Throws invalid_argument_error for a plan made for another vertex count, type or paths
/// setting (or packed 16-bit for weights it is not exact for), out_of_memory_error for a plan that
/// does not fit (as given, or as the options place the outputs), and what solve throws.
[[nodiscard]] result solve(const graph& g, const plan& p, const solve_options& options);

/// All-pairs shortest paths from an initial distance matrix (`infinity` of the element type =
/// no edge; the diagonal is taken as min(0, given)). The element type must match options.type.
[[nodiscard]] result solve_dense(any_matrix initial, const solve_options& options = {});

/// Back ends built into this library and whether each can run now.
struct backend_status {
  backend_kind kind;
  bool available;
  std::string detail; ///< device name, or why it is unavailable
};
[[nodiscard]] std::vector<backend_status> list_backends();

/// Gives back what this process holds on its GPUs: the CUDA context of every device that a
/// plan or solve of this library started, with all its memory. A later plan or solve starts
/// them again, which takes a noticeable time. For a program that is done with the GPUs: tearing
/// a context down also takes time, which the process would otherwise spend in its exit, and on
/// a thread of its own it runs beside the program's last work (`apsp solve` does so once the
/// solve is done). Call it only while no solve runs. Does nothing where CUDA was never used.
void release_devices() noexcept;

/// Removes a checkpoint saved with solve_options::checkpoint_dir (the manifest and the rank
/// files apsp wrote, recognised by their names and the manifest's first line, nothing else;
/// the directory too when that empties it). For after a successful solve.
void remove_checkpoint(const std::filesystem::path& dir);

/// Bytes one checkpoint of the solve `p` takes on disk (the values of every process, their file
/// headers and the manifest); 0 when `p` saves none (plan::checkpointed). A save writes its files
/// beside the last complete checkpoint's and removes those only once it is complete, so the
/// directory may hold twice this while a save runs.
[[nodiscard]] std::uint64_t checkpoint_bytes(const plan& p);

/// How far the solve whose checkpoint is in a directory had come.
struct checkpoint_progress {
  std::int64_t rounds_done = 0;
  std::int64_t rounds_total = 0;
};
/// The rounds that the checkpoint in `dir` (solve_options::checkpoint_dir) holds, as its
/// manifest names them; nullopt when `dir` holds no apsp checkpoint. For telling a user, after
/// a cancel, what a resume will start from.
[[nodiscard]] std::optional<checkpoint_progress> saved_checkpoint(const std::filesystem::path& dir);

/// The library version, e.g. "0.1.0".
[[nodiscard]] const char* version() noexcept;

} // namespace apsp
