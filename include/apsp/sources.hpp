#pragma once
/// @file sources.hpp
/// Shortest paths from a set of sources (SciPy's `indices=`): one row of n distances per
/// source, never the n x n matrix.

#include <cstdint>
#include <memory>
#include <span>
#include <variant>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/options.hpp"
#include "apsp/types.hpp"

namespace apsp {

/// Which negative cycles refuse a solve from sources.
enum class cycle_scope {
  reachable,  ///< those reachable from a source, the only ones that change an answer (SciPy's
              ///< bellman_ford and dijkstra)
  whole_graph ///< any in the graph (SciPy's johnson)
};

struct source_options {
  /// Element type of the distances; integer types need whole weights and report "no path" as
  /// weight_traits<T>::infinity.
  dtype type = dtype::float64;
  /// Also return SciPy's predecessor rows.
  bool predecessors = false;
  /// CPU threads, spread across the sources; 0 = all hardware threads.
  int threads = 0;
  cycle_scope cycles = cycle_scope::reachable;
  /// Called after each group of sources ("round"); return false to cancel (cancelled_error).
  progress_callback progress;
};

/// Rows of distances, one per source, in the element type of source_options::type.
using any_rows = std::variant<std::vector<std::int32_t>, std::vector<float>,
                              std::vector<std::int64_t>, std::vector<double>>;

struct source_result {
  std::int64_t n = 0;
  /// The sources asked for, in the order asked (repeats kept).
  std::vector<std::int64_t> sources;
  /// sources.size() x n, row-major: row r holds the distances from sources[r] (infinity of the
  /// type where unreachable, 0 at the source).
  any_rows distances;
  /// Same shape: the vertex before t on a shortest path from sources[r], no_predecessor
  /// (-9999) at the source and where t is unreachable. Empty without
  /// source_options::predecessors.
  std::vector<std::int32_t> predecessors;
};

/// Shortest paths of `g` from each vertex in `sources` (0..n-1; repeats allowed): Bellman-Ford
/// potentials only when some reachable weight is negative, then Dijkstra from the sources on
/// all threads. Memory: the graph, the output rows and O(n) per thread.
/// Throws invalid_argument_error (a source out of range), overflow_risk_error and
/// invalid_input_error (integer types), negative_cycle_error (naming one cycle in order),
/// cancelled_error.
[[nodiscard]] source_result solve_from_sources(const graph& g,
                                               std::span<const std::int64_t> sources,
                                               const source_options& options = {});

/// The host memory solve_from_sources takes for `rows` sources of a graph of `n` vertices and
/// `arcs` arcs: the rows (and predecessors), the CSR copy and each thread's Dijkstra scratch.
/// The CLI refuses with it before reading a file whose header declares n (arcs 0 then).
[[nodiscard]] std::uint64_t source_rows_host_bytes(std::int64_t n, std::int64_t arcs,
                                                   std::size_t rows,
                                                   const source_options& options = {}) noexcept;

namespace detail {
struct source_solver_state;
} // namespace detail

/// A graph made ready once for many solve_from_sources calls with the same options (the CLI's
/// batches of sources): the weight checks, the CSR copy and, with cycle_scope::whole_graph, the
/// Bellman-Ford potentials are done here, not again for every call. `g` must outlive the
/// solver (with cycle_scope::reachable and negative weights each call reads its edges again).
class source_solver {
public:
  /// Throws what solve_from_sources throws before its first search: invalid_argument_error (bad
  /// threads, too many vertices), overflow_risk_error and invalid_input_error (integer types),
  /// negative_cycle_error (with cycle_scope::whole_graph).
  source_solver(const graph& g, const source_options& options);
  ~source_solver();
  source_solver(source_solver&&) noexcept;
  source_solver& operator=(source_solver&&) noexcept;

  /// The rows of solve_from_sources(g, sources, options), with `progress` in place of
  /// options.progress.
  [[nodiscard]] source_result solve(std::span<const std::int64_t> sources,
                                    const progress_callback& progress = {}) const;

private:
  std::unique_ptr<const detail::source_solver_state> state_;
};

/// A graph in compressed sparse rows held by the caller (SciPy's csr_matrix: indptr, indices,
/// data), read in place. Arc a, offsets[u] <= a < offsets[u + 1], runs from u to targets[a] with
/// weight weights[a]. As SciPy reads a sparse matrix: every stored entry is an arc, explicit
/// zeros included; parallel arcs keep the least; +inf is no arc; NaN and -inf are refused.
/// Index: std::int32_t or std::int64_t; Weight: double or float.
template <class Index, class Weight> struct csr_view {
  std::int64_t n = 0;
  std::span<const Index> offsets; ///< n + 1 entries, from 0, non-decreasing, ending at the arcs
  std::span<const Index> targets;
  std::span<const Weight> weights;
  /// Every arc also runs backwards (SciPy's directed=False).
  bool symmetric = false;
  /// Every arc weighs 1 (SciPy's unweighted=True; +inf entries are still no arc).
  bool unit_weights = false;
};

/// solve_from_sources on a CSR graph, with the same rows. A graph whose arcs are all >= 0,
/// directed, with each row's targets strictly increasing (SciPy's canonical format) and weights
/// the type holds, is searched in place: nothing is copied. Any other (symmetric, negative
/// weights, unsorted or repeated targets) is copied once into an edge list first.
/// Throws invalid_argument_error for malformed offsets or array lengths, invalid_input_error
/// for a target outside 0..n-1 or a NaN or -inf weight, and what the edge-list call throws.
template <class Index, class Weight>
[[nodiscard]] source_result solve_from_sources(const csr_view<Index, Weight>& g,
                                               std::span<const std::int64_t> sources,
                                               const source_options& options = {});

/// The CSR graph as an edge list, with solve_from_sources(csr_view)'s rules and refusals: every
/// stored entry an arc (explicit zeros included), +inf none, symmetric and unit_weights applied.
/// What make_plan reads for such a graph (the Python binding plans `indices=` rows on it).
/// Throws invalid_argument_error for malformed offsets or array lengths, invalid_input_error for
/// a target outside 0..n-1 or a NaN or -inf weight.
template <class Index, class Weight>
[[nodiscard]] graph graph_of(const csr_view<Index, Weight>& g);

/// The (Index, Weight) pairs of the CSR overload, instantiated in src/cpu/from_sources.cpp:
/// X(Index, Weight) for each.
#define APSP_CSR_SOURCE_TYPES(X)                                                                   \
  X(std::int32_t, double) X(std::int32_t, float) X(std::int64_t, double) X(std::int64_t, float)
#define APSP_CSR_SOURCES(Index, Weight)                                                            \
  extern template source_result solve_from_sources(const csr_view<Index, Weight>&,                \
                                                   std::span<const std::int64_t>,                  \
                                                   const source_options&);                         \
  extern template graph graph_of(const csr_view<Index, Weight>&);
APSP_CSR_SOURCE_TYPES(APSP_CSR_SOURCES)
#undef APSP_CSR_SOURCES

} // namespace apsp
