#pragma once
// Wall-clock seconds for the stage timings the CLI reports.

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

} // namespace apsp::cli
