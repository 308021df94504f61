#pragma once
// Checkpoint and resume for a solve in one process (the cpu back end, and the cuda back end's
// checkpointed rounds): the round hooks that load a resumed state and save new ones, over the
// whole matrix as the 1 x 1 grid's only tiles.

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

class process_checkpoints {
public:
  /// For the n x n matrix d (and via, or null) solved in `rounds` rounds of tile edge `block`:
  /// with a resume_dir, loads the saved values and sets hooks.first_round; with a
  /// checkpoint_dir, hooks save into it.
  template <class T>
  process_checkpoints(const run_context& ctx, std::int64_t n, std::int64_t block, T* d,
                      std::int32_t* via, std::int64_t rounds)
      : d_(d), via_(via), d_bytes_(cells(n) * sizeof(T)), via_bytes_(cells(n) * 4) {
    const solve_options& o = ctx.options();
    checkpoint_identity id;
    id.n = n;
    id.type = o.type;
    id.paths = via != nullptr;
    id.block = block;
    id.input_hash = ctx.input_hash();
    if (n == 0)
      return;
    if (!o.resume_dir.empty()) {
      hooks.first_round = checkpoint_store::find(o.resume_dir, id);
      checkpoint_store::load(o.resume_dir, id, 0, hooks.first_round, d_, d_bytes_, via_,
                             via_bytes_);
    }
    if (o.checkpoint_dir.empty())
      return;
    store_.emplace(o.checkpoint_dir, id, 0, o.checkpoint_every_seconds,
                   o.checkpoint_dir == o.resume_dir ? hooks.first_round : 0);
    hooks.save_due = [this] { return store_->due(); };
    hooks.save = [this](std::int64_t done) {
      store_->save(done, d_, d_bytes_, via_, via_bytes_);
    };
    hooks.commit = [this, rounds](std::int64_t done) { store_->commit(done, rounds); };
  }
  // The hooks point at this object.
  process_checkpoints(const process_checkpoints&) = delete;
  process_checkpoints& operator=(const process_checkpoints&) = delete;

  round_hooks hooks;

private:
  static std::uint64_t cells(std::int64_t n) {
    return static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n);
  }
  void* d_;
  std::int32_t* via_;
  std::uint64_t d_bytes_;
  std::uint64_t via_bytes_;
  std::optional<checkpoint_store> store_;
};

} // namespace apsp::detail
