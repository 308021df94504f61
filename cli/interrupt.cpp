#include "interrupt.hpp"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>

#include "apsp/error.hpp"

namespace apsp::cli {
namespace {

volatile std::sig_atomic_t sigint_seen = 0;
bool line_open = false; // a progress line was drawn without its final newline
struct sigaction previous_action {};

extern "C" void on_sigint(int) {
  sigint_seen = 1;
}

/// "1.23 G" style rendering of a rate.
void format_rate(char* buf, std::size_t size, double per_second) {
  const char* units[] = {"", "k", "M", "G", "T", "P"};
  int u = 0;
  while (per_second >= 1000 && u < 5) {
    per_second /= 1000;
    ++u;
  }
  std::snprintf(buf, size, "%.2f %s", per_second, units[u]);
}

class progress_line {
public:
  bool operator()(const progress_info& info) {
    if (sigint_seen)
      return false;
    const auto now = std::chrono::steady_clock::now();
    const bool last = info.rounds_done >= info.rounds_total;
    if (!last && drawn_ && now - last_draw_ < std::chrono::milliseconds(100))
      return true;
    last_draw_ = now;
    drawn_ = true;
    char rate[32];
    format_rate(rate, sizeof rate, info.updates_per_second);
    const double fraction = info.rounds_total > 0 ? static_cast<double>(info.rounds_done) /
                                                        static_cast<double>(info.rounds_total)
                                                  : 1.0;
    const double eta = fraction > 0 ? info.elapsed_seconds * (1 - fraction) / fraction : 0;
    std::fprintf(stderr, "\r\033[Kapsp: round %lld/%lld (%.0f%%)  %supdates/s  ETA %.0f s",
                 static_cast<long long>(info.rounds_done),
                 static_cast<long long>(info.rounds_total), 100 * fraction, rate, eta);
    line_open = !last;
    if (last)
      std::fputc('\n', stderr);
    std::fflush(stderr);
    return true;
  }

private:
  std::chrono::steady_clock::time_point last_draw_{};
  bool drawn_ = false;
};

} // namespace

sigint_scope::sigint_scope() {
  sigint_seen = 0;
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, &previous_action);
}

sigint_scope::~sigint_scope() {
  sigaction(SIGINT, &previous_action, nullptr);
}

bool interrupted() noexcept {
  return sigint_seen != 0;
}

void throw_if_interrupted() {
  if (sigint_seen)
    throw cancelled_error("interrupted (SIGINT); no output was written");
}

progress_callback make_progress(bool draw) {
  if (!draw)
    return [](const progress_info&) { return sigint_seen == 0; };
  // std::function needs a copyable target; share the redraw state.
  auto line = std::make_shared<progress_line>();
  return [line](const progress_info& info) { return (*line)(info); };
}

void close_progress_line() noexcept {
  if (!line_open)
    return;
  std::fputc('\n', stderr);
  line_open = false;
}

bool progress_wanted(bool quiet) noexcept {
  return !quiet && isatty(STDERR_FILENO) == 1;
}

} // namespace apsp::cli
