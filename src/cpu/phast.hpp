#pragma once
// PHAST (Delling, Goldberg, Nowatzyk, Werneck 2011): the distances from one source to every
// vertex as a small upward search in a contraction hierarchy, then one linear sweep over the
// vertices in decreasing rank that relaxes their downward arcs; several sources share a sweep,
// one SIMD lane each. The rows are exactly Dijkstra's (integer weights only: sums are exact).

#include <cstdint>
#include <vector>

#include "core/backend.hpp"
#include "core/row_sink.hpp"
#include "cpu/all_sources_dijkstra.hpp"
#include "cpu/contraction_hierarchy.hpp"
#include "cpu/csr_graph.hpp"

namespace apsp::cpu {

/// The sweep's lanes (sources per sweep) when not asked for: 16 for int32, 8 for int64.
template <class T> [[nodiscard]] constexpr int phast_default_lanes() noexcept {
  return sizeof(T) == 4 ? 16 : 8;
}

/// Whether PHAST should replace Dijkstra for the rows of a graph with n vertices and m arcs:
/// integer weights, at least phast_min_vertices vertices (below, Dijkstra's rows take too little
/// time for a hierarchy to pay back) and at most phast_max_degree arcs per vertex (road-like
/// graphs, whose small separators keep the hierarchy small).
inline constexpr std::int64_t phast_min_vertices = 5000;
inline constexpr double phast_max_degree = 4.0;
[[nodiscard]] inline bool phast_pays(std::int64_t n, std::int64_t m, bool integral) noexcept {
  return integral && n >= phast_min_vertices &&
         static_cast<double>(m) <= phast_max_degree * static_cast<double>(n);
}

/// The hierarchy sink_phast runs on, for g (reweighted: weights >= 0) whose distances stay
/// below weight_traits<T>::infinity (the overflow check's guarantee).
template <class T>
[[nodiscard]] contraction_hierarchy<T> phast_hierarchy(const csr_graph<T>& g,
                                                       const contraction_limits& limits = {});

/// sink_dijkstra's rows (same values, same sink calls: start, then take once per source, and
/// ctx.round_done after every cfg.sources_per_round sources) from the hierarchy `ch` of the
/// reweighted graph with potentials `h` (empty: none), `lanes` sources per sweep (1, 4, 8 or
/// 16) on cfg.threads threads; each sweep goes to the sink by position (row_sink::take_sweep).
/// Memory per thread: n * lanes distances, and n * lanes row values for a sink that takes the
/// rows in vertex order (take_sweep's default).
template <class T>
void sink_phast(const contraction_hierarchy<T>& ch, const std::vector<T>& h,
                detail::row_sink<T>& sink, const dijkstra_config& cfg, int lanes,
                detail::run_context& ctx);

} // namespace apsp::cpu
