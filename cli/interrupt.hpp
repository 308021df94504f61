#pragma once
// Ctrl-C handling and the progress line shown while solving.

#include "apsp/options.hpp"

namespace apsp::cli {

/// Installs a SIGINT handler for its lifetime. The first SIGINT only sets a flag that the solve
/// polls (so no half-written output is left); the handler then resets itself, so a second
/// Ctrl-C kills the process the usual way.
class sigint_scope {
public:
  sigint_scope();
  ~sigint_scope();
  sigint_scope(const sigint_scope&) = delete;
  sigint_scope& operator=(const sigint_scope&) = delete;
};

/// Whether SIGINT arrived since the current sigint_scope began.
[[nodiscard]] bool interrupted() noexcept;
/// Throws cancelled_error when interrupted().
void throw_if_interrupted();

/// How progress is shown: not at all, one line redrawn in place on a terminal (at most ten
/// times a second), or, for logs, a new line at most every two seconds.
enum class progress_style { none, terminal, log };

/// A progress callback that cancels on SIGINT and shows "round r/R, updates/s, ETA" on stderr
/// in the given style.
[[nodiscard]] progress_callback make_progress(progress_style style);

/// Ends a progress line left open by a solve that stopped early, so messages start a line.
void close_progress_line() noexcept;

/// The progress style: none with --quiet; with --progress (`always`) a log line style when
/// stderr is not a terminal; otherwise the terminal line when stderr is a terminal.
[[nodiscard]] progress_style progress_wanted(bool quiet, bool always = false) noexcept;

} // namespace apsp::cli
