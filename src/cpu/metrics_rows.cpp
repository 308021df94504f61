// The rows behind apsp::compute_metrics on sparse graphs: Johnson's algorithm whose rows go to
// the core's reduction one by one (core/row_sink.hpp's dijkstra_rows) instead of into a matrix,
// made by Dijkstra or, on road-like integer graphs, by PHAST's sweeps.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "core/backend.hpp"
#include "core/row_sink.hpp"
#include "core/thread_count.hpp"
#include "cpu/all_sources_dijkstra.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/phast.hpp"
#include "cpu/potentials.hpp"

namespace apsp::detail {

row_engine choose_row_engine(const graph& edges, dtype type, const tuning& t) {
  const bool integral = type == dtype::int32 || type == dtype::int64;
  return t.cpu_phast && cpu::phast_pays(edges.num_vertices(), edges.num_edges(), integral)
             ? row_engine::phast
             : row_engine::dijkstra;
}

std::string_view row_engine_name(row_engine e) noexcept {
  return e == row_engine::phast ? "contraction hierarchy sweeps (PHAST)" : "Dijkstra in batches";
}

template <class T>
row_engine dijkstra_rows(const graph& edges, std::int64_t batch, row_engine engine,
                         row_sink<T>& sink, run_context& ctx) {
  auto g = cpu::csr_from_edges<T>(edges);
  const std::vector<cpu::johnson_key_t<T>> h = cpu::potentials_for_run(g, ctx);
  cpu::dijkstra_config cfg;
  cfg.threads = thread_count(ctx.options());
  cfg.sources_per_round = batch;
  if constexpr (std::is_integral_v<T>) {
    if (engine == row_engine::phast) {
      const auto t0 = std::chrono::steady_clock::now();
      cpu::contraction_limits limits;
      limits.threads = cfg.threads; // the rows' threads build the hierarchy too
      ctx.stage("building the contraction hierarchy");
      const auto ch = cpu::phast_hierarchy<T>(g, limits);
      if (ctx.tuning().cpu_phast_verbose) {
        const std::chrono::duration<double> s = std::chrono::steady_clock::now() - t0;
        std::fprintf(stderr,
                     "apsp phast: hierarchy of n = %lld, %lld arcs in %.3f s: %s, %lld shortcuts, "
                     "%d levels, %lld upward and %lld downward arcs\n",
                     static_cast<long long>(g.n), static_cast<long long>(g.num_arcs()), s.count(),
                     ch.complete ? "complete" : "over budget (Dijkstra instead)",
                     static_cast<long long>(ch.shortcuts), ch.levels,
                     static_cast<long long>(ch.up_arcs.size()),
                     static_cast<long long>(ch.down_arcs.size()));
      }
      if (ch.complete) {
        g = {}; // the hierarchy holds every arc the rows need
        const int lanes = ctx.tuning().cpu_phast_lanes > 0 ? ctx.tuning().cpu_phast_lanes
                                                           : cpu::phast_default_lanes<T>();
        cpu::sink_phast<T>(ch, h, sink, cfg, lanes, ctx);
        return row_engine::phast;
      }
    }
  }
  cpu::sink_dijkstra<T>(g, h, sink, cfg, ctx);
  return row_engine::dijkstra;
}

#define APSP_DIJKSTRA_ROWS(T)                                                                      \
  template row_engine dijkstra_rows<T>(const graph&, std::int64_t, row_engine, row_sink<T>&,       \
                                       run_context&);
APSP_DIJKSTRA_ROWS(std::int32_t)
APSP_DIJKSTRA_ROWS(float)
APSP_DIJKSTRA_ROWS(std::int64_t)
APSP_DIJKSTRA_ROWS(double)
#undef APSP_DIJKSTRA_ROWS

} // namespace apsp::detail
