#pragma once
// What happens between the rounds of the schedule (round_schedule.hpp), the same for every
// executor: all processes agree whether to go on, save a checkpoint or stop; progress is
// reported; a failure on one process stops all of them at a round boundary and reaches every
// one of them at the end, so that none writes output the others do not.

#include <cstdint>
#include <exception>
#include <functional>
#include <string>

#include "apsp/error.hpp"
#include "core/backend.hpp"
#include "core/round_schedule.hpp"

namespace apsp::detail {

/// Between rounds: resuming, look-ahead and checkpoints.
struct round_hooks {
  /// Rounds already done (a resumed solve); the via values are then taken as they are.
  std::int64_t first_round = 0;
  /// Compute round r + 1's pivot and panels before round r's bulk update (distributed only).
  bool lookahead = true;
  /// Asked on the first process after each round: is a checkpoint due? (may be empty)
  std::function<bool()> save_due;
  /// Saves this process's tiles after `rounds_done` rounds; empty = no checkpoints. A stop
  /// (cancel) also saves when it is set.
  std::function<void(std::int64_t rounds_done)> save;
  /// Called on every process once all of them saved (the first process writes the manifest).
  std::function<void(std::int64_t rounds_done)> commit;
};

/// The executors' check() and round_end() decisions. Called from one thread per process.
class round_control {
public:
  round_control(grid_comm& comm, run_context& ctx, const round_hooks& hooks)
      : comm_(comm), ctx_(ctx), hooks_(hooks) {}

  /// Runs f; a failure is kept (the next check stops every process) instead of thrown.
  template <class F> void guarded(F&& f) {
    try {
      f();
    } catch (...) {
      keep_failure();
    }
  }
  void keep_failure() {
    if (!failure_)
      failure_ = std::current_exception();
  }
  [[nodiscard]] bool failed() const noexcept { return static_cast<bool>(failure_); }

  /// After round r's broadcasts: go on, save, or stop, the same on every process.
  std::uint32_t check() {
    std::uint32_t bits = failure_ ? stop_now : go_on;
    if (hooks_.save && hooks_.save_due) {
      try {
        if (hooks_.save_due())
          bits |= save_now;
      } catch (...) {
        keep_failure();
        bits |= stop_now;
      }
    }
    std::uint32_t decision = comm_.all_or(bits);
    if ((decision & stop_now) != 0 && hooks_.save)
      decision |= save_now;
    return decision;
  }

  /// Progress after round r of `rounds`, then the checkpoint and stop that check() decided;
  /// `current` makes this process's host tiles current before a save. False: stop.
  template <class Current>
  bool round_end(std::int64_t r, std::int64_t rounds, std::uint32_t decision, Current&& current) {
    if (!failure_) // once a cancel or failure is known, no more progress calls
      guarded([&] { ctx_.round_done(r + 1, rounds); });
    // A stop learnt here takes effect at the next check(), as it does among several processes:
    // that round runs without look-ahead, so what is saved is exactly "rounds done". This round
    // may have run ahead (round r + 1's pivot and panels are in the tiles already), and a
    // checkpoint of that state would resume to other pivots in the path matrix. The last round
    // never runs ahead: a stop there is taken at once.
    if (failure_ && !comm_.distributed() && r + 1 >= rounds)
      decision |= stop_now | (hooks_.save ? save_now : go_on);
    if ((decision & save_now) != 0) {
      std::uint32_t made_current = go_on;
      try {
        current(); // the solve's own tiles: a failure here is the solve's, and stops it
      } catch (...) {
        failure_ = std::current_exception();
        made_current = stop_now;
      }
      // A save that fails (a full disk) is reported and the solve goes on: the last complete
      // checkpoint stays as it was, and a cancel stays a cancel.
      std::uint32_t saved = made_current;
      if (saved == go_on && !saved_step("save", r + 1, [&] { hooks_.save(r + 1); }))
        saved = stop_now;
      // The manifest names the round only once every process has saved it.
      if (comm_.all_or(saved) == go_on && hooks_.commit)
        (void)saved_step("commit", r + 1, [&] { hooks_.commit(r + 1); });
      decision |= comm_.all_or(made_current);
    }
    if ((decision & stop_now) != 0)
      note_stop(r + 1, rounds);
    return (decision & stop_now) == 0;
  }

  /// After the last round: every process learns of a failure anywhere and throws it (or a
  /// cancel when the failure was elsewhere).
  void finish() {
    if (comm_.all_or(failure_ ? stop_now : go_on) == go_on)
      return;
    if (failure_)
      std::rethrow_exception(failure_);
    throw cancelled_error("another process stopped the solve");
  }

private:
  /// Runs one step of a save: true when it worked; false after reporting its failure as a
  /// warning (with the rounds it was saving), which stops nothing. Of failures in a row (a disk
  /// that stays full) only the first is reported.
  template <class F> bool saved_step(const char* step, std::int64_t done, F&& f) {
    std::string why;
    try {
      f();
      save_failing_ = false;
      return true;
    } catch (const std::exception& e) {
      why = std::string(": ") + e.what();
    } catch (...) {
    }
    if (!save_failing_) {
      ctx_.warn("the checkpoint after round " + std::to_string(done) + " was not saved (" +
                step + why + "); the solve goes on, the last complete checkpoint (if any) "
                "stays, and later saves are tried (another failure is reported after one works)");
    }
    save_failing_ = true;
    return false;
  }

  /// A cancel took effect after `done` rounds (one more than when the callback said stop, when
  /// that round was under way): its message says so, as the checkpoint holds `done` rounds.
  void note_stop(std::int64_t done, std::int64_t rounds) {
    if (!failure_)
      return;
    try {
      std::rethrow_exception(failure_);
    } catch (const cancelled_error& e) {
      failure_ = std::make_exception_ptr(
          cancelled_error(std::string(e.what()) + "; the solve stopped after round " +
                          std::to_string(done) + " of " + std::to_string(rounds)));
    } catch (...) {
    }
  }

  grid_comm& comm_;
  run_context& ctx_;
  const round_hooks& hooks_;
  std::exception_ptr failure_;
  bool save_failing_ = false; ///< the last save failed (and was reported)
};

} // namespace apsp::detail
