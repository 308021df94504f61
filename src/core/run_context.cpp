#include <algorithm>
#include <cstdio>
#include <string>

#include "core/backend.hpp"

namespace apsp::detail {

void run_context::round_done(std::int64_t rounds_done, std::int64_t rounds_total) {
  if (!options_.progress)
    return;
  progress_info info;
  info.rounds_done = rounds_done;
  info.rounds_total = rounds_total;
  info.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (sources_total_ > 0) {
    info.sources_total = sources_total_;
    info.sources_done = std::min(sources_total_, rounds_done * sources_per_round_);
    if (info.elapsed_seconds > 0)
      info.sources_per_second = static_cast<double>(info.sources_done) / info.elapsed_seconds;
  }
  if (info.elapsed_seconds > 0 && rounds_total > 0) {
    const double n = static_cast<double>(n_);
    info.updates_per_second = n * n * n * static_cast<double>(rounds_done) /
                              static_cast<double>(rounds_total) / info.elapsed_seconds;
  }
  if (!options_.progress(info)) {
    throw cancelled_error("cancelled by the progress callback (called after round " +
                          std::to_string(rounds_done) + " of " + std::to_string(rounds_total) +
                          ")");
  }
}

void run_context::stage(const std::string& what) {
  if (!options_.progress)
    return;
  progress_info info;
  info.stage = what;
  info.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (!options_.progress(info))
    throw cancelled_error("cancelled by the progress callback (called before " + what + ")");
}

void run_context::warn(const std::string& sentence) const {
  if (options_.warning)
    options_.warning(sentence);
  else
    std::fprintf(stderr, "apsp: warning: %s\n", sentence.c_str());
}

} // namespace apsp::detail
