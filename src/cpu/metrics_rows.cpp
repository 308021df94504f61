// The rows behind apsp::compute_metrics on sparse graphs: Johnson's algorithm whose rows go to
// the core's reduction one by one (core/backend.hpp's dijkstra_rows) instead of into a matrix.

#include <cstdint>
#include <vector>

#include "core/backend.hpp"
#include "core/thread_count.hpp"
#include "cpu/all_sources_dijkstra.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/potentials.hpp"

namespace apsp::detail {

template <class T>
void dijkstra_rows(const graph& edges, std::int64_t batch, row_sink<T>& sink, run_context& ctx) {
  auto g = cpu::csr_from_edges<T>(edges);
  std::vector<cpu::johnson_key_t<T>> h;
  if (ctx.negative_weights() || g.negative_loop >= 0) {
    h = cpu::johnson_potentials(g);
    cpu::reweight(g, h);
  }
  cpu::dijkstra_config cfg;
  cfg.threads = thread_count(ctx.options());
  cfg.sources_per_round = batch;
  cpu::sink_dijkstra<T>(g, h, sink, cfg, ctx);
}

template void dijkstra_rows<std::int32_t>(const graph&, std::int64_t, row_sink<std::int32_t>&,
                                          run_context&);
template void dijkstra_rows<float>(const graph&, std::int64_t, row_sink<float>&, run_context&);
template void dijkstra_rows<std::int64_t>(const graph&, std::int64_t, row_sink<std::int64_t>&,
                                          run_context&);
template void dijkstra_rows<double>(const graph&, std::int64_t, row_sink<double>&, run_context&);

} // namespace apsp::detail
