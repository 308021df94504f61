#pragma once
// Shortest paths from a set of sources for the CLI (`solve --sources/--targets`, `paths`):
// apsp::solve_from_sources in batches, so that memory stays O(batch x n) however many sources
// there are, with one progress line over all batches, Ctrl-C between and inside them, and
// errors in the file's own ids.

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "apsp/graph.hpp"
#include "apsp/sources.hpp"
#include "input.hpp"
#include "interrupt.hpp"

namespace apsp::cli {

struct batch_settings {
  dtype type = dtype::int32;
  int threads = 0;
  bool predecessors = false;
  progress_style progress = progress_style::none;
};

/// The settings for `options` (dtype, threads) when a command solves from sources on the cpu:
/// `--dtype int16` (packed arithmetic on the cuda back end only) is refused (exit 2), and,
/// unless `engine_options_apply` (the command may run an all-pairs engine instead), the
/// options that choose or tune the all-pairs engines (--backend cuda/reference, --algorithm
/// fw/supernodal, --block, --gpu-memory, --devices) are ignored after one warning each, naming
/// `what` ("paths").
[[nodiscard]] batch_settings dijkstra_settings(const solver_options& options,
                                               const std::string& what,
                                               bool engine_options_apply = false);

/// Sources per batch for a graph of n vertices: rows of at most 2^24 cells at a time (64 MiB of
/// int32 distances, plus as much for predecessors; APSP_SOURCE_BATCH_CELLS for tests), at least
/// one source.
[[nodiscard]] std::int64_t sources_per_batch(std::int64_t n) noexcept;

/// Runs solve_from_sources(g, sources) batch by batch, in order, and hands each result to
/// consume(first, rows): `rows` holds the rows of sources[first], sources[first + 1], ...
/// The graph is prepared once (apsp::source_solver: checks, CSR copy, potentials), not per batch.
/// Every negative cycle of the graph refuses the solve, as `apsp solve` refuses it
/// (negative_cycle_error in the file's ids); cancelled_error after SIGINT/SIGTERM/SIGHUP.
void for_each_batch(const loaded_graph& in, const graph& g, std::span<const std::int64_t> sources,
                    const batch_settings& settings,
                    const std::function<void(std::size_t, const source_result&)>& consume);

} // namespace apsp::cli
