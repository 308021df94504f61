#pragma once
// Johnson's second phase: Dijkstra from every source on all threads, each source's row written
// straight into the distance (and path) matrix, so a memory-mapped output streams to disk.

#include <cstdint>
#include <vector>

#include "apsp/matrix.hpp"
#include "core/backend.hpp"
#include "cpu/csr_graph.hpp"

namespace apsp::cpu {

struct dijkstra_config {
  int threads = 1;
  /// Sources between two progress reports (one "round" of the plan).
  std::int64_t sources_per_round = 1;
};

/// Fills every row of `d` (and of `via` when non-null) from `g`, whose weights are already
/// reweighted (all >= 0); `h` holds the potentials (empty: all zero, no reweighting happened).
/// d[s][t] = dist'(s, t) - h[s] + h[t], infinity when unreachable; via[s][t] = the predecessor
/// of t in the shortest-path tree of s when that is not s itself (an intermediate vertex of a
/// shortest path, as Floyd-Warshall's via means), else no_via. Radix heap for integer types,
/// 4-ary heap for floats. Calls ctx.round_done after each round (it may throw cancelled_error).
template <class T>
void all_sources_dijkstra(const csr_graph<johnson_key_t<T>>& g,
                          const std::vector<johnson_key_t<T>>& h, dense_matrix<T>& d,
                          via_matrix* via, const dijkstra_config& cfg, detail::run_context& ctx);

} // namespace apsp::cpu
