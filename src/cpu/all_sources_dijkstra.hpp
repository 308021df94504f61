#pragma once
// Johnson's second phase: Dijkstra from every source on all threads, each source's row written
// straight into the distance (and path) matrix, so a memory-mapped output streams to disk.

#include <cstdint>
#include <span>
#include <vector>

#include "apsp/matrix.hpp"
#include "core/backend.hpp"
#include "core/row_sink.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/potentials.hpp"

namespace apsp::cpu {

struct dijkstra_config {
  int threads = 1;
  /// Sources between two progress reports (one "round" of the plan).
  std::int64_t sources_per_round = 1;
};

/// Johnson's first phase in a run: where the run has a negative weight (or `g` a negative
/// self-loop), the potentials h, after a stage line, with `g` reweighted by them; else none (the
/// weights are already >= 0).
template <class W>
[[nodiscard]] std::vector<W> potentials_for_run(csr_graph<W>& g, detail::run_context& ctx) {
  std::vector<W> h;
  if (ctx.negative_weights() || g.negative_loop >= 0) {
    ctx.stage("Bellman-Ford potentials (negative weights)");
    h = johnson_potentials(g);
    reweight(g, h);
  }
  return h;
}

/// Fills every row of `d` (and of `via` when non-null) from `g`, whose weights are already
/// reweighted (all >= 0); `h` holds the potentials (empty: all zero, no reweighting happened).
/// d[s][t] = dist'(s, t) - h[s] + h[t], infinity when unreachable; via[s][t] = the predecessor
/// of t in the shortest-path tree of s when that is not s itself (an intermediate vertex of a
/// shortest path, as Floyd-Warshall's via means), else no_via. Dial's buckets for integer
/// weights below bucket_queue::max_buckets, a radix heap for larger ones, a 4-ary heap for
/// floats. Calls ctx.round_done after each round (it may throw cancelled_error).
template <class T>
void all_sources_dijkstra(const csr_graph<johnson_key_t<T>>& g,
                          const std::vector<johnson_key_t<T>>& h, dense_matrix<T>& d,
                          via_matrix* via, const dijkstra_config& cfg, detail::run_context& ctx);

/// Dijkstra from every vertex of `g` (reweighted, with potentials `h` as above) on cfg.threads
/// threads, each row made in its thread's own buffer of g.n values and handed to
/// sink.take(thread, source, row) before the thread's next source: O(n) memory per thread.
/// sink.start(threads) comes first; ctx.round_done after every cfg.sources_per_round sources.
template <class T>
void sink_dijkstra(const csr_graph<johnson_key_t<T>>& g, const std::vector<johnson_key_t<T>>& h,
                   detail::row_sink<T>& sink, const dijkstra_config& cfg,
                   detail::run_context& ctx);

/// How a row of the shortest-path tree is written.
enum class tree_format {
  via,         ///< Floyd-Warshall's path matrix: no_via where the parent is the source itself
  predecessors ///< SciPy's: the parent of every reached vertex, no_predecessor at the source
};

/// Dijkstra from each of `sources` (any order, repeats allowed) on all threads: row r of `d`
/// (sources.size() rows of g.n values) and of `tree` (same shape, or null) for sources[r], with
/// the values of all_sources_dijkstra. Rounds of cfg.sources_per_round sources for progress.
template <class T>
void sources_dijkstra(const csr_graph<johnson_key_t<T>>& g, const std::vector<johnson_key_t<T>>& h,
                      std::span<const std::int32_t> sources, T* d, std::int32_t* tree,
                      tree_format format, const dijkstra_config& cfg, detail::run_context& ctx);

/// A CSR graph held by the caller (apsp::csr_view), read in place: arc a of u, offsets[u] <= a <
/// offsets[u + 1], runs to targets[a] with weight weights[a] (1 with unit_weights). The caller
/// has checked that every weight is finite, >= 0 and below what T can hold.
template <class Index, class Weight> struct borrowed_csr {
  std::int64_t n = 0;
  const Index* offsets = nullptr;
  const Index* targets = nullptr;
  const Weight* weights = nullptr;
  bool unit_weights = false;
};

/// sources_dijkstra on a borrowed graph (no potentials: its weights are non-negative). Weights
/// are converted as csr_from_edges converts them, so the rows are the same as on its copy.
template <class T, class Index, class Weight>
void sources_dijkstra(const borrowed_csr<Index, Weight>& g, std::span<const std::int32_t> sources,
                      T* d, std::int32_t* tree, tree_format format, const dijkstra_config& cfg,
                      detail::run_context& ctx);

} // namespace apsp::cpu
