#pragma once
// Wall-clock seconds for the stage timings the CLI reports, and APSP_TRACE=1 timestamps
// (seconds since the process started) on stderr for finding where a whole run's time goes.

#include <chrono>

namespace apsp::cli {

class stopwatch {
public:
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// With APSP_TRACE set (to anything but 0), prints "apsp: trace: SECONDS WHAT" to stderr, where
/// SECONDS counts from the process's start (read from /proc/self/stat where available).
void trace(const char* what);

/// trace(), with the wall clock (CLOCK_REALTIME, seconds since the epoch) appended, so that a
/// caller timing the process (bash's EPOCHREALTIME) can tell how long its exit took.
void trace_with_realtime(const char* what);

} // namespace apsp::cli
