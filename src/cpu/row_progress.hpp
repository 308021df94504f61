#pragma once
// Progress and cancel for rows made by several threads without a barrier (Dijkstra's and
// PHAST's): on a shared machine a thread that waits at one for a descheduled peer every
// millisecond loses most of its time. Threads take sources from one counter; the calling thread
// (OpenMP's thread 0) reports progress as rows complete, and a cancel (ctx.round_done throwing)
// stops everyone at their next source.

#include <atomic>
#include <cstdint>
#include <exception>

#include "core/backend.hpp"

namespace apsp::cpu {

class row_progress {
public:
  /// `count` rows, a round every `per_round` (at least 1) of them; ctx reports them as sources.
  row_progress(std::int64_t count, std::int64_t per_round, detail::run_context& ctx)
      : per_round_(per_round < 1 ? 1 : per_round), rounds_((count + per_round_ - 1) / per_round_) {
    ctx.count_sources(count, per_round_);
  }

  /// The next source index to make, or -1 when all are taken or the run was cancelled.
  [[nodiscard]] std::int64_t take(std::int64_t count, std::int64_t step = 1) noexcept {
    const std::int64_t i = next_.fetch_add(step, std::memory_order_relaxed);
    return i >= count || stop_.load(std::memory_order_relaxed) ? -1 : i;
  }

  /// `rows` more rows are done; on the reporter, every round they complete, in order (a cancel
  /// is kept for finish() and stops the others).
  void done(std::int64_t rows, bool reporter, detail::run_context& ctx) {
    const std::int64_t total = finished_.fetch_add(rows, std::memory_order_relaxed) + rows;
    if (!reporter)
      return;
    try {
      while (reported_ + 1 < rounds_ && (reported_ + 1) * per_round_ <= total)
        ctx.round_done(++reported_, rounds_);
    } catch (...) {
      failure_ = std::current_exception();
      stop_.store(true, std::memory_order_relaxed);
    }
  }

  /// After the threads: rethrows a cancel, else reports the rounds left.
  void finish(detail::run_context& ctx) {
    if (failure_)
      std::rethrow_exception(failure_);
    while (reported_ < rounds_)
      ctx.round_done(++reported_, rounds_);
  }

private:
  std::int64_t per_round_;
  std::int64_t rounds_;
  std::atomic<std::int64_t> next_{0};
  std::atomic<std::int64_t> finished_{0};
  std::atomic<bool> stop_{false};
  std::exception_ptr failure_;
  std::int64_t reported_ = 0; // the reporter's only
};

} // namespace apsp::cpu
