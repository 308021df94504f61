#pragma once
// The cost model behind algorithm_kind::automatic (documented in docs/sparse.md): estimated
// seconds of Floyd-Warshall on the cpu or on a GPU and of Johnson on the cpu, from n, m, the
// weight type and engine rates measured on this project's machines.

#include <cstdint>
#include <string>

#include "apsp/types.hpp"

namespace apsp::detail {

struct problem_shape {
  std::int64_t n = 0;
  std::int64_t m = 0; ///< arcs (parallel edges and self-loops included: an upper bound)
  dtype type = dtype::int32;
  int threads = 1; ///< cpu threads Johnson and the cpu Floyd-Warshall would use
  int gpus = 1;    ///< GPUs the cuda Floyd-Warshall would use (its plan's `devices`)
  /// The supernodal Floyd-Warshall's counted updates for this graph (cpu/elimination.hpp);
  /// negative when not analysed, +infinity when the graph has no small separators.
  double supernodal_updates = -1;
  /// The supernodal Floyd-Warshall may run on a GPU (one is present and holds the matrix).
  bool gpu_supernodal = false;
  /// Johnson and the supernodal Floyd-Warshall may run on the cpu (not under --backend cuda).
  bool host_engines = true;
  /// The n x n result goes to host memory (a GPU engine then pays its download); false when it
  /// is reduced where it is solved (the metrics).
  bool host_output = true;
};

/// n^3 updates at the blocked cpu solver's rate.
[[nodiscard]] double fw_cpu_seconds(const problem_shape& s);
/// n^3 updates at a GPU's min-plus rate (H100 figures; only int32 and float32 run there).
[[nodiscard]] double fw_cuda_seconds(const problem_shape& s);
/// Seconds a GPU needs before its first kernel and after the solve the first time a process uses
/// one: the CUDA context, and its teardown at exit.
[[nodiscard]] double cuda_start_seconds();
/// Whether a cuda back end has made a plan (and so started a device) in this process, after
/// which a GPU costs no start.
[[nodiscard]] bool gpu_started() noexcept;
void note_gpu_started() noexcept;
/// Whether Floyd-Warshall of shape s ends sooner on the cpu than on a GPU that has to start
/// first (`started`: it has, and costs nothing more). Small n under backend_kind::automatic.
[[nodiscard]] bool cpu_beats_gpu_start(const problem_shape& s, bool started);
/// n Dijkstra runs, each about m relaxations and n queue operations plus a row written.
[[nodiscard]] double johnson_cpu_seconds(const problem_shape& s);
/// A rows x cols table from a contraction hierarchy (integer weights, road-like graphs): the
/// hierarchy's build, an upward search per source and per target, and the bucket scans.
[[nodiscard]] double ch_table_cpu_seconds(const problem_shape& s, std::int64_t rows,
                                          std::int64_t cols);
/// Its parts: the hierarchy's build, and the searches and bucket scans of a built one.
[[nodiscard]] double ch_build_cpu_seconds(const problem_shape& s);
[[nodiscard]] double ch_buckets_cpu_seconds(const problem_shape& s, std::int64_t rows,
                                            std::int64_t cols);
/// A rows x cols table by RPHAST from a built hierarchy (cpu/rphast.hpp): per source an upward
/// search and a sweep over the targets' closure, per cell a read (add ch_build_cpu_seconds for
/// the build).
[[nodiscard]] double rphast_cpu_seconds(const problem_shape& s, std::int64_t rows,
                                        std::int64_t cols);
/// The positions of the targets' upward closure the model expects for `cols` targets of a
/// road-like graph of n vertices: sqrt(n cols) times a constant, at most n.
[[nodiscard]] double rphast_closure_size(std::int64_t n, std::int64_t cols);
/// The supernodal steps' updates at its streaming rate, plus the passes over the n x n matrix
/// (fill, relabelling there and back); +infinity when not analysed.
[[nodiscard]] double supernodal_cpu_seconds(const problem_shape& s);

/// The supernodal analysis itself (METIS nested dissection and the symbolic steps) for m arcs:
/// the planner runs it only where it is cheap beside the other engines' estimates.
[[nodiscard]] double supernodal_analysis_seconds(const problem_shape& s);

/// The supernodal steps on one GPU: the counted updates at its rate, plus the launches of the
/// levels and the passes over the n x n matrix on the device (build, gather); +infinity when
/// not analysed.
[[nodiscard]] double supernodal_cuda_seconds(const problem_shape& s);
/// A GPU engine's n x n result moved into host memory (or the mapped output file); 0 when
/// s.host_output is false. choose_algorithm adds it to every GPU candidate.
[[nodiscard]] double gpu_output_seconds(const problem_shape& s);

struct algorithm_choice {
  algorithm_kind algorithm = algorithm_kind::floyd_warshall;
  /// Where it runs: the Floyd-Warshall back end given to choose_algorithm, the cpu for Johnson,
  /// the cpu or cuda for the supernodal Floyd-Warshall.
  backend_kind backend = backend_kind::cpu;
  std::string reason;
  double seconds = 0;    ///< the chosen engine's estimate
  double fw_seconds = 0; ///< Floyd-Warshall's estimate on the back end it was given
};

/// The fastest estimate of Floyd-Warshall on `fw_backend` (cpu or cuda), Johnson and (when
/// analysed) the supernodal Floyd-Warshall on the cpu (when s.host_engines) and on a GPU (when
/// s.gpu_supernodal); the reason quotes the estimates.
[[nodiscard]] algorithm_choice choose_algorithm(const problem_shape& s, backend_kind fw_backend);

} // namespace apsp::detail
