#pragma once
// The summary of `apsp solve`, as JSON (--json) or text, written by one piece of code for one
// process (solve_command.cpp) and for MPI ranks (distributed.cpp), so that both print the same
// keys and lines in the same words; the ranks add theirs (tests/mpi/test_distributed.py compares
// them).

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "apsp/io.hpp"
#include "apsp/plan.hpp"
#include "apsp/types.hpp"

namespace apsp::cli {

/// What the summary says of a solve.
struct solve_summary {
  std::string input;                   ///< the input's path as given
  io::format format = io::format::npy; ///< the input's format
  std::int64_t n = 0;
  std::int64_t m = 0;
  const plan* ran = nullptr; ///< the plan that ran
  std::string backend;       ///< to_string(ran->backend); "distributed" for MPI ranks
  dtype type = dtype::int32;
  double read_seconds = 0;
  double setup_seconds = 0;
  double solve_seconds = 0;
  double finish_seconds = 0;
  double write_seconds = 0;
  std::uint64_t reachable_pairs = 0;
  nlohmann::ordered_json distance_sum; ///< exact for integer types (cli/stats.hpp)
  nlohmann::ordered_json max_distance;
  std::string distance_sum_text; ///< the text summary's: all digits for integer types
  std::string max_distance_text;
  std::string distances_out; ///< -o, empty when none
  std::string paths_out;     ///< --paths, empty when none
};

/// n^3 over the solve's seconds (0 when it took none).
[[nodiscard]] double updates_per_second(std::int64_t n, double solve_seconds);

/// Sources searched a second: the rate engines that make rows a source at a time count
/// (Johnson's Dijkstra, the metrics' rows, PHAST's sweeps, a block's searches), `sources` over
/// `seconds` (0 when none passed). A whole-matrix engine's rows count as n sources, so every
/// summary has the key with a number.
[[nodiscard]] double sources_per_second(std::int64_t sources, double seconds);

/// The summary's keys, in their order: input, format, n, m, backend, device, driver, algorithm,
/// algorithm_reason, dtype, narrow, block, rounds, plan (as `apsp info --json` shows it),
/// seconds, updates_per_second, sources_per_second (n sources over the solve's seconds),
/// peak_memory_bytes (this process's), reachable_pairs,
/// distance_sum, max_distance and outputs; then those of `extra` (the ranks' own).
[[nodiscard]] nlohmann::ordered_json solve_summary_json(const solve_summary& s,
                                                        const nlohmann::ordered_json& extra = {});

/// The text summary, a line a fact: input, vertices and edges, then `how` (the lines that say
/// how the solve ran, in the runner's words: one process's back end, algorithm and tile; the
/// ranks' grid, look-ahead and dtype), seconds, updates/s, `per_rank` (the ranks' own lines),
/// reachable pairs, checksum and the outputs.
[[nodiscard]] std::string solve_summary_text(const solve_summary& s, const std::string& how,
                                             const std::string& per_rank = {});
/// One line of the text summary: `label` padded to the column of values, then `value`.
[[nodiscard]] std::string summary_line(const char* label, const std::string& value);

} // namespace apsp::cli
