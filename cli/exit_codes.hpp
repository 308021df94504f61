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
  exit_cancelled = 130,
};

} // namespace apsp::cli
