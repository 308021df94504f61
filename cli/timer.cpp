#include "timer.hpp"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "process_knobs.hpp"

namespace apsp::cli {
namespace {

bool trace_enabled() {
  static const bool on = knobs().trace;
  return on;
}

double monotonic_now() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// The process's start on CLOCK_MONOTONIC's time base (Linux: field 22 of /proc/self/stat, in
// clock ticks since boot, which CLOCK_BOOTTIME shares); the first call's time otherwise.
double process_start() {
  static const double start = [] {
    std::ifstream f("/proc/self/stat");
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    const long ticks = sysconf(_SC_CLK_TCK);
    if (close != std::string::npos && ticks > 0) {
      std::istringstream rest(text.substr(close + 2));
      std::string field;
      // Fields 3.. follow the ')'; the start time is field 22.
      for (int k = 3; k <= 22 && (rest >> field); ++k) {
      }
      timespec boot{};
      clock_gettime(CLOCK_BOOTTIME, &boot);
      const double boot_now = static_cast<double>(boot.tv_sec) + 1e-9 * boot.tv_nsec;
      const double started_ago = boot_now - std::stod(field) / static_cast<double>(ticks);
      return monotonic_now() - started_ago;
    }
    return monotonic_now();
  }();
  return start;
}

} // namespace

void trace(const char* what) {
  if (!trace_enabled())
    return;
  std::fprintf(stderr, "apsp: trace: %7.3f s %s\n", monotonic_now() - process_start(), what);
}

void trace_with_realtime(const char* what) {
  if (!trace_enabled())
    return;
  timespec real{};
  clock_gettime(CLOCK_REALTIME, &real);
  std::fprintf(stderr, "apsp: trace: %7.3f s %s (realtime %.6f)\n",
               monotonic_now() - process_start(), what,
               static_cast<double>(real.tv_sec) + 1e-9 * static_cast<double>(real.tv_nsec));
}

} // namespace apsp::cli
