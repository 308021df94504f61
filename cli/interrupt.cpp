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
  explicit progress_line(bool terminal) : terminal_(terminal) {}
  bool operator()(const progress_info& info) {
    if (sigint_seen)
      return false;
    const auto now = std::chrono::steady_clock::now();
    const bool last = info.rounds_done >= info.rounds_total;
    const auto every = terminal_ ? std::chrono::milliseconds(100) : std::chrono::milliseconds(2000);
    if (!last && drawn_ && now - last_draw_ < every)
      return true;
    last_draw_ = now;
    drawn_ = true;
    char rate[32];
    format_rate(rate, sizeof rate, info.updates_per_second);
    const double fraction = info.rounds_total > 0 ? static_cast<double>(info.rounds_done) /
                                                        static_cast<double>(info.rounds_total)
                                                  : 1.0;
    const double eta = fraction > 0 ? info.elapsed_seconds * (1 - fraction) / fraction : 0;
    std::fprintf(stderr, "%sapsp: round %lld/%lld (%.0f%%)  %supdates/s  ETA %.0f s",
                 terminal_ ? "\r\033[K" : "", static_cast<long long>(info.rounds_done),
                 static_cast<long long>(info.rounds_total), 100 * fraction, rate, eta);
    if (!terminal_) {
      std::fprintf(stderr, "  elapsed %.1f s\n", info.elapsed_seconds);
    } else {
      line_open = !last;
      if (last)
        std::fputc('\n', stderr);
    }
    std::fflush(stderr);
    return true;
  }

private:
  bool terminal_;
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

progress_callback make_progress(progress_style style) {
  if (style == progress_style::none)
    return [](const progress_info&) { return sigint_seen == 0; };
  // std::function needs a copyable target; share the redraw state.
  auto line = std::make_shared<progress_line>(style == progress_style::terminal);
  return [line](const progress_info& info) { return (*line)(info); };
}

void close_progress_line() noexcept {
  if (!line_open)
    return;
  std::fputc('\n', stderr);
  line_open = false;
}

progress_style progress_wanted(bool quiet, bool always) noexcept {
  if (quiet)
    return progress_style::none;
  if (isatty(STDERR_FILENO) == 1)
    return progress_style::terminal;
  return always ? progress_style::log : progress_style::none;
}

} // namespace apsp::cli
