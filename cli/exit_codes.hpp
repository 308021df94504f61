#pragma once
// The documented exit codes of `apsp` (docs/cli.md and `apsp --help` list them).

namespace apsp::cli {

enum exit_code : int {
  exit_ok = 0,
  exit_internal = 1,
  exit_usage = 2,
  exit_bad_input = 3,
  exit_negative_cycle = 4,
  exit_out_of_memory = 5,
  exit_backend_unavailable = 6,
  exit_verification_failed = 7,
  exit_hierarchy_mismatch = 8,
  // Cancelled by a signal, after the outputs were removed: 128 + the signal number, as a shell
  // reports a process killed by it.
  exit_hangup = 129,     // SIGHUP
  exit_cancelled = 130,  // SIGINT (Ctrl-C)
  exit_terminated = 143, // SIGTERM (kill, timeout, a batch scheduler)
};

} // namespace apsp::cli
