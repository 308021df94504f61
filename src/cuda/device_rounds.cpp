// The executor of one device's in-core rounds (see device_rounds.hpp).

#include "cuda/device_rounds.hpp"

#include <cstdlib>
#include <optional>

#include "cuda/cuda_check.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/resources.hpp"

namespace apsp::cuda {
namespace {

using apsp::detail::round_control;
using apsp::detail::update_part;

/// The steps of core/round_schedule.hpp for one device: every kernel on s_, but for the
/// look-ahead's part: round r's tiles of row and column r + 1, then round r + 1's pivot and
/// panels, run on ahead_ while the rest of round r's update runs on s_, joined by events.
class whole_matrix_executor {
public:
  whole_matrix_executor(round_kernels& k, cudaStream_t s, round_control& control,
                        std::int64_t first_round, bool lookahead,
                        const std::function<void()>& current)
      : k_(k), s_(s), control_(control), first_(first_round), current_(current) {
    // Made before the rounds, so no driver call waits for it inside them. High priority: the
    // look-ahead's short kernels start as soon as an SM is free, not after the queued update.
    if (lookahead)
      ahead_.emplace(stream::highest_priority);
  }

  void pivot(std::int64_t r) {
    nvtx_range range("apsp::cuda phase 1");
    control_.guarded([&] { k_.pivot(r, on(r)); });
  }
  void share_pivot(std::int64_t) {}
  void panels(std::int64_t r) {
    nvtx_range range("apsp::cuda phase 2");
    control_.guarded([&] {
      k_.panels(r, on(r));
      if (r == ahead_round_)
        panels_done_.record(ahead_->get());
    });
  }
  void start_share(std::int64_t) {}
  void finish_share(std::int64_t r) {
    if (r != ahead_round_)
      return;
    ahead_round_ = -1;
    control_.guarded([&] { APSP_CUDA_TRY(cudaStreamWaitEvent(s_, panels_done_.get(), 0)); });
  }
  std::uint32_t check(std::int64_t) { return control_.check(); }
  void update(std::int64_t r, update_part part) {
    nvtx_range range("apsp::cuda phase 3");
    control_.guarded([&] {
      if (part != update_part::next_lines) {
        k_.update(r, part, s_);
        return;
      }
      // The tiles of row and column r + 1 at high priority on ahead_, beside the rest of round
      // r on s_ (disjoint tiles, the same panels), once s_ holds round r's panels and round
      // r - 1's tiles; round r + 1's pivot and panels follow them there.
      ready_.record(s_);
      APSP_CUDA_TRY(cudaStreamWaitEvent(ahead_->get(), ready_.get(), 0));
      k_.update(r, part, ahead_->get());
      ahead_round_ = r + 1;
    });
  }
  bool round_end(std::int64_t r, std::uint32_t decision) {
    control_.guarded([&] {
      round_done_[r & 1].record(s_);
      if (r > first_)
        round_done_[(r - 1) & 1].synchronize();
    });
    return control_.round_end(r, k_.rounds(), decision, [&] {
      APSP_CUDA_TRY(cudaStreamSynchronize(s_));
      k_.settle(s_); // ahead of current_'s reads on s_
      current_();
    });
  }

private:
  [[nodiscard]] cudaStream_t on(std::int64_t r) const {
    return r == ahead_round_ ? ahead_->get() : s_;
  }

  round_kernels& k_;
  cudaStream_t s_;
  round_control& control_;
  std::int64_t first_;
  const std::function<void()>& current_;
  std::optional<stream> ahead_;
  std::int64_t ahead_round_ = -1;       ///< the round whose pivot and panels run on ahead_, or -1
  event ready_{cudaEventDisableTiming}; ///< s_ has what round r's next lines need
  event panels_done_{cudaEventDisableTiming};
  event round_done_[2] = {event(cudaEventDisableTiming | cudaEventBlockingSync),
                          event(cudaEventDisableTiming | cudaEventBlockingSync)};
};

} // namespace

void run_device_rounds(round_kernels& k, cudaStream_t s, apsp::detail::run_context& ctx,
                       const apsp::detail::round_hooks& hooks,
                       const std::function<void()>& current) {
  nvtx_range range("apsp::cuda rounds");
  apsp::detail::grid_comm one_process;
  round_control control(one_process, ctx, hooks);
  {
    // APSP_CUDA_LOOKAHEAD=0 turns look-ahead off (measurements).
    const bool lookahead = hooks.lookahead && k.splits_update() && k.rounds() >= 3 &&
                           ctx.tuning().cuda_lookahead.value_or(true);
    whole_matrix_executor e(k, s, control, hooks.first_round, lookahead, current);
    apsp::detail::run_rounds(e, hooks.first_round, k.rounds(), lookahead);
    // A failed or cancelled solve waits here for what it enqueued (the executor's streams and
    // events go with it); a finished one leaves its last rounds, and what settles them, running
    // for the caller.
    if (control.failed())
      control.guarded([&] { APSP_CUDA_TRY(cudaStreamSynchronize(s)); });
    else
      control.guarded([&] { k.settle(s); });
  }
  control.finish();
}

} // namespace apsp::cuda
