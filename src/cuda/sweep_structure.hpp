#pragma once
// What a GPU sweep takes from the host (cuda/phast_sweep.hpp's executor, cuda/phast_table.hpp's
// tables): the structure swept, the seeds of its sources and the levels it is regrouped into.
// Host-only and free of CUDA headers, so that builds without CUDA declare the same functions.
// C++17: the kernels' translation unit includes it.

#include <cstdint>
#include <vector>

namespace apsp::cuda {

/// A distance found by a source's upward search: where its lane of the sweep starts. `slot` is
/// in the structure's numbering when handed to sweep_executor::enqueue_sweep.
struct sweep_seed {
  std::int32_t slot;
  std::int32_t lane;
  std::int32_t dist;
};

/// The downward sweep: `n` slots such that every arc into slot p comes from a slot < p; the
/// arcs into p are in_arcs[2a] (the tail's slot) and in_arcs[2a + 1] (the weight, 0 <= w < cap)
/// for a in [in_offsets[p], in_offsets[p + 1]). PHAST's is a contraction hierarchy's positions
/// and down_offsets / down_arcs (ch_arc<int32> is the same pair).
struct sweep_structure {
  std::int64_t n = 0;
  const std::int64_t* in_offsets = nullptr; ///< n + 1 values
  const std::int32_t* in_arcs = nullptr;    ///< 2 * in_offsets[n] values
};

/// The levels of a structure: level(p) = 0 without incoming arcs, else 1 + the largest level of
/// its arcs' tails. Slots of one level are independent, and every level is done after the ones
/// before it.
struct sweep_levels {
  std::vector<std::int32_t> order;   ///< the executor's slot i holds structure slot order[i]
  std::vector<std::int32_t> slot_of; ///< inverse: structure slot p is executor slot slot_of[p]
  std::vector<std::int64_t> offsets; ///< level l is executor slots [offsets[l], offsets[l + 1])
};
[[nodiscard]] sweep_levels levels_of(const sweep_structure& s);

} // namespace apsp::cuda
