#pragma once
// The planner of what is asked besides the whole matrix (apsp::make_plan(graph, options,
// asked)): the metrics' engine (rows or a matrix) and a block's (rows or the whole matrix),
// chosen with the whole-matrix planning of core/solve.cpp and the cost model of
// core/algorithm_choice.hpp, and one pair's (one bidirectional search). Internal: not installed.

#include <cstdint>
#include <optional>
#include <string>

#include "apsp/graph.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "core/backend.hpp"
#include "core/row_sink.hpp"

namespace apsp::detail {

/// Host memory of Dijkstra's rows reduced as they come (metrics, the block engines): the CSR
/// copy shared by the threads (an arc and an offset) ...
inline std::uint64_t dijkstra_rows_shared(std::uint64_t n, std::uint64_t m) noexcept {
  return 16 * m + 8 * n;
}

/// ... and per thread: Dijkstra's scratch (28 bytes a vertex, as Johnson's plan counts), a row
/// and the column sums (count, max, sum, inverse sum).
inline std::uint64_t dijkstra_rows_per_thread(std::uint64_t n, dtype type) noexcept {
  return n * (28 + 2 * size_of(type) + 24);
}

/// The metrics of `edges` (the edges the type holds): rows (drivers::johnson_rows or
/// phast_rows) when asked (algorithm_kind::johnson), when auto picks Johnson, or when the n x n
/// matrix of the plan auto would run cannot be kept in RAM (unless the GPUs hold it and reduce
/// it where they solve it); else that matrix plan, counted without the matrix in RAM when its
/// back end reduces it where it solves it (reduced_where_solved).
[[nodiscard]] plan plan_metrics(const graph& edges, const solve_options& o);

/// The block of `sources` x `targets` distances of `g` (-1: every vertex): rows from the smaller
/// side (drivers::block_rows), or the whole matrix (any whole-matrix plan, its
/// algorithm_reason saying why) when the options ask for it (--algorithm fw or supernodal,
/// --backend cuda or reference, devices, a device memory limit) or, under auto, when it fits
/// in RAM and the cost model says it ends before the rows.
[[nodiscard]] plan plan_block(const graph& g, const solve_options& o, std::int64_t sources,
                              std::int64_t targets);
/// plan_block's decision where the counts alone make it (apsp::make_plan_by_counts):
/// Dijkstra's rows with predecessors or Johnson asked, or under auto when the searches end
/// before writing the n x n matrix, starting a GPU or building a contraction hierarchy could.
[[nodiscard]] std::optional<plan> plan_block_by_counts(std::int64_t n, std::int64_t m,
                                                       const solve_options& o, std::int64_t sources,
                                                       std::int64_t targets);

/// One pair's shortest path (drivers::pair_search): one bidirectional search on the cpu, with
/// Bellman-Ford potentials first when a weight of `g` is negative (core/pair_planner.cpp).
[[nodiscard]] plan plan_pair(const graph& g, const solve_options& o);

/// The row engine of a rows plan (drivers::johnson_rows or phast_rows); none for other drivers.
[[nodiscard]] std::optional<row_engine> row_engine_of(const driver& d) noexcept;

/// Rows plan `p` as it ran when PHAST fell back to Dijkstra (its hierarchy outgrew the budget):
/// the driver and memory of `ran`, the reason saying so.
[[nodiscard]] plan rows_plan_as_ran(const graph& edges, const solve_options& o, plan p,
                                    row_engine ran);

/// Whether matrix plan `p`'s back end reduces the matrix where it solves it (a GPU), so that
/// no n x n matrix is made in host memory.
[[nodiscard]] bool reduced_where_solved(const plan& p);

} // namespace apsp::detail
