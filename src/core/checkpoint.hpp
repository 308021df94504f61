#pragma once
// Checkpoints of a blocked Floyd-Warshall solve at a round boundary: each process saves its
// tiles to a file of its own, then the first process writes a manifest naming the round, the
// options and a hash of the input. Every file is written to a temporary name, flushed and
// renamed, and the files of the previous checkpoint are kept until a newer one is complete, so
// a process killed at any moment (SIGKILL included) leaves a checkpoint that can be resumed.
//
// DIR/manifest                       text, "key value" lines (see checkpoint.cpp)
// DIR/rank-RRRRR-of-PPPPP.rNNNNNNNN   header, then the distance values, then the via values

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

#include "apsp/graph.hpp"
#include "apsp/matrix.hpp"
#include "apsp/types.hpp"

namespace apsp::detail {

/// What a checkpoint must agree with to be resumed.
struct checkpoint_identity {
  std::int64_t n = 0;
  dtype type = dtype::int32;
  bool paths = false;
  std::int64_t block = 0;
  int rows = 1; ///< process grid
  int cols = 1;
  std::uint64_t input_hash = 0;
};

/// A 64-bit hash of the graph (n and every edge, in order), computed in parallel.
[[nodiscard]] std::uint64_t hash_graph(const graph& g);
/// The same for a dense initial matrix.
[[nodiscard]] std::uint64_t hash_matrix(const any_matrix& m);

class checkpoint_store {
public:
  /// Saves go to `dir` (created by the first save); `resumed_round` is the round of the checkpoint this solve
  /// resumed from (its files are kept until a newer checkpoint is complete), or 0.
  checkpoint_store(std::filesystem::path dir, checkpoint_identity id, int rank,
                   double every_seconds, std::int64_t resumed_round = 0);
  /// Whether `every_seconds` have passed since the start or the last save.
  [[nodiscard]] bool due() const;
  /// This process's values after `rounds_done` rounds.
  void save(std::int64_t rounds_done, const void* d, std::uint64_t d_bytes, const std::int32_t* via,
            std::uint64_t via_bytes);
  /// On the first process, once every process has saved: the manifest names the new round.
  void commit(std::int64_t rounds_done, std::int64_t rounds_total) const;

  /// Reads the manifest in `dir`, checks it against `id` (invalid_argument_error naming what
  /// differs) and returns the rounds done.
  [[nodiscard]] static std::int64_t find(const std::filesystem::path& dir,
                                         const checkpoint_identity& id);
  /// The block (tile edge) of the checkpoint in `dir`, 0 when there is none (no readable
  /// manifest): a solve whose block depends on the machine (the cuda back end out of core)
  /// resumes with the saved one where it can.
  [[nodiscard]] static std::int64_t saved_block(const std::filesystem::path& dir);
  /// Loads this process's values saved after `rounds_done` rounds.
  static void load(const std::filesystem::path& dir, const checkpoint_identity& id, int rank,
                   std::int64_t rounds_done, void* d, std::uint64_t d_bytes, std::int32_t* via,
                   std::uint64_t via_bytes);

private:
  void save_files(std::int64_t rounds_done, const void* d, std::uint64_t d_bytes,
                  const std::int32_t* via, std::uint64_t via_bytes);

  std::filesystem::path dir_;
  checkpoint_identity id_;
  int rank_;
  std::chrono::duration<double> every_;
  std::chrono::steady_clock::time_point last_;
  std::int64_t previous_; ///< round of the last complete save (its files are kept)
  bool made_dir_ = false; ///< the first save created dir_
};

/// Removes the checkpoint files in `dir` (the manifest and rank files apsp writes, by their
/// exact names and the manifest's first line; nothing else), and `dir` when that leaves it
/// empty.
void remove_checkpoint_files(const std::filesystem::path& dir);

} // namespace apsp::detail
