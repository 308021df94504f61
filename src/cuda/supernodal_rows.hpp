#pragma once
// The supernodal Floyd-Warshall past one GPU's memory (docs/sparse.md, "Past one GPU's
// memory"): the rows of the matrix split over several GPUs, or streamed through one GPU from
// host memory, each device holding the pivot strip and a block of rows at a time.
//
// The split: the elimination tree's top steps (those whose subtree has more rows than a block
// holds) give the strip U, their pivots; below them lie disjoint subtrees, the frontier, packed
// into groups of rows. A frontier subtree's steps touch only its own rows and columns and those
// of U (the fill-path theorem: a step's front is its subtree and its ancestors), so
//   1. each device runs the steps of its groups on its group rows and its copy of the strip;
//      the copies of the strip differ only by minima two subtrees wrote to U x U cells (never
//      an operand below the top), so their elementwise minimum is the strip after every group;
//   2. every device runs the top steps on the strip alone (rows U): the pivots' rows final;
//   3. each device runs the top steps on its groups' rows with those final pivots' rows: only
//      the column panels and the outer products (supernodal_kernels.hpp, pivots_final).
// A device with one group keeps it resident; with several, a group's rows go to the host's
// result rows between 1 and 3 and come back. Host traffic: the result once, plus twice the
// rows of groups that do not stay resident.

#include <cstdint>
#include <vector>

#include "core/backend.hpp"
#include "cpu/elimination.hpp"

namespace apsp::cuda {

struct sn_row_split {
  std::vector<std::int64_t> top_steps; ///< ascending
  std::vector<std::int32_t> strip;     ///< the top steps' members (labels), ascending
  struct group {
    std::vector<std::int32_t> labels; ///< its frontier subtrees' labels, ascending
    std::vector<std::int64_t> steps;  ///< their steps, ascending
    int device = 0;                   ///< index into the solve's device list
  };
  std::vector<group> groups;
  std::int64_t block_rows = 0; ///< rows of a device's block buffer: its largest group
  /// Whether a split was found (no groups: the strip is the whole matrix).
  [[nodiscard]] bool fits() const noexcept { return !groups.empty() || !strip.empty(); }
};

/// Bytes one device needs for a split whose block holds `block_rows` rows and whose strip
/// holds `strip_rows` (n-wide rows of value_bytes, plus 4 bytes with paths).
[[nodiscard]] std::uint64_t sn_rows_device_bytes(std::int64_t n, std::int64_t strip_rows,
                                                 std::int64_t block_rows,
                                                 std::size_t value_bytes, bool paths);

/// A split over `devices` devices of `usable` bytes each (!fits() when none does: the strip
/// alone too large), in at least `parts` groups (and one a device) where the tree allows.
[[nodiscard]] sn_row_split split_rows(const cpu::elimination_plan& ep, int devices,
                                      std::uint64_t usable, std::size_t value_bytes, bool paths,
                                      int parts = 1);

} // namespace apsp::cuda

namespace apsp::detail {

/// The solve over `devices` (device ids, a device may repeat under APSP_CUDA_FORCE_MULTI_GPU)
/// with `split` (split_rows for that many devices); the result into h_d (and h_via) in vertex
/// order. int32 and float.
template <class T>
void solve_supernodal_by_rows(dense_matrix<T>& h_d, via_matrix* h_via, run_context& ctx,
                              const std::vector<int>& devices, const cpu::elimination_plan& ep,
                              const cuda::sn_row_split& split);

} // namespace apsp::detail
