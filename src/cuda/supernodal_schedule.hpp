#pragma once
// The launches of a supernodal elimination plan's steps on a GPU (docs/sparse.md, "Supernodal
// Floyd-Warshall on the GPU"): level by level over the elimination tree (a step's level is its
// height: leaves first), within a level slice by slice of at most sn_slice_pivots pivots of
// each step, every active step of a slice in one launch (with paths, in as few launches as
// keep the steps of each free of shared ancestors).
// Host code: the drivers upload the tasks, pivots and row lists and launch.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cpu/elimination.hpp"
#include "cuda/supernodal_kernels.hpp"

namespace apsp::cuda {

struct sn_schedule {
  struct launch {
    std::size_t first = 0; ///< into tasks
    int count = 0;
    int widest = 0;
    bool whole = false;      ///< small steps done whole in shared memory (sn_launch::whole)
    bool skip_outer = false; ///< sn_launch::skip_outer
    bool outer_only = false; ///< sn_launch::outer_only
    std::int64_t panel_blocks = 0;
    std::int64_t outer_blocks = 0;
    double updates = 0; ///< counted: np x rows x front of each task
  };
  std::vector<sn_task> tasks;
  std::vector<launch> launches;
  std::vector<std::size_t> level_end;  ///< launches of levels 0..l end at level_end[l]
  std::vector<std::int32_t> pivots;    ///< the scheduled steps' members, concatenated
  std::vector<std::int32_t> row_lists; ///< the tasks' explicit rows (sn_task::row_list)
};

struct sn_schedule_options {
  /// Paths: the tasks of a launch share no ancestor, so no cell has two writers and each via
  /// stays with its distance (without paths such cells take atomic minima).
  bool disjoint_ancestors = false;
  bool allow_whole = true; ///< small steps whole in shared memory
  /// When set, a task updates only the rows of its front whose labels are held (held[label]
  /// != 0), listed in row_lists; a step with none is left out.
  const std::vector<char>* held = nullptr;
  /// A step of several slices makes one pass of outer products over its front for up to
  /// sn_fused_pivots pivots instead of one a slice: each slice's close and panels, then its
  /// outer product restricted to the lines of the group's later slices (their rows and
  /// columns over the front), and at the end one outer product of the group's pivots. Exact
  /// for integer distances without paths (the operands a fused product reads may still be
  /// lowered by it: every value read is the length of a walk, and the values the slice by
  /// slice order reads are among them); not with `held` rows.
  bool fuse_slices = false;
};

/// The height of each step in the elimination tree of supernodes (0 for a leaf).
[[nodiscard]] std::vector<int> step_heights(const cpu::elimination_plan& ep);

/// The launches of `steps` (indices into ep.steps, any subset closed under the order the
/// heights give) at the levels `height` gives.
[[nodiscard]] sn_schedule schedule_steps(const cpu::elimination_plan& ep,
                                         const std::vector<int>& height,
                                         const std::vector<std::int64_t>& steps,
                                         const sn_schedule_options& options);

/// Every step of the plan.
[[nodiscard]] std::vector<std::int64_t> all_steps(const cpu::elimination_plan& ep);

} // namespace apsp::cuda
