#pragma once
// Checkpoint and resume of one process's values, the same for every solve that saves between
// rounds: a solve in one process (the cpu back end, the cuda back end's checkpointed rounds),
// whose values are the whole matrix as the 1 x 1 grid's only tiles, and each rank of a
// distributed solve, whose values are its own tiles. The round hooks load a resumed state and
// save new ones; the first process's clock decides when, and it writes the manifest once
// every process has saved.

#include <cstdint>
#include <optional>

#include "apsp/options.hpp"
#include "core/backend.hpp"
#include "core/checkpoint.hpp"
#include "core/round_control.hpp"

namespace apsp::detail {

/// Whether the options ask for checkpoints (saving or resuming).
[[nodiscard]] inline bool wants_checkpoints(const solve_options& o) {
  return !o.checkpoint_dir.empty() || !o.resume_dir.empty();
}

/// Whether a solve's values are filled from the edges where the solve starts: not when they
/// are resumed from a checkpoint (loaded instead) nor when the back end builds them from the
/// edges (on a GPU).
[[nodiscard]] inline bool fills_from_edges(const solve_options& o, bool built_by_backend) {
  return !built_by_backend && o.resume_dir.empty();
}

class process_checkpoints {
public:
  /// For one process's values, d (d_bytes) and via (via_bytes, or null), of a solve identified
  /// by `id` in `rounds` rounds, saved as process `rank` of id's grid: with o.resume_dir, loads
  /// the saved values and sets hooks.first_round; with o.checkpoint_dir, hooks save into it.
  process_checkpoints(const solve_options& o, const checkpoint_identity& id, int rank, void* d,
                      std::uint64_t d_bytes, std::int32_t* via, std::uint64_t via_bytes,
                      std::int64_t rounds)
      : rank_(rank), d_(d), via_(via), d_bytes_(d_bytes), via_bytes_(via_bytes) {
    if (id.n == 0)
      return;
    if (!o.resume_dir.empty()) {
      hooks.first_round = checkpoint_store::find(o.resume_dir, id);
      checkpoint_store::load(o.resume_dir, id, rank_, hooks.first_round, d_, d_bytes_, via_,
                             via_bytes_);
    }
    if (o.checkpoint_dir.empty())
      return;
    store_.emplace(o.checkpoint_dir, id, rank_, o.checkpoint_every_seconds,
                   o.checkpoint_dir == o.resume_dir ? hooks.first_round : 0);
    // Only the first process's clock decides (round_control::check ORs every process's bits).
    hooks.save_due = [this] { return rank_ == 0 && store_->due(); };
    hooks.save = [this](std::int64_t done) {
      store_->save(done, d_, d_bytes_, via_, via_bytes_);
    };
    hooks.commit = [this, rounds](std::int64_t done) {
      if (rank_ == 0)
        store_->commit(done, rounds);
    };
  }

  /// A solve in one process: the n x n matrix d (and via, or null) solved in `rounds` rounds of
  /// tile edge `block`, identified by the run context's input hash.
  template <class T>
  process_checkpoints(const run_context& ctx, std::int64_t n, std::int64_t block, T* d,
                      std::int32_t* via, std::int64_t rounds)
      : process_checkpoints(ctx.options(), identity(ctx, n, block, via != nullptr), 0, d,
                            cells(n) * sizeof(T), via, cells(n) * 4, rounds) {}

  // The hooks point at this object.
  process_checkpoints(const process_checkpoints&) = delete;
  process_checkpoints& operator=(const process_checkpoints&) = delete;

  round_hooks hooks;

private:
  static std::uint64_t cells(std::int64_t n) {
    return static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n);
  }
  static checkpoint_identity identity(const run_context& ctx, std::int64_t n, std::int64_t block,
                                      bool paths) {
    checkpoint_identity id;
    id.n = n;
    id.type = ctx.options().type;
    id.paths = paths;
    id.block = block;
    id.input_hash = ctx.input_hash();
    return id;
  }

  int rank_;
  void* d_;
  std::int32_t* via_;
  std::uint64_t d_bytes_;
  std::uint64_t via_bytes_;
  std::optional<checkpoint_store> store_;
};

} // namespace apsp::detail
