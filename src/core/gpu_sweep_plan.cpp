// The metrics' GPU sweeps in the one planner (core/gpu_sweep_plan.hpp): whether they run, and
// their plan (driver, lanes, rows reduced together, memory).

#include "core/gpu_sweep_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "apsp/solve.hpp"
#include "core/algorithm_choice.hpp"
#include "core/backend.hpp"
#include "core/driver_fields.hpp"
#include "core/host_memory.hpp"
#include "core/planner.hpp"
#include "core/thread_count.hpp"
#include "core/tuning.hpp"

namespace apsp::detail {
namespace {

// The cost model's constants. The cpu's: PHAST's cpu seconds per (source, vertex) pair on the
// H200 host's cpus, from the road graphs' rows of bench/results/gpu_2026-11-28_h200_5e528e2_
// roads.csv (cpu_seconds / n^2). The GPU's: a pair swept and reduced (the phast suite's metrics
// on the 500k road graph less its hierarchy, bench/results/gpu_2026-11-29_h200_36c7990_phast.csv,
// agree with it), a level's launch, a source's upward search on one cpu thread, and starting
// the device (with the sweeps' set-up: more than core/algorithm_choice.cpp's bare start).
constexpr double cpu_pair_seconds = 15e-9;
constexpr double gpu_pair_seconds = 1e-10;
constexpr double gpu_level_seconds = 5e-6;
constexpr double gpu_levels_guess = 200; // levels of a road graph's hierarchy, before it is built
constexpr double upward_search_seconds = 30e-6;
/// The sweeps' set-up beyond starting the device (cuda_start_seconds): the hierarchy's levels
/// grouped and uploaded, the batches' CUDA graph captured.
constexpr double sweep_setup_seconds = 0.35;

/// Bytes of the rows reduced together: whole batches, at most this much.
constexpr std::uint64_t held_rows_bytes = std::uint64_t{1} << 30;
/// A table's rows brought back and copied into the caller's table (pinned copies, then the
/// host's), bytes a second.
constexpr double table_back_bytes_per_second = 10e9;
/// A restricted sweep's levels: fewer than the whole hierarchy's, but of its order.
constexpr double closure_levels_guess = 150;

} // namespace

std::uint64_t gpu_sweep_device_bytes(std::int64_t n, std::int64_t down_arcs, int lanes,
                                     std::int64_t held) noexcept {
  const auto un = static_cast<std::uint64_t>(std::max<std::int64_t>(n, 0));
  const auto ua = static_cast<std::uint64_t>(std::max<std::int64_t>(down_arcs, 0));
  const auto lanes64 = static_cast<std::uint64_t>(lanes);
  // The lanes; offsets and arcs; every vertex as a column (slot, potential) and its source
  // potential; the seeds (a few hundred a source on road graphs: room for a thousand); the
  // held rows; the reduction's column partials (count, max, sum, inverse).
  return un * lanes64 * 4 + (un + 1) * 8 + ua * 8 + un * 12 + lanes64 * 1024 * 12 +
         static_cast<std::uint64_t>(std::max<std::int64_t>(held, 0)) * un * 4 + un * 28;
}

double phast_cpu_seconds(std::int64_t n, int threads) noexcept {
  const auto dn = static_cast<double>(n);
  return cpu_pair_seconds * dn * dn / static_cast<double>(std::max(1, threads));
}

double phast_gpu_seconds(std::int64_t n, int threads) noexcept {
  const auto dn = static_cast<double>(n);
  const double batches = std::ceil(dn / gpu_sweep_default_lanes);
  return cuda_start_seconds() + sweep_setup_seconds + gpu_pair_seconds * dn * dn +
         batches * gpu_levels_guess * gpu_level_seconds +
         upward_search_seconds * dn / static_cast<double>(std::max(1, threads));
}

double rphast_gpu_seconds(std::int64_t closure, std::int64_t rows, std::int64_t cols, int threads,
                          bool start) noexcept {
  const auto dr = static_cast<double>(std::max<std::int64_t>(rows, 0));
  const double batches = std::ceil(dr / gpu_sweep_default_lanes);
  return (start ? cuda_start_seconds() + sweep_setup_seconds : 0.0) +
         gpu_pair_seconds * static_cast<double>(closure) * dr +
         batches * closure_levels_guess * gpu_level_seconds +
         upward_search_seconds * dr / static_cast<double>(std::max(1, threads)) +
         dr * static_cast<double>(cols) * 4 / table_back_bytes_per_second;
}

std::uint64_t rphast_gpu_device_bytes(std::int64_t closure, std::int64_t cols, int lanes) noexcept {
  const auto uc = static_cast<std::uint64_t>(std::max<std::int64_t>(closure, 0));
  const auto ucols = static_cast<std::uint64_t>(std::max<std::int64_t>(cols, 0));
  const auto lanes64 = static_cast<std::uint64_t>(lanes);
  // The lanes over the closure; its offsets and arcs (about three a slot); the columns (slot,
  // potential); the seeds (room for a thousand a source); a batch's rows.
  return uc * lanes64 * 4 + (uc + 1) * 8 + uc * 3 * 8 + ucols * 8 + lanes64 * 1024 * 12 +
         lanes64 * ucols * 4;
}

std::optional<plan> gpu_sweeps_plan(const graph& edges, const solve_options& o, row_engine engine) {
  if (engine != row_engine::phast || o.type != dtype::int32)
    return std::nullopt;
  const bool asked = o.backend == backend_kind::cuda && (o.algorithm == algorithm_kind::automatic ||
                                                         o.algorithm == algorithm_kind::johnson);
  const bool automatic =
      o.backend == backend_kind::automatic && o.algorithm == algorithm_kind::automatic;
  if (!asked && !automatic)
    return std::nullopt;
  const std::int64_t n = edges.num_vertices();
  const std::int64_t m = edges.num_edges();
  const int threads = thread_count(o);
  const double cpu_seconds = phast_cpu_seconds(n, threads);
  const double gpu_seconds = phast_gpu_seconds(n, threads);
  // The cost model first: auto asks nothing of the devices when the cpu ends sooner anyway.
  if (!asked && !(gpu_seconds < cpu_seconds))
    return std::nullopt;
  const int tuned = current_tuning().cuda_phast_lanes;
  const int lanes = tuned > 0 ? tuned : gpu_sweep_default_lanes;
  const auto un = static_cast<std::uint64_t>(std::max<std::int64_t>(n, 1));
  const std::int64_t batches_held =
      std::max<std::int64_t>(1, static_cast<std::int64_t>(held_rows_bytes / (un * 4)) / lanes);
  const std::int64_t held =
      std::min<std::int64_t>(batches_held * lanes, (n + lanes - 1) / lanes * lanes);
  const int device = o.devices.empty() ? 0 : o.devices.front();
  const std::uint64_t device_bytes = gpu_sweep_device_bytes(n, 2 * m, lanes, held);
  if (!asked && device_bytes > gpu_auto_device_bytes)
    return std::nullopt;
  const backend_status gpu = current_cuda_backend()->status();
  if (!gpu.available)
    return std::nullopt;
  char text[240];
  std::snprintf(text, sizeof text,
                asked ? "requested (cuda): a large sparse graph with integer weights; the "
                        "contraction hierarchy's sweeps on the GPU ~%.3g s (the cpu's ~%.3g s)"
                      : "auto: a large sparse graph with integer weights; the contraction "
                        "hierarchy's sweeps on the GPU ~%.3g s < on the cpu ~%.3g s",
                gpu_seconds, cpu_seconds);

  plan p;
  p.run = drivers::cuda_phast{device, lanes, threads, held};
  derive_driver_fields(p, backend_kind::cuda);
  p.algorithm = algorithm_kind::johnson; // potentials first where a weight is negative
  p.algorithm_reason = text;
  p.device = gpu.detail;
  p.type = o.type;
  p.n = n;
  p.block = lanes;
  p.rounds = (n + lanes - 1) / lanes;
  p.device_bytes = device_bytes;
  // The hierarchy while it is built (as PHAST's cpu plan counts it), each thread's upward
  // search and seeds, and the sources' list.
  const auto um = static_cast<std::uint64_t>(m);
  p.working_host_bytes = add_bytes(dijkstra_rows_shared(un, um) + 32 * (4 * um + un) + 96 * un,
                                   un * 24 * static_cast<std::uint64_t>(threads) + 8 * un);
  p.host_bytes = p.working_host_bytes;
  p.driver_fits = true;
  const std::uint64_t ram = host_memory_bytes();
  p.fits = ram == 0 || p.host_bytes <= ram;
  p.reason = p.fits ? std::string()
                    : "the GPU sweeps need " + gib(p.host_bytes) +
                          " of host memory for the hierarchy but this machine has " + gib(ram);
  return p;
}

} // namespace apsp::detail
