#pragma once
/// @file options.hpp
/// What to solve and how.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "apsp/types.hpp"

namespace apsp {

/// Passed to the progress callback after each pivot round (and once as each stage before the
/// rounds starts).
struct progress_info {
  std::int64_t rounds_done = 0;
  std::int64_t rounds_total = 0;
  double elapsed_seconds = 0;
  /// n^3 * rounds_done / rounds_total / elapsed_seconds: Floyd-Warshall's updates (for the
  /// engines that make rows, the rate Floyd-Warshall would need to keep up; their own is
  /// sources_per_second).
  double updates_per_second = 0;
  /// Engines that make rows one source at a time (Johnson, PHAST, Dijkstra blocks): sources
  /// done of sources_total (their rounds are batches of sources), and their rate; 0 otherwise.
  std::int64_t sources_done = 0;
  std::int64_t sources_total = 0;
  double sources_per_second = 0;
  /// Non-empty on a call that announces a stage before the counted work, e.g. "building the
  /// contraction hierarchy" (rounds_done is then 0); empty on the rounds' calls.
  std::string stage;
};

/// Called from the solving thread; return false to cancel the solve: it stops at the end of the
/// next round (where no later round's work has started, so a checkpoint saved there is exact),
/// is not called again, and throws cancelled_error. Keep it cheap: it runs once per round.
using progress_callback = std::function<bool(const progress_info&)>;

/// Called from the solving thread with a sentence about something that went wrong without
/// stopping the solve (a checkpoint that could not be saved: the solve goes on, and the last
/// complete checkpoint stays). Unset: the sentence goes to stderr, as "apsp: warning: ...".
using warning_callback = std::function<void(const std::string&)>;

/// 16-bit packed arithmetic (two lanes per 32-bit register), on back ends that have it (cuda).
/// The result keeps `type` (int32); only the arithmetic narrows.
enum class narrow_mode {
  off,       ///< never
  when_safe, ///< when provably exact: non-negative integer weights, path lengths < 2^14-1
  required   ///< always; the solve is refused when that is not provably exact
};

struct solve_options {
  backend_kind backend = backend_kind::automatic;
  /// Floyd-Warshall, Johnson (cpu back end only), or chosen per graph by the cost model of
  /// docs/sparse.md. Checkpoints and resumes are Floyd-Warshall's, so `automatic` keeps it then.
  algorithm_kind algorithm = algorithm_kind::automatic;
  dtype type = dtype::int32;
  /// Tile edge (Floyd-Warshall), or sources per progress step (Johnson); 0 lets the back end
  /// choose.
  std::int64_t block = 0;
  /// Also compute the path matrix.
  bool paths = false;
  progress_callback progress;
  /// CPU threads of the whole solve (input checks and fills included); 0 = all hardware threads.
  /// (result::predecessors() and other calls after the solve use OpenMP's default.)
  int threads = 0;
  /// CUDA devices to use; empty = the back end's default (device 0).
  std::vector<int> devices;
  /// Cap on device memory used in bytes; 0 = no cap beyond what is free.
  std::uint64_t device_memory_limit = 0;
  /// Host memory a plan may count on, in bytes; 0 = the machine's physical memory. A table
  /// (plan_request::block) whose rows x cols values and working memory exceed it is planned in
  /// tiles of sources (plan::tiled).
  std::uint64_t host_memory_limit = 0;
  /// Packed 16-bit arithmetic for int32 solves (the CLI's --dtype auto / int16).
  narrow_mode narrow = narrow_mode::off;
  /// When set, the distance matrix lives in this file, memory-mapped, instead of in RAM, so
  /// matrices larger than RAM can be solved: the file is created (or overwritten) with
  /// `distances_file_offset` bytes left for a header, then n*n row-major values. An existing
  /// file of exactly that size is written over in place (its header bytes are left as they
  /// are, and its pages, if already in memory, are used as they are); any other is truncated
  /// first. The result's distances point into the mapping. The path matrix stays in RAM unless
  /// paths_file is set. The file is the solve's working memory: after a failure or a cancel it
  /// holds unfinished values (the CLI works in a temporary name and renames it at the end).
  std::filesystem::path distances_file;
  /// Bytes before the values (a multiple of the element size; 64 keeps vectors aligned).
  std::uint64_t distances_file_offset = 0;
  /// The same for the path matrix (with `paths`; without it, invalid_argument_error): n*n int32
  /// values after `paths_file_offset` bytes, memory-mapped; the result's via() points into the
  /// mapping. Another file than distances_file (the same one: invalid_argument_error).
  std::filesystem::path paths_file;
  /// Bytes before the path matrix's values (a multiple of 4).
  std::uint64_t paths_file_offset = 0;
  /// When set, the state after a round is saved here (each process its own tiles, then a
  /// manifest naming the round, the options and a hash of the input), atomically: at most every
  /// `checkpoint_every_seconds`, and when the solve is cancelled. The directory is created by
  /// the first save (a solve that saves nothing leaves none); a save that fails is reported
  /// through `warning` and the solve goes on.
  /// Back ends: cpu, cuda on one device in core, and the distributed solver's ranks.
  std::filesystem::path checkpoint_dir;
  /// Seconds between checkpoints (0: after every round).
  double checkpoint_every_seconds = 600;
  /// Where a save that failed (a full disk, a directory removed) is reported; see
  /// warning_callback.
  warning_callback warning;
  /// When set, continue from the checkpoint in this directory instead of from the start. It must
  /// have been saved for the same input and options; the result is the same, byte for byte, as
  /// a solve that was never interrupted.
  std::filesystem::path resume_dir;
};

/// Whether `solve_options::devices` may name one device more than once: only under the
/// developer knob APSP_CUDA_FORCE_MULTI_GPU (docs/tuning.md), which runs the multi-GPU driver
/// with each listing as a device of its own, so that its exchange runs on one GPU. Without it
/// the cuda back end refuses such a list (invalid_argument_error).
[[nodiscard]] bool devices_may_repeat();

} // namespace apsp
