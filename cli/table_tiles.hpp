#pragma once
// `apsp solve --sources S --targets T -o FILE.npy` for a table larger than the host memory
// budget (plan::tiled), or with --checkpoint/--resume: made a tile of sources at a time
// (apsp::solve_table_tiles) and written into FILE.npy tile by tile, never held whole. With
// --checkpoint DIR, the partial file keeps a stable name beside FILE (FILE.apsp-table-partial)
// and DIR/table.manifest lists the tiles already on the disk; --resume DIR skips them.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "apsp/table.hpp"
#include "interrupt.hpp"

namespace apsp::cli {

struct tiled_table_request {
  std::string out;               ///< -o (an .npy file)
  std::string checkpoint_dir;    ///< --checkpoint, or --resume's DIR (saving goes on there)
  bool resume = false;           ///< --resume: tiles in the manifest are skipped
  double checkpoint_every = 600; ///< seconds between manifest saves (0: every tile)
  progress_style progress = progress_style::none;
};

/// What the tiled table made: its pairs (s != t) and the reachable ones, over every tile (the
/// skipped tiles' counts from the manifest).
struct tiled_table_counts {
  std::uint64_t pairs = 0;
  std::uint64_t reachable = 0;
  std::int64_t resumed_tiles = 0; ///< tiles --resume found written already
};

/// Rows a tile for a table asked with --checkpoint whose plan is not tiled: several tiles, so that
/// a checkpoint saves some of the work.
[[nodiscard]] std::int64_t checkpoint_tile_rows(std::int64_t rows);

/// What makes the tiles: apsp::solve_table_tiles or apsp::hierarchy::table_tiles into the
/// sink, with the progress callback; returns the plan that ran.
using tile_maker = std::function<plan(table_tile_sink&, const progress_callback&)>;

/// Runs `make` into r.out, `p` the plan of the tiles (its type and block rows a tile, which
/// the checkpoint records); returns the plan that ran. Errors: those of `make`;
/// invalid_input_error when --resume's manifest belongs to another table; cancelled_error on a
/// signal (the checkpoint, if any, keeps the tiles done).
plan solve_tiled_table(const graph& g, const std::vector<std::int64_t>& sources,
                       const std::vector<std::int64_t>& targets, const plan& p,
                       const tile_maker& make, const tiled_table_request& r,
                       tiled_table_counts& counts);

} // namespace apsp::cli
