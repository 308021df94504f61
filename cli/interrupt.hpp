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

/// A progress callback that cancels on SIGINT and, when `draw` is set, redraws
/// "round r/R, updates/s, ETA" on stderr at most ten times a second.
[[nodiscard]] progress_callback make_progress(bool draw);

/// Ends a progress line left open by a solve that stopped early, so messages start a line.
void close_progress_line() noexcept;

/// Whether progress should be drawn: stderr is a terminal and --quiet was not given.
[[nodiscard]] bool progress_wanted(bool quiet) noexcept;

} // namespace apsp::cli
