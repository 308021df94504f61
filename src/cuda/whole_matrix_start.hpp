#pragma once
// The start that the cuda drivers holding the whole host matrix in core share (one GPU in
// cuda_backend.cpp, a split over several in multi_gpu.cpp): the checkpoints the options ask
// for, and where the initial matrix comes from.

#include <cstdint>
#include <optional>

#include "apsp/graph.hpp"
#include "core/backend.hpp"
#include "core/process_checkpoints.hpp"
#include "core/round_control.hpp"

namespace apsp::cuda {

/// Checkpoints save and load the whole host matrix at round boundaries (process_checkpoints,
/// made only when the options ask for them: a resumed solve loads the saved matrices here);
/// the initial matrix is built on the devices from the edges the core handed over
/// (run_context::initial_edges), unless the solve resumed, whose loaded matrix is uploaded.
class whole_matrix_start {
public:
  /// For the n x n matrix d (and via, or null), `rounds` rounds of tile edge `block`.
  template <class T>
  whole_matrix_start(const apsp::detail::run_context& ctx, std::int64_t n, std::int64_t block, T* d,
                     std::int32_t* via, std::int64_t rounds) {
    if (apsp::detail::wants_checkpoints(ctx.options()))
      saved.emplace(ctx, n, block, d, via, rounds);
    initial_ = first_round() == 0 ? ctx.initial_edges() : nullptr;
  }

  /// The first round to run: 0, or the rounds a resumed checkpoint holds.
  [[nodiscard]] std::int64_t first_round() const noexcept {
    return saved ? saved->hooks.first_round : 0;
  }
  /// The edges to build the initial matrix from, or null (a filled or resumed host matrix).
  [[nodiscard]] const graph* initial_edges() const noexcept { return initial_; }

  std::optional<apsp::detail::process_checkpoints> saved;

private:
  const graph* initial_ = nullptr;
};

} // namespace apsp::cuda
