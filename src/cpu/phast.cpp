#include "cpu/phast.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

#include "apsp/error.hpp"
#include "apsp/types.hpp"
#include "cpu/dijkstra_queues.hpp"
#include "cpu/downward_sweep.hpp"
#include "cpu/row_progress.hpp"
#include "cpu/upward_search.hpp"

namespace apsp::cpu {
namespace {

template <class T, int K>
void run_phast(const contraction_hierarchy<T>& ch, const std::vector<T>& h,
               detail::row_sink<T>& sink, const dijkstra_config& cfg, detail::run_context& ctx) {
  const std::int64_t n = ch.n;
  if (n == 0)
    return;
  constexpr T cap = weight_traits<T>::infinity; // what the sink reads as "no path"
  const sweep_fn<T> sweep = downward_sweep<T>(K);
  const std::int64_t batches = (n + K - 1) / K;
  const int workers = static_cast<int>(std::min<std::int64_t>(std::max(1, cfg.threads), batches));
  sink.start(workers);
  row_progress progress(n, cfg.sources_per_round, ctx); // as Dijkstra's rows: no barrier
  const auto un = static_cast<std::size_t>(n);
  // The potentials in sweep order, so that a sink reducing by position reads them in step.
  std::vector<T> potential_at;
  if (!h.empty()) {
    potential_at.resize(un);
    for (std::size_t p = 0; p < un; ++p)
      potential_at[p] = h[static_cast<std::size_t>(ch.vertex_at[p])];
  }
#pragma omp parallel num_threads(workers)
  {
    // Each thread allocates (and so first touches) its own buffers.
    aligned_lanes<T> d(un * K);
    std::vector<T> scratch; // for sinks that want rows in vertex order (row_sink::take_sweep)
    upward_search<T> up(n, cap);
    std::vector<sweep_seed<T>> seeds;
    const int worker = omp_get_thread_num();
    for (std::int64_t first; (first = progress.take(n, K)) >= 0;) {
      const int count = static_cast<int>(std::min<std::int64_t>(K, n - first));
      seeds.clear();
      // The upward half of PHAST: every vertex a source's upward search reaches (a few hundred
      // on road graphs) seeds the sweep in that source's lane.
      for (int k = 0; k < count; ++k) {
        up.run(ch.up_offsets, ch.up_arcs, ch.position[static_cast<std::size_t>(first + k)]);
        for (const std::int32_t p : up.reached())
          seeds.push_back({p, k, up.dist(p)});
      }
      std::sort(seeds.begin(), seeds.end(), [](const sweep_seed<T>& x, const sweep_seed<T>& y) {
        return x.position < y.position;
      });
      sweep(sweep_args<T>{n, ch.down_offsets.data(), ch.down_arcs.data(), seeds.data(),
                          seeds.size(), d.data.get(), cap});
      // The sweep's lanes as they lie, by position: the sink reads them once for all the rows,
      // in the order the sweep wrote them.
      sink.take_sweep(worker,
                      detail::sweep_rows<T>{first, count, n, d.data.get(), K, ch.position.data(),
                                            ch.vertex_at.data(),
                                            h.empty() ? nullptr : potential_at.data()},
                      scratch);
      progress.done(count, worker == 0, ctx);
    }
  }
  progress.finish(ctx);
}

} // namespace

template <class T>
contraction_hierarchy<T> phast_hierarchy(const csr_graph<T>& g, const contraction_limits& limits) {
  return build_contraction_hierarchy<T>(g, weight_traits<T>::infinity, limits);
}

template <class T>
void sink_phast(const contraction_hierarchy<T>& ch, const std::vector<T>& h,
                detail::row_sink<T>& sink, const dijkstra_config& cfg, int lanes,
                detail::run_context& ctx) {
  APSP_EXPECTS(ch.complete, internal_error, "PHAST on an incomplete contraction hierarchy");
  switch (lanes) {
  case 1:
    return run_phast<T, 1>(ch, h, sink, cfg, ctx);
  case 4:
    return run_phast<T, 4>(ch, h, sink, cfg, ctx);
  case 8:
    return run_phast<T, 8>(ch, h, sink, cfg, ctx);
  case 16:
    return run_phast<T, 16>(ch, h, sink, cfg, ctx);
  default:
    throw invalid_argument_error("PHAST lanes must be 1, 4, 8 or 16, got " + std::to_string(lanes));
  }
}

#define APSP_PHAST(T)                                                                              \
  template contraction_hierarchy<T> phast_hierarchy<T>(const csr_graph<T>&,                        \
                                                       const contraction_limits&);                 \
  template void sink_phast<T>(const contraction_hierarchy<T>&, const std::vector<T>&,              \
                              detail::row_sink<T>&, const dijkstra_config&, int,                   \
                              detail::run_context&);
APSP_PHAST(std::int32_t)
APSP_PHAST(std::int64_t)
#undef APSP_PHAST

} // namespace apsp::cpu
