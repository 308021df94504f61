#pragma once
// distance_summary (apsp/stats.hpp) over the tiles one process holds. Internal: not installed.

#include <cstdint>

#include "apsp/stats.hpp"
#include "core/round_schedule.hpp"

namespace apsp::detail {

/// The summary of a process's tiles (`local`: layout.local_rows() x layout.local_cols()), the
/// diagonal of the whole matrix left out. Merge those of all processes for the matrix's.
template <class T>
[[nodiscard]] distance_summary summarize_tiles(const grid_layout& layout, const T* local);

} // namespace apsp::detail
