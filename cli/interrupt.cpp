#include "interrupt.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "apsp/error.hpp"
#include "process_knobs.hpp"

namespace apsp::cli {
namespace {

// The signals that cancel a command, and the first of them that arrived (0: none). Written by
// the handler on whichever thread the kernel picks, so a lock-free atomic, not a plain flag.
constexpr int handled_signals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr std::size_t handled_count = sizeof handled_signals / sizeof handled_signals[0];
static_assert(std::atomic<int>::is_always_lock_free, "the handler needs a lock-free atomic");
std::atomic<int> signal_seen{0};
bool line_open = false; // a progress line was drawn without its final newline
struct sigaction previous_actions[handled_count] {};
bool installed[handled_count] = {};

extern "C" void on_signal(int sig) {
  int none = 0;
  signal_seen.compare_exchange_strong(none, sig); // keep the first one
}

bool seen() noexcept {
  return signal_seen.load(std::memory_order_relaxed) != 0;
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
    if (seen())
      return false;
    if (!info.stage.empty()) {
      show_stage(info);
      return true;
    }
    if (first_rounds_ < 0) {
      first_rounds_ = info.rounds_done;
      first_sources_ = info.sources_done;
      first_seconds_ = info.elapsed_seconds;
    }
    const auto now = std::chrono::steady_clock::now();
    const bool last = info.rounds_done >= info.rounds_total;
    const auto every = terminal_ ? std::chrono::milliseconds(100) : std::chrono::milliseconds(2000);
    if (!last && drawn_ && now - last_draw_ < every)
      return true;
    last_draw_ = now;
    drawn_ = true;
    const double fraction = info.rounds_total > 0 ? static_cast<double>(info.rounds_done) /
                                                        static_cast<double>(info.rounds_total)
                                                  : 1.0;
    char rate[32];
    // Engines that make rows count sources; Floyd-Warshall's rounds count updates.
    const bool rows = info.sources_total > 0;
    format_rate(rate, sizeof rate, rows ? sources_rate(info) : info.updates_per_second);
    std::fprintf(stderr, "%sapsp: %s %lld/%lld (%.0f%%)  %s%s/s  ETA %s",
                 terminal_ ? "\r\033[K" : "", rows ? "sources" : "round",
                 static_cast<long long>(rows ? info.sources_done : info.rounds_done),
                 static_cast<long long>(rows ? info.sources_total : info.rounds_total),
                 100 * fraction, rate, rows ? "sources" : "updates",
                 eta_text(info, fraction, last).c_str());
    end_line(info, last);
    return true;
  }

private:
  /// "apsp: building the contraction hierarchy ..." on a line of its own (in place on a
  /// terminal, where the rounds' line then replaces it).
  void show_stage(const progress_info& info) {
    std::fprintf(stderr, "%sapsp: %s ...", terminal_ ? "\r\033[K" : "", info.stage.c_str());
    end_line(info, false);
    drawn_ = false; // the rounds' first line is drawn at once
  }

  void end_line(const progress_info& info, bool last) {
    if (!terminal_) {
      std::fprintf(stderr, "  elapsed %.1f s\n", info.elapsed_seconds);
    } else {
      line_open = !last;
      if (last)
        std::fputc('\n', stderr);
    }
    std::fflush(stderr);
  }

  /// The seconds left at the pace of the rounds since the first report, once a few percent of
  /// the work are done past it; "--" until then. The first report's time holds the back end's
  /// set-up (its tiles packed, its threads started, a hierarchy built), and the pace of the
  /// first round or two is noise: an ETA from either was several times the solve.
  [[nodiscard]] std::string eta_text(const progress_info& info, double fraction,
                                     bool last) const {
    constexpr double measured_fraction = 0.03;
    if (last)
      return "0 s";
    const std::int64_t rounds = info.rounds_done - first_rounds_;
    if (rounds < 1 || fraction < measured_fraction)
      return "--";
    const double left = static_cast<double>(info.rounds_total - info.rounds_done);
    const double seconds =
        (info.elapsed_seconds - first_seconds_) / static_cast<double>(rounds) * left;
    char buf[32];
    std::snprintf(buf, sizeof buf, seconds < 10 ? "%.1f s" : "%.0f s", seconds);
    return buf;
  }

  /// Sources a second since the first report, whose time holds the set-up (a hierarchy built,
  /// potentials); the library's rate over the whole time until there is a second report.
  [[nodiscard]] double sources_rate(const progress_info& info) const {
    const double seconds = info.elapsed_seconds - first_seconds_;
    if (info.sources_done <= first_sources_ || seconds <= 0)
      return info.sources_per_second;
    return static_cast<double>(info.sources_done - first_sources_) / seconds;
  }

  bool terminal_;
  std::int64_t first_rounds_ = -1; ///< rounds_done at the first report
  std::int64_t first_sources_ = 0; ///< sources_done at the first report
  double first_seconds_ = 0;       ///< elapsed_seconds at the first report
  std::chrono::steady_clock::time_point last_draw_{};
  bool drawn_ = false;
};

} // namespace

interrupt_scope::interrupt_scope() {
  signal_seen.store(0);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  // One-shot: the handler goes back to the default after the first signal of its kind, so a
  // second one kills the process (Ctrl-C twice). SA_RESTART: the flag is polled, so a write to
  // a pipe (a progress line, the summary) that the signal lands in is resumed, not failed.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  for (std::size_t k = 0; k < handled_count; ++k) {
    struct sigaction& previous = previous_actions[k];
    installed[k] = false;
    if (sigaction(handled_signals[k], nullptr, &previous) != 0)
      continue;
    // An ignored signal stays ignored: nohup's SIGHUP, a background job's SIGINT.
    if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_IGN)
      continue;
    installed[k] = sigaction(handled_signals[k], &action, nullptr) == 0;
  }
}

interrupt_scope::~interrupt_scope() {
  for (std::size_t k = 0; k < handled_count; ++k) {
    if (installed[k])
      sigaction(handled_signals[k], &previous_actions[k], nullptr);
    installed[k] = false;
  }
}

signal_hold::signal_hold() {
  sigset_t held;
  sigemptyset(&held);
  for (const int sig : handled_signals)
    sigaddset(&held, sig);
  pthread_sigmask(SIG_BLOCK, &held, &old_mask_);
  // Other threads (OpenMP's) still take process-directed signals: there the handler only
  // records them, without going back to the default (which would kill on a second signal).
  struct sigaction record {};
  record.sa_handler = on_signal;
  sigemptyset(&record.sa_mask);
  record.sa_flags = SA_RESTART;
  for (std::size_t k = 0; k < handled_count; ++k) {
    if (installed[k])
      sigaction(handled_signals[k], &record, nullptr);
  }
}

signal_hold::~signal_hold() {
  struct sigaction reset {};
  reset.sa_handler = SIG_DFL;
  sigemptyset(&reset.sa_mask);
  struct sigaction first {};
  first.sa_handler = on_signal;
  sigemptyset(&first.sa_mask);
  first.sa_flags = SA_RESETHAND | SA_RESTART;
  for (std::size_t k = 0; k < handled_count; ++k) {
    if (!installed[k])
      continue;
    // As interrupt_scope set it up: one-shot until a signal of this kind arrived, then default.
    const bool arrived = signal_seen.load() == handled_signals[k];
    sigaction(handled_signals[k], arrived ? &reset : &first, nullptr);
  }
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

void test_pause_after_output(int k) {
  static const int pause_at = knobs().test_pause_in_write;
  if (pause_at <= 0 || k != pause_at)
    return;
  std::fprintf(stderr, "apsp: test: paused after output %d\n", k);
  std::fflush(stderr);
  for (int waited_ms = 0; !seen() && waited_ms < 60000; waited_ms += 5)
    usleep(5000);
}

void adopt_signal(int sig) noexcept {
  int none = 0;
  signal_seen.compare_exchange_strong(none, sig);
}

int interrupt_signal() noexcept {
  return signal_seen.load(std::memory_order_relaxed);
}

bool interrupted() noexcept {
  return seen();
}

const char* signal_name(int sig) noexcept {
  switch (sig) {
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  case SIGHUP:
    return "SIGHUP";
  default:
    return "a signal";
  }
}

std::string interrupted_text() {
  const int sig = interrupt_signal();
  if (sig == 0)
    return "cancelled";
  return std::string("interrupted (") + signal_name(sig) + ")";
}

void throw_if_interrupted() {
  if (seen())
    throw cancelled_error(interrupted_text() + "; no output was written");
}

progress_callback make_progress(progress_style style) {
  if (style == progress_style::none)
    return [](const progress_info&) { return !seen(); };
  // std::function needs a copyable target; share the redraw state.
  auto line = std::make_shared<progress_line>(style == progress_style::terminal);
  return [line](const progress_info& info) { return (*line)(info); };
}

void show_stage(progress_style style, const std::string& what) {
  if (style == progress_style::none)
    return;
  close_progress_line();
  std::fprintf(stderr, "apsp: %s ...\n", what.c_str());
  std::fflush(stderr);
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
