#pragma once
// Ctrl-C (SIGINT), SIGTERM and SIGHUP handling, and the progress line shown while solving.

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

/// The first of SIGINT, SIGTERM or SIGHUP that arrived since the current interrupt_scope began
/// (it stays readable after the scope ends), or 0 when none did.
[[nodiscard]] int interrupt_signal() noexcept;
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

/// A progress callback that cancels once interrupted() and shows "round r/R, updates/s, ETA" on
/// stderr in the given style.
[[nodiscard]] progress_callback make_progress(progress_style style);

/// Ends a progress line left open by a solve that stopped early, so messages start a line.
void close_progress_line() noexcept;

/// The progress style: none with --quiet; with --progress (`always`) a log line style when
/// stderr is not a terminal; otherwise the terminal line when stderr is a terminal.
[[nodiscard]] progress_style progress_wanted(bool quiet, bool always = false) noexcept;

} // namespace apsp::cli
