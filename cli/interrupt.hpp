#pragma once
// Ctrl-C (SIGINT), SIGTERM and SIGHUP handling, and the progress line shown while solving.

#include <csignal>
#include <string>

#include "apsp/options.hpp"

namespace apsp::cli {

/// Installs handlers for SIGINT, SIGTERM and SIGHUP for its lifetime. The first of them only
/// records which signal arrived, in a flag that the solve and the commands poll (so they stop
/// at a round boundary, remove their outputs and exit 128 + the signal number); each handler
/// then resets itself, so a second signal of the same kind kills the process the usual way.
/// A signal that was ignored when the scope began (SIGHUP under nohup, SIGINT in a background
/// job of a non-interactive shell) stays ignored.
class interrupt_scope {
public:
  interrupt_scope();
  ~interrupt_scope();
  interrupt_scope(const interrupt_scope&) = delete;
  interrupt_scope& operator=(const interrupt_scope&) = delete;
};

/// The former name, from when only SIGINT was handled.
using sigint_scope = interrupt_scope;

/// Holds SIGINT, SIGTERM and SIGHUP off for its lifetime (while a command renames its finished
/// outputs onto their targets): blocked on this thread, and on any other thread only recorded,
/// so that not even a second signal stops the process half-way through. A signal that arrived
/// meanwhile counts as usual afterwards (interrupted() is true, and the next one of its kind
/// kills the process).
class signal_hold {
public:
  signal_hold();
  ~signal_hold();
  signal_hold(const signal_hold&) = delete;
  signal_hold& operator=(const signal_hold&) = delete;

private:
  sigset_t old_mask_;
};

/// Test hook (APSP_TEST_PAUSE_IN_WRITE=K, for tests/cli/test_signals.py): call after a command
/// finished writing its k-th output (1-based) to its partial file. When k == K, prints
/// "apsp: test: paused after output K" on stderr and waits (at most 60 s) for a signal, so a
/// test can signal at exactly that point. Does nothing otherwise.
void test_pause_after_output(int k);

/// The first of SIGINT, SIGTERM or SIGHUP that arrived since the current interrupt_scope began
/// (it stays readable after the scope ends), or 0 when none did.
[[nodiscard]] int interrupt_signal() noexcept;
/// Takes `sig` as the signal that arrived when none did here: under mpirun a signal that
/// reached another rank cancels this one too, and every rank then reports and exits alike.
void adopt_signal(int sig) noexcept;
/// Whether one of those signals arrived since the current interrupt_scope began.
[[nodiscard]] bool interrupted() noexcept;
/// "SIGINT", "SIGTERM" or "SIGHUP"; "a signal" for any other number.
[[nodiscard]] const char* signal_name(int sig) noexcept;
/// "interrupted (SIGTERM)" for the signal that arrived; "cancelled" when none did.
[[nodiscard]] std::string interrupted_text();
/// Throws cancelled_error ("interrupted (SIGTERM); no output was written") when interrupted().
void throw_if_interrupted();

/// How progress is shown: not at all, one line redrawn in place on a terminal (at most ten
/// times a second), or, for logs, a new line at most every two seconds.
enum class progress_style { none, terminal, log };

/// A progress callback that cancels once interrupted() and shows on stderr, in the given style,
/// each stage the engine announces ("building the contraction hierarchy ...") and then "round
/// r/R (x%), updates/s" (Floyd-Warshall) or "sources s/S (x%), sources/s" (engines that make
/// rows) with an ETA: from the pace of the rounds after the first report, once 3 % of the work
/// is done ("--" before).
[[nodiscard]] progress_callback make_progress(progress_style style);

/// "apsp: WHAT ..." on a line of its own when progress is shown: the command's stages around
/// the engine's ("reading g.gr", "writing d.npy").
void show_stage(progress_style style, const std::string& what);

/// Ends a progress line left open by a solve that stopped early, so messages start a line.
void close_progress_line() noexcept;

/// The progress style: none with --quiet; with --progress (`always`) a log line style when
/// stderr is not a terminal; otherwise the terminal line when stderr is a terminal.
[[nodiscard]] progress_style progress_wanted(bool quiet, bool always = false) noexcept;

} // namespace apsp::cli
