#pragma once
// Which steps of a supernodal Floyd-Warshall run side by side (src/cpu/supernodal_fw.cpp): the
// elimination tree's independent subtrees, one thread each, then the steps above them, each on
// every thread. Subtrees are contiguous ranges of steps (the steps follow a postorder), so a
// subtree is run as the steps between its first and its root, in order.

#include <cstdint>
#include <vector>

#include "cpu/elimination.hpp"

namespace apsp::cpu {

struct step_subtree {
  std::int64_t first_step = 0; ///< the subtree's steps are [first_step, root_step]
  std::int64_t root_step = 0;
  double updates = 0; ///< of all its steps
};

struct step_schedule {
  /// Disjoint subtrees, the heaviest first, each run on one thread (any thread, any order).
  std::vector<step_subtree> subtrees;
  /// Every other step, in increasing order, each after the subtrees, on every thread.
  std::vector<std::int64_t> top_steps;
};

/// parent[s] = the step that holds the elimination-tree parent of step s's top column, or -1.
[[nodiscard]] std::vector<std::int64_t> step_parents(const elimination_plan& plan);

/// Splits the heaviest subtree at its root (which joins the top steps) while it carries more
/// than 1 / (2 threads) of the subtrees' updates and its root step is big enough to keep
/// `threads` threads busy alone. One thread: every step a top step.
[[nodiscard]] step_schedule schedule_steps(const elimination_plan& plan, int threads);

} // namespace apsp::cpu
