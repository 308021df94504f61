#include "core/algorithm_choice.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include <omp.h>

#include "apsp/estimate.hpp"

namespace apsp::detail {
namespace {

// Rates; docs/sparse.md says where each was measured. Per cpu thread, so they scale with
// --threads; a GPU's is the whole device.
constexpr double fw_cpu_rate_4_byte = 2.0e10; // int32/float32 updates per second per thread
constexpr double fw_cpu_rate_8_byte = 1.0e10; // int64/float64
constexpr double fw_cuda_rate_int32 = 2.0e13; // H100, int32 (DPX min-plus)
constexpr double fw_cuda_rate_float32 = 1.2e13;
constexpr double johnson_seconds_per_arc = 4e-9;           // relaxing one arc
constexpr double johnson_seconds_per_vertex_int = 40e-9;   // radix heap pop + the row's cell
constexpr double johnson_seconds_per_vertex_float = 55e-9; // 4-ary heap pop + the row's cell
// A table from a contraction hierarchy, per thread: building the hierarchy (seconds per arc of
// the graph), one upward search (with stall-on-demand) per source and, for the buckets
// (cpu/ch_table.hpp), per target, and the bucket scans: per cell of the table, the vertices a
// source's and a target's searches share, about sqrt(n) times a constant on grid-like road
// graphs (their separators). RPHAST (cpu/rphast.hpp) instead sweeps the targets' closure once
// per source (shared by a batch's lanes; per slot) and reads each cell from the sweep. The
// closure of |T| targets measured close to sqrt(n |T|) positions on road_graph.py graphs.
// Fitted to runs of both engines on a prepared hierarchy (bench/results/
// tables_rphast_2026-11-29.csv, docs/tables.md "Cost model"); the build to `apsp prepare`'s.
constexpr double ch_build_seconds_per_arc = 3.0e-5;
constexpr double ch_seconds_per_search = 9e-5;
constexpr double ch_seconds_per_cell_per_sqrt_vertex = 1.2e-10;
constexpr double rphast_seconds_per_slot = 2.5e-9;
constexpr double rphast_seconds_per_cell = 1e-8;
constexpr double rphast_closure_per_sqrt_cell = 1.05;
// The supernodal steps stream their blocks from memory: updates per second per thread (4-byte
// types; 8-byte ones half), and seconds per matrix cell per thread for the fill and the two
// relabelling passes. The rate lies between the per-thread rates measured on a few threads and
// on many, where the steps are bound by memory bandwidth (the runs behind it: docs/sparse.md
// and docs/dev/benchmark-log.md, 'Figures from code comments').
constexpr double supernodal_rate_4_byte = 1.0e10;
constexpr double supernodal_seconds_per_cell = 2.0e-9;
// The analysis per arc: METIS's nested dissection and the symbolic steps, which cost most on
// graphs without small separators (dense random graphs); an upper figure of the runs in
// docs/dev/benchmark-log.md, 'Figures from code comments'.
constexpr double supernodal_analysis_seconds_per_arc = 5.0e-6;
// The supernodal steps on one GPU (updates per second of the whole device; H200, int32 and
// float32), a fixed cost for the levels' launches and the analysis' upload, and seconds per
// matrix cell for the build and the gather into vertex order (docs/sparse.md).
constexpr double supernodal_cuda_rate_int32 = 5.0e12;
constexpr double supernodal_cuda_rate_float32 = 3.5e12;
constexpr double supernodal_cuda_fixed_seconds = 5e-3;
constexpr double supernodal_cuda_seconds_per_cell = 2e-12;
// A GPU's result into host memory: bytes per second of the whole move (download, page faults,
// the mapped file's writeback) as one H200's host managed it for DE.gr (measured:
// docs/dev/benchmark-log.md, 'Figures from code comments'); matrices above the host's
// dirty-page limit move slower, which this does not model.
constexpr double gpu_output_bytes_per_second = 4.0e9;

/// Threads' worth of speed for the host's sparse engines: they are bound by memory and by
/// shared cores, so 2 threads give about 1.7 and 16 about 9 (threads^0.8). Johnson's measured
/// times on 2, 16 and 32 threads are closer to this rule's estimates than to linear scaling's
/// (measured: docs/dev/benchmark-log.md, 'Figures from code comments').
double sparse_threads(int threads) {
  return std::pow(static_cast<double>(threads > 0 ? threads : 1), 0.8);
}

/// What a GPU adds to a whole run besides its rounds. `apsp solve` starts the context beside
/// the read with 2 work queues and leaves its teardown to a helper after the outputs are
/// complete; the constant below is that extra in seconds, fitted to whole runs on the GPU and
/// the cpu of one host, and with it the rule puts the crossing between the two where those runs
/// put it (measured, with the larger value it had while the exit still tore the context down:
/// docs/dev/benchmark-log.md, 'Figures from code comments').
constexpr double gpu_start_seconds = 0.15;

std::atomic<bool> gpu_started_flag{false};

/// Two or more GPUs split the rounds: 0.9 of linear, between the speed-ups two GPUs reached at
/// a smaller and a larger n (measured: docs/dev/benchmark-log.md, 'Figures from code comments').
constexpr double multi_gpu_efficiency = 0.9;

double cube(std::int64_t n) {
  const double x = static_cast<double>(n);
  return x * x * x;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

} // namespace

double fw_cpu_seconds(const problem_shape& s) {
  const double rate = size_of(s.type) == 4 ? fw_cpu_rate_4_byte : fw_cpu_rate_8_byte;
  return cube(s.n) / (rate * static_cast<double>(s.threads > 0 ? s.threads : 1));
}

double fw_cuda_seconds(const problem_shape& s) {
  const double gpus = s.gpus > 1 ? multi_gpu_efficiency * s.gpus : 1.0;
  return cube(s.n) / (gpus * (s.type == dtype::int32 ? fw_cuda_rate_int32 : fw_cuda_rate_float32));
}

double cuda_start_seconds() {
  return gpu_start_seconds;
}

bool gpu_started() noexcept {
  return gpu_started_flag.load(std::memory_order_relaxed);
}

void note_gpu_started() noexcept {
  gpu_started_flag.store(true, std::memory_order_relaxed);
}

bool cpu_beats_gpu_start(const problem_shape& s, bool started) {
  if (size_of(s.type) != 4)
    return true; // the GPU solves int32 and float32 only
  return fw_cpu_seconds(s) < fw_cuda_seconds(s) + (started ? 0.0 : cuda_start_seconds());
}

double johnson_cpu_seconds(const problem_shape& s) {
  const double per_vertex =
      is_integral(s.type) ? johnson_seconds_per_vertex_int : johnson_seconds_per_vertex_float;
  const double n = static_cast<double>(s.n);
  const double per_source = static_cast<double>(s.m) * johnson_seconds_per_arc + n * per_vertex;
  return n * per_source / sparse_threads(s.threads);
}

double ch_build_cpu_seconds(const problem_shape& s) {
  return static_cast<double>(s.m) * ch_build_seconds_per_arc / sparse_threads(s.threads);
}

double ch_buckets_cpu_seconds(const problem_shape& s, std::int64_t rows, std::int64_t cols) {
  const double searches = static_cast<double>(rows) + static_cast<double>(cols);
  const double cells = static_cast<double>(rows) * static_cast<double>(cols);
  return (searches * ch_seconds_per_search +
          cells * ch_seconds_per_cell_per_sqrt_vertex * std::sqrt(static_cast<double>(s.n))) /
         sparse_threads(s.threads);
}

double ch_table_cpu_seconds(const problem_shape& s, std::int64_t rows, std::int64_t cols) {
  return ch_build_cpu_seconds(s) + ch_buckets_cpu_seconds(s, rows, cols);
}

double rphast_closure_size(std::int64_t n, std::int64_t cols) {
  const double nv = static_cast<double>(std::max<std::int64_t>(n, 0));
  return std::min(nv, rphast_closure_per_sqrt_cell * std::sqrt(nv * static_cast<double>(cols)));
}

double rphast_cpu_seconds(const problem_shape& s, std::int64_t rows, std::int64_t cols) {
  const double r = static_cast<double>(rows);
  const double cells = r * static_cast<double>(cols);
  const double per_source =
      ch_seconds_per_search + rphast_closure_size(s.n, cols) * rphast_seconds_per_slot;
  return (r * per_source + cells * rphast_seconds_per_cell) / sparse_threads(s.threads);
}

double supernodal_cpu_seconds(const problem_shape& s) {
  if (!(s.supernodal_updates >= 0) || std::isinf(s.supernodal_updates))
    return std::numeric_limits<double>::infinity();
  const double threads = sparse_threads(s.threads);
  const double rate = supernodal_rate_4_byte / (size_of(s.type) == 4 ? 1.0 : 2.0);
  const double n = static_cast<double>(s.n);
  return s.supernodal_updates / (rate * threads) + n * n * supernodal_seconds_per_cell / threads;
}

double supernodal_analysis_seconds(const problem_shape& s) {
  return static_cast<double>(std::max<std::int64_t>(s.m, 0)) * supernodal_analysis_seconds_per_arc;
}

double supernodal_cuda_seconds(const problem_shape& s) {
  if (!(s.supernodal_updates >= 0) || std::isinf(s.supernodal_updates))
    return std::numeric_limits<double>::infinity();
  const double rate =
      s.type == dtype::int32 ? supernodal_cuda_rate_int32 : supernodal_cuda_rate_float32;
  const double n = static_cast<double>(s.n);
  return s.supernodal_updates / rate + supernodal_cuda_fixed_seconds +
         n * n * supernodal_cuda_seconds_per_cell;
}

double gpu_output_seconds(const problem_shape& s) {
  if (!s.host_output)
    return 0;
  const double n = static_cast<double>(s.n);
  return n * n * static_cast<double>(size_of(s.type)) / gpu_output_bytes_per_second;
}

algorithm_choice choose_algorithm(const problem_shape& s, backend_kind fw_backend) {
  struct candidate {
    algorithm_kind algorithm;
    backend_kind backend;
    double seconds;
    std::string name;
  };
  // With host engines to weigh against, the GPU's engines pay for moving the matrix to the host
  // (the cpu's write it where it lies).
  const double to_host = s.host_engines ? gpu_output_seconds(s) : 0.0;
  std::vector<candidate> all{
      {algorithm_kind::floyd_warshall, fw_backend,
       fw_backend == backend_kind::cuda ? fw_cuda_seconds(s) + to_host : fw_cpu_seconds(s),
       "Floyd-Warshall on " + std::string(to_string(fw_backend))}};
  if (s.host_engines)
    all.push_back(
        {algorithm_kind::johnson, backend_kind::cpu, johnson_cpu_seconds(s), "Johnson on cpu"});
  if (s.supernodal_updates >= 0 && s.host_engines)
    all.push_back({algorithm_kind::supernodal, backend_kind::cpu, supernodal_cpu_seconds(s),
                   "supernodal FW on cpu"});
  if (s.supernodal_updates >= 0 && s.gpu_supernodal)
    all.push_back({algorithm_kind::supernodal, backend_kind::cuda,
                   supernodal_cuda_seconds(s) + to_host, "supernodal FW on cuda"});
  // Stable: on a tie the earlier (Floyd-Warshall, then Johnson) wins.
  std::stable_sort(all.begin(), all.end(),
                   [](const candidate& a, const candidate& b) { return a.seconds < b.seconds; });
  algorithm_choice c;
  c.algorithm = all.front().algorithm;
  c.backend = all.front().backend;
  c.seconds = all.front().seconds;
  for (const candidate& e : all)
    if (e.algorithm == algorithm_kind::floyd_warshall)
      c.fw_seconds = e.seconds;
  c.reason = "auto: n = " + std::to_string(s.n) + ", m = " + std::to_string(s.m) + ": ";
  for (std::size_t k = 0; k < all.size(); ++k) {
    c.reason += (k == 0                                ? ""
                 : all[k - 1].seconds < all[k].seconds ? " < "
                                                       : " <= ") +
                all[k].name + " ~" +
                (std::isinf(all[k].seconds) ? std::string("n/a (no small separators)")
                                            : seconds_text(all[k].seconds));
  }
  return c;
}

} // namespace apsp::detail

namespace apsp {

double estimated_solve_seconds(const plan& p, const solve_options& options, std::int64_t edges) {
  detail::problem_shape s;
  s.n = p.n;
  s.m = edges;
  s.type = p.type;
  s.threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  s.gpus = p.devices;
  if (p.algorithm == algorithm_kind::johnson)
    return detail::johnson_cpu_seconds(s);
  if (p.algorithm != algorithm_kind::floyd_warshall)
    return 0;
  switch (p.backend) {
  case backend_kind::cpu:
    return detail::fw_cpu_seconds(s);
  case backend_kind::cuda:
    return detail::fw_cuda_seconds(s);
  default:
    return 0;
  }
}

} // namespace apsp
