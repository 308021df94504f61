#pragma once
// The barrier of the cpu executor's thread team (blocked_fw.cpp). A round of a small matrix
// lasts well under a millisecond and meets the barrier several times, so how fast the waiting
// threads wake matters: they spin (with a pause) for a while, and only then sleep in the kernel
// (std::atomic::wait, a futex). Where the team has more threads than the machine has cores, for
// MPI ranks whose threads together outnumber the CPUs they share (blocked_config::threads_fit),
// or with APSP_CPU_SPIN=0, they sleep at once: a spinning
// thread would take the core of the one the others wait for.

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "core/tuning.hpp"

namespace apsp::detail::cpu {

class team_barrier {
public:
  /// A barrier for `count` threads that spins up to `spins` times before sleeping.
  team_barrier(int count, int spins) : count_(count), left_(count), spins_(spins) {}

  /// The spin count for a team of `threads`: APSP_CPU_SPIN when set, else 0 when the team
  /// outnumbers the hardware threads, else `default_spins` (a short wait, whose length depends
  /// on the CPU's pause: spinning that long made the rounds of small solves faster than
  /// sleeping at once; measured: docs/dev/benchmark-log.md, 'Figures from code comments').
  static int spins_for(int threads) {
    if (const auto spins = current_tuning().cpu_spin)
      return *spins;
    const unsigned hw = std::thread::hardware_concurrency();
    return hw != 0 && static_cast<unsigned>(threads) > hw ? 0 : default_spins;
  }

  void arrive_and_wait() {
    const std::uint32_t phase = phase_.load(std::memory_order_acquire);
    if (left_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      left_.store(count_, std::memory_order_relaxed);
      phase_.store(phase + 1, std::memory_order_release);
      phase_.notify_all();
      return;
    }
    for (int i = 0; i < spins_; ++i) {
      if (phase_.load(std::memory_order_acquire) != phase)
        return;
      pause();
    }
    while (phase_.load(std::memory_order_acquire) == phase)
      phase_.wait(phase, std::memory_order_acquire);
  }

private:
  static constexpr int default_spins = 20000;

  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
  }

  const int count_;
  // The arrivals' counter and the phase the waiting threads poll live on cache lines of their
  // own: on one line, every arrival's read-modify-write would take it away from all the pollers.
  alignas(64) std::atomic<int> left_;
  alignas(64) std::atomic<std::uint32_t> phase_{0};
  alignas(64) const int spins_;
};

} // namespace apsp::detail::cpu
