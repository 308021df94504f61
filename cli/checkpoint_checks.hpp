#pragma once
// What `apsp solve --checkpoint` tells its user before the solve starts: the engine that
// checkpoints made auto give up, and whether the checkpoints fit on their file system.

#include "apsp/options.hpp"
#include "apsp/plan.hpp"

namespace apsp::cli {

/// A warning when checkpoints made auto run Floyd-Warshall instead of a faster engine that
/// saves none (plan::checkpoint_displaced), with both estimates and how to run the other one.
void announce_checkpoint_switch(const plan& p);

/// Refuses (out_of_memory_error, exit 5) a checkpointed solve whose checkpoint does not fit in
/// the free space of its directory's file system, with both sizes; warns when one fits but
/// not two (a save is written beside the last complete one, so later saves would fail and be
/// reported as they come, while the solve goes on).
void check_checkpoint_space(const plan& p, const solve_options& options);

} // namespace apsp::cli
