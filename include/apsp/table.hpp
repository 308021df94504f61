#pragma once
/// @file table.hpp
/// Distance tables: the |S| x |T| block of the distance matrix from some sources to some
/// targets (a routing engine's "matrix" or "table" service), never the n x n matrix.

#include <cstdint>
#include <span>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "apsp/sources.hpp"

namespace apsp {

struct table_result {
  std::int64_t rows = 0; ///< the sources asked, repeats kept
  std::int64_t cols = 0; ///< the targets asked, repeats kept
  /// rows x cols, row-major, in options.type: entry (i, j) is the distance from sources[i] to
  /// targets[j] (infinity of the type where no path leads, 0 where they are one vertex).
  any_rows distances;
  /// solve_table_along only: rows x cols, row-major, along the path each distance was found on,
  /// the sum of the second weights (+infinity where no path leads); empty otherwise.
  std::vector<double> second;
  /// The plan that ran (its driver: drivers::rphast_table, drivers::cuda_table,
  /// drivers::ch_table, drivers::block_rows or a whole-matrix driver), for reporting.
  plan ran;
};

/// The table of `g` from `sources` to `targets` (vertex ids 0..n-1, repeats allowed), as
/// make_plan(g, options, plan_request::block(|S|, |T|)) chooses: a contraction hierarchy with
/// RPHAST's restricted sweeps (drivers::rphast_table; on a GPU drivers::cuda_table, int32,
/// under backend cuda or when the cost model says so) or its bucket searches
/// (drivers::ch_table) on road-like graphs with integer weights, Dijkstra from the smaller set
/// (drivers::block_rows), or the whole matrix cut down. Integer tables are exactly Dijkstra's.
/// Every negative cycle of the graph refuses it (negative_cycle_error). Throws
/// invalid_argument_error (an id out of range), overflow_risk_error and invalid_input_error
/// (integer types), out_of_memory_error (also when the plan is tiled: the table does not fit
/// solve_options::host_memory_limit; solve_table_tiles writes it).
[[nodiscard]] table_result solve_table(const graph& g, std::span<const std::int64_t> sources,
                                       std::span<const std::int64_t> targets,
                                       const solve_options& options = {});

/// Two values per cell, as routing engines give them: the table of `g`'s weights (options.type:
/// int32 or int64, else invalid_argument_error), and in table_result::second, along the same
/// paths, the sum of `second` (one value per edge of g, in g's edge order, finite and >= 0:
/// else invalid_input_error), a length beside a travel time. Of the paths of least weight the
/// one with the least second sum is taken, so the second value does not depend on how ties
/// fall; sums are accumulated from the source, in float64. Dijkstra on (weight, second) pairs
/// from each source, on options.threads threads; negative weights through Bellman-Ford
/// potentials (every negative cycle refuses it: negative_cycle_error).
[[nodiscard]] table_result solve_table_along(const graph& g, std::span<const double> second,
                                             std::span<const std::int64_t> sources,
                                             std::span<const std::int64_t> targets,
                                             const solve_options& options = {});

/// The same table by a plan made for it (make_plan(g, options, plan_request::block(...))),
/// run as it is, into `out` (rows x cols values of options.type, row-major). A ch_table plan
/// whose hierarchy outgrows its budget (a graph without small separators) runs Dijkstra's rows
/// instead; returns the plan that ran. Dijkstra's rows (drivers::block_rows) run
/// drivers::block_rows::batch searches at a time and call options.progress (searches done of
/// all; false cancels: cancelled_error); a negative cycle found from the targets, on the reversed
/// graph, is reported in the graph's direction.
plan solve_table_into(const graph& g, std::span<const std::int64_t> sources,
                      std::span<const std::int64_t> targets, const plan& p,
                      const solve_options& options, any_rows& out);

/// Where solve_table_tiles puts a table too large to hold: tile k is rows [first, first +
/// count) of the table, first = k * plan::block.
class table_tile_sink {
public:
  virtual ~table_tile_sink() = default;
  /// Whether tile `index` is written already (a resumed run): it is not made again.
  [[nodiscard]] virtual bool has(std::int64_t index) const { return index < 0; }
  /// Tile `index`: `count` rows x |targets| values of the plan's dtype, row-major, valid during
  /// the call only. An exception stops the table.
  virtual void put(std::int64_t index, std::int64_t first, std::int64_t count,
                   const void* values) = 0;
};

/// The table of a plan (make_plan(g, options, plan_request::block(...)), tiled or not, with
/// plan::block > 0: else invalid_argument_error) made plan::block rows at a time, each tile
/// handed to `out` before the next is made, so that only one tile is held. Tiles `out` has
/// already are skipped. options.progress is called before each tile made (rounds: tiles;
/// sources done of all; false cancels: cancelled_error) and once at the end. Drivers:
/// drivers::rphast_table, cuda_table (the closure uploaded again for each tile), ch_table (the
/// targets' side prepared once for all tiles) and block_rows (Dijkstra from the sources); a whole-matrix plan is refused.
plan solve_table_tiles(const graph& g, std::span<const std::int64_t> sources,
                       std::span<const std::int64_t> targets, const plan& p,
                       const solve_options& options, table_tile_sink& out);

} // namespace apsp
