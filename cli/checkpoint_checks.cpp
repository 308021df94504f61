#include "checkpoint_checks.hpp"

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "input.hpp"
#include "solver.hpp"

namespace apsp::cli {
namespace {

std::string engine_name(algorithm_kind a, backend_kind b) {
  const std::string on = " on " + std::string(to_string(b));
  switch (a) {
  case algorithm_kind::johnson:
    return "Johnson's algorithm" + on;
  case algorithm_kind::supernodal:
    return "the supernodal Floyd-Warshall" + on;
  default:
    return "Floyd-Warshall" + on;
  }
}

std::string about(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "~%.3g s", seconds);
  return text;
}

/// Bytes of the apsp checkpoint files already in `dir` (a resume saving into its own directory
/// keeps them until its first save is complete).
std::uint64_t bytes_in(const std::filesystem::path& dir) {
  std::error_code ec;
  std::uint64_t total = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name == "manifest" || name.rfind("rank-", 0) == 0)
      total += entry.file_size(ec);
  }
  return total;
}

} // namespace

void announce_checkpoint_switch(const plan& p) {
  if (!p.checkpoint_displaced)
    return;
  const plan::displaced_engine& other = *p.checkpoint_displaced;
  print_warning("--checkpoint: auto runs " + engine_name(p.algorithm, p.backend) +
                " (estimated " + about(other.fw_seconds) +
                "), whose rounds a checkpoint holds, instead of " +
                engine_name(other.algorithm, other.backend) + " (estimated " +
                about(other.seconds) + "), which saves no checkpoints; without --checkpoint, " +
                "or with --algorithm " + std::string(to_string(other.algorithm)) +
                " and no --checkpoint, the faster engine runs");
}

void check_checkpoint_space(const plan& p, const solve_options& options) {
  const std::uint64_t one = checkpoint_bytes(p);
  if (one == 0 || options.checkpoint_dir.empty())
    return;
  namespace fs = std::filesystem;
  std::error_code ec;
  // The directory is made at the first save: its nearest existing ancestor's file system.
  fs::path existing = fs::absolute(options.checkpoint_dir, ec).lexically_normal();
  while (!fs::exists(existing, ec) && existing.has_parent_path() &&
         existing.parent_path() != existing)
    existing = existing.parent_path();
  const fs::space_info space = fs::space(existing, ec);
  if (ec)
    return; // a file system that does not say: the saves report what fails
  const std::uint64_t kept = bytes_in(options.checkpoint_dir);
  const std::string dir = options.checkpoint_dir.string();
  const std::string what = "a checkpoint of this solve takes " + format_bytes(one) + " (n = " +
                           std::to_string(p.n) + ", " + std::string(to_string(p.type)) +
                           " distances" + (p.paths ? " and int32 paths" : "") + ")";
  if (space.available < one) {
    throw out_of_memory_error("--checkpoint " + dir + ": " + what + ", but its file system (" +
                              existing.string() + ") has " + format_bytes(space.available) +
                              " free; free some space, give --checkpoint a directory on a "
                              "larger file system, or solve without --checkpoint");
  }
  // Each save is written beside the last complete one, which goes once the new one is whole.
  if (kept < one && space.available < 2 * one - kept) {
    print_warning("--checkpoint " + dir + ": " + what + ", and its file system has " +
                  format_bytes(space.available) +
                  " free: the first save fits, but a later one, written beside it, may not "
                  "(a failed save is reported and the solve goes on)");
  }
}

} // namespace apsp::cli
