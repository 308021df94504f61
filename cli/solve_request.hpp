#pragma once
// The checks and library options that `apsp solve` makes alike in one process
// (solve_command.cpp) and as MPI ranks (distributed.cpp), written once.

#include "apsp/options.hpp"
#include "distributed.hpp"

namespace apsp::cli {

/// Refuses (invalid_argument_error, or the I/O error of an unwritable place) a --paths output
/// that is not .npy, not writable or the distance output's file, and a checkpoint directory
/// (--checkpoint, else --resume) where files cannot be created.
void check_paths_and_checkpoints(const distributed_solve_args& a);

/// The library options of the solve: the solver's (to_solve_options), paths when --paths is
/// given, and the checkpoints (saved into --checkpoint DIR, else into the --resume DIR).
[[nodiscard]] solve_options solve_options_of(const distributed_solve_args& a);

} // namespace apsp::cli
