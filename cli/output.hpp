#pragma once
// Output files and how numbers are printed.

#include <cstdint>
#include <filesystem>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "apsp/io.hpp"
#include "apsp/matrix.hpp"
#include "apsp/sources.hpp"
#include "apsp/types.hpp"

namespace apsp::cli {

/// The format for a distance-matrix output: --output-format when given, else the suffix
/// (.npy, .bin/.course, .csv). Throws invalid_argument_error (a usage error) otherwise.
[[nodiscard]] io::format matrix_output_format(const std::string& path,
                                              const std::string& explicit_format);
/// The format for a graph output (`convert`): --output-format or the suffix.
[[nodiscard]] io::format graph_output_format(const std::string& path,
                                             const std::string& explicit_format);

/// Fails early (invalid_argument_error, exit 2) when `path` cannot be created: its directory is
/// missing, it names a directory, or no file can be created in its directory (permission, a
/// read-only file system). Run before a long solve, not after it.
void check_writable(const std::string& path);
/// The same for a checkpoint directory (created at the first save when missing): it, or its
/// nearest existing ancestor, must be a directory in which files can be created.
void check_checkpoint_dir(const std::string& dir);

/// Writes `text` to `path` (a partial file): a full disk, or a file too large, is
/// out_of_memory_error (exit 5, as for every output) with the bytes to write and the bytes
/// free; another failure is io_error.
void write_text_file(const std::filesystem::path& path, const std::string& text);
/// The path matrix is written as .npy whatever the name says: a name with another suffix (which
/// `apsp path --via` would then read as that format) is refused with invalid_argument_error.
void check_paths_output(const std::string& paths);
/// Throws invalid_argument_error when the two output paths name one file (the same path
/// spelled two ways, or two links to one file).
void check_distinct_outputs(const std::string& distances, const std::string& paths);

/// Partial files (first) and the targets they become (second).
using output_renames = std::vector<std::pair<std::filesystem::path, std::filesystem::path>>;
/// `text` with each partial file's name (path or file name) replaced by its target's.
[[nodiscard]] std::string with_targets(std::string text, const output_renames& renames);
/// Rethrows the apsp error being handled with with_targets() applied to its message, so that a
/// user reads the file they named; other exceptions go on unchanged.
[[noreturn]] void rethrow_naming(const output_renames& renames);

/// The outputs of one command. Each is written to a partial file beside its target, never over
/// it; commit() then refuses (cancelled_error) if a signal arrived, and otherwise renames every
/// partial file onto its target with the signals held off. So until commit() every target is as
/// it was before the command (a failure or a signal removes the partial files: the destructor),
/// and after it every target is new.
class output_files {
public:
  output_files() = default;
  output_files(const output_files&) = delete;
  output_files& operator=(const output_files&) = delete;
  ~output_files();

  /// A partial file for `target`: DIR/.apsp-partial-PID-K.NAME, hidden, and ending in the
  /// target's name so that its suffix (.gz: compress) still applies.
  [[nodiscard]] std::filesystem::path stage(const std::filesystem::path& target);
  /// `partial` (one named already, e.g. OUT.apsp-partial of a solve in place) becomes `target`.
  void stage(const std::filesystem::path& target, const std::filesystem::path& partial);
  /// Writes `target` through a partial file of its own: `write(partial)` fills it. An error it
  /// throws names `target`, not the hidden partial file.
  template <class Write> void write(const std::filesystem::path& target, Write&& write) {
    const std::filesystem::path partial = stage(target);
    try {
      write(partial);
    } catch (...) {
      rethrow_naming({{partial, target}});
    }
    written();
  }
  /// `partial` is not an output after all: it is removed, and commit() leaves it out.
  void discard(const std::filesystem::path& partial);
  /// The partial file of the latest output is complete (a test may pause here: see
  /// test_pause_after_output).
  void written();
  /// Renames the partial files onto their targets (cancelled_error, renaming nothing, when a
  /// signal arrived before); throws io_error when a rename fails.
  void commit();

private:
  struct staged {
    std::filesystem::path target;
    std::filesystem::path partial;
  };
  std::vector<staged> files_;
  int written_ = 0;
};

/// Creates `path` with `bytes` reserved and puts its pages in the page cache, as zeros, until
/// `stop` is requested. A file's pages enter the page cache one at a time (at a rate that more
/// threads do not raise; measured: docs/dev/benchmark-log.md, 'Figures from code comments'), so
/// `apsp solve` does this for a GPU solve's output while the GPU's context starts, and the
/// solve's own prefault then finds them there. Failures are left to the solve, which maps the
/// file itself.
void prefill_file(const std::filesystem::path& path, std::uint64_t bytes,
                  const std::stop_token& stop) noexcept;

/// d(i, j) as text: integers exactly, floats in their shortest round-trip form, "inf" when
/// unreachable.
[[nodiscard]] std::string distance_text(const any_matrix& d, std::int64_t i, std::int64_t j);
/// d(i, j) as JSON: an integer, a number, or null when unreachable.
[[nodiscard]] nlohmann::json distance_json(const any_matrix& d, std::int64_t i, std::int64_t j);
/// The same for value k of rows from solve_from_sources.
[[nodiscard]] std::string distance_text(const any_rows& rows, std::size_t k);
[[nodiscard]] nlohmann::json distance_json(const any_rows& rows, std::size_t k);

} // namespace apsp::cli
