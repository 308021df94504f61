#pragma once
// `apsp solve` working inside its output files (memory-mapped) instead of RAM: when that pays,
// the partial files it works in, and preparing them while a GPU's context starts.

#include <cstdint>
#include <filesystem>
#include <string>

#include "apsp/graph.hpp"
#include "apsp/options.hpp"
#include "output.hpp"

namespace apsp::cli {

/// Whether `p` (planned with the outputs in RAM) is better off working in the output file: with a
/// matrix larger than RAM; for an in-core GPU solve (the host only fills the matrix and receives
/// the result, so the separate write of the whole matrix, about a quarter of a whole run,
/// disappears); for Johnson's (each source's row goes straight into the file's pages, which the
/// kernel writes back while later rows are computed); and for the supernodal solver while the
/// files stay within the kernel's dirty-page limit (it fills and relabels the whole matrix in
/// place, which is faster than solving in RAM and writing the file after, until throttled
/// writeback beyond that limit makes it slower; measured: docs/dev/benchmark-log.md, 'Figures
/// from code comments').
[[nodiscard]] bool solve_pays_in_place(const plan& p, const solve_options& options);

/// Bytes of a solve's n x n results: the distances in options.type and, with options.paths, the
/// path matrix (int32).
[[nodiscard]] std::uint64_t result_bytes(std::int64_t n, const solve_options& options);

/// A matrix solved inside its output file: the values (`value_bytes` of them) live in
/// OUT.apsp-partial behind room for the header (staged in `outputs`, which renames it to OUT at
/// the end or removes it); finish() writes the header.
struct in_place_output {
  in_place_output(const std::string& out_path, std::string header_bytes, std::uint64_t value_bytes,
                  output_files& outputs);
  void finish(output_files& outputs) const;
  /// The whole file's size: the header and the values.
  [[nodiscard]] std::uint64_t bytes() const noexcept { return header.size() + values; }

  std::string out;
  std::filesystem::path partial;
  std::string header;
  std::uint64_t values;
};

/// Before an automatic (not asked for) in-place output larger than 1 GB is made: one line on
/// stderr naming its size and where it lives, "apsp: note: the 100000 x 100000 distance matrix
/// (37.3 GiB) is solved in place in /data/d.npy.apsp-partial-PID (renamed to d.npy when done;
/// --no-map-output keeps it in RAM)". Nothing for smaller files.
void announce_in_place(const in_place_output& f, std::int64_t n, const std::string& what);

/// When `apsp solve` prefills the output it may solve in (prefill_file): while a GPU's context
/// starts, unless APSP_OUTPUT_PREFILL=0 (never; measurements) or 1 (whenever the output may be
/// solved in, GPU or not: tests).
enum class prefill_mode { never, while_gpu_starts, always };
[[nodiscard]] prefill_mode prefill_setting();

} // namespace apsp::cli
