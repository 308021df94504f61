#include "cpu/phast.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

#include "apsp/error.hpp"
#include "apsp/types.hpp"
#include "cpu/cpu_isa.hpp"
#include "cpu/dijkstra_queues.hpp"
#include "cpu/row_progress.hpp"
#include "cpu/upward_search.hpp"

namespace apsp::cpu {
namespace {

/// A distance found by a source's upward search: where the sweep starts from.
template <class T> struct seed {
  std::int32_t position;
  std::int32_t lane;
  T dist;
};

/// What one sweep reads and writes: `d` holds K lanes per position.
template <class T> struct sweep_args {
  const contraction_hierarchy<T>* ch;
  const seed<T>* seeds; // sorted by position
  std::size_t seed_count;
  T* d;
  T cap;
};

/// The downward sweep for K sources at once: positions in increasing order (ranks decreasing),
/// each one's K distances the minimum of its seeds and of its downward arcs' tails plus their
/// weights. Values stay <= cap and weights < cap, so a sum fits T (cap + cap < T's max).
template <class T, int K> [[gnu::always_inline]] inline void sweep_body(const sweep_args<T>& s) {
  const auto& ch = *s.ch;
  const auto n = static_cast<std::size_t>(ch.n);
  const std::int64_t* offsets = ch.down_offsets.data();
  const ch_arc<T>* arcs = ch.down_arcs.data();
  T* __restrict d = s.d;
  const T cap = s.cap;
  std::size_t next_seed = 0;
  for (std::size_t p = 0; p < n; ++p) {
    T acc[K];
    for (int k = 0; k < K; ++k)
      acc[k] = cap;
    while (next_seed < s.seed_count && static_cast<std::size_t>(s.seeds[next_seed].position) == p) {
      const auto& sd = s.seeds[next_seed++];
      acc[sd.lane] = sd.dist;
    }
    for (std::int64_t a = offsets[p]; a < offsets[p + 1]; ++a) {
      const T* du = d + static_cast<std::size_t>(arcs[a].other) * K;
      const T w = arcs[a].weight;
      for (int k = 0; k < K; ++k) {
        const T c = du[k] + w;
        acc[k] = c < acc[k] ? c : acc[k];
      }
    }
    for (int k = 0; k < K; ++k)
      d[p * K + k] = acc[k];
  }
}

template <class T, int K> void sweep_scalar(const sweep_args<T>& s) {
  sweep_body<T, K>(s);
}
template <class T, int K> [[gnu::target("avx2")]] void sweep_avx2(const sweep_args<T>& s) {
  sweep_body<T, K>(s);
}
template <class T, int K>
[[gnu::target("avx512f,avx512bw,avx512vl,avx512dq")]] void sweep_avx512(const sweep_args<T>& s) {
  sweep_body<T, K>(s);
}

template <class T> using sweep_fn = void (*)(const sweep_args<T>&);

template <class T, int K> sweep_fn<T> sweep_for(detail::cpu::isa isa) {
  switch (isa) {
  case detail::cpu::isa::avx512:
    return &sweep_avx512<T, K>;
  case detail::cpu::isa::avx2:
    return &sweep_avx2<T, K>;
  case detail::cpu::isa::scalar:
    break;
  }
  return &sweep_scalar<T, K>;
}

/// n * K values aligned to a cache line, so a position's lanes share as few lines as they can.
template <class T> struct aligned_lanes {
  struct release {
    void operator()(T* p) const noexcept { std::free(p); }
  };
  explicit aligned_lanes(std::size_t count) {
    const std::size_t bytes = std::max<std::size_t>(64, (count * sizeof(T) + 63) / 64 * 64);
    data.reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
    if (!data)
      throw std::bad_alloc();
  }
  std::unique_ptr<T, release> data;
};

template <class T, int K>
void run_phast(const contraction_hierarchy<T>& ch, const std::vector<T>& h,
               detail::row_sink<T>& sink, const dijkstra_config& cfg, detail::run_context& ctx) {
  const std::int64_t n = ch.n;
  if (n == 0)
    return;
  constexpr T cap = weight_traits<T>::infinity; // what the sink reads as "no path"
  const sweep_fn<T> sweep = sweep_for<T, K>(detail::cpu::selected_isa());
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
    std::vector<seed<T>> seeds;
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
      std::sort(seeds.begin(), seeds.end(),
                [](const seed<T>& x, const seed<T>& y) { return x.position < y.position; });
      sweep(sweep_args<T>{&ch, seeds.data(), seeds.size(), d.data.get(), cap});
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
