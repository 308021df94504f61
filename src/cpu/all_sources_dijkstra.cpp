#include "cpu/all_sources_dijkstra.hpp"

#include <omp.h>

#include <algorithm>
#include <limits>
#include <type_traits>
#include <utility>

#include "apsp/result.hpp"
#include "cpu/dijkstra_queues.hpp"
#include "cpu/row_progress.hpp"

namespace apsp::cpu {
namespace {

/// csr_graph's arcs as one_source reads them (raw pointers, held by value, so the loop keeps them
/// in registers across the queue's stores).
template <class W> struct packed_arcs {
  using weight_type = W;
  explicit packed_arcs(const csr_graph<W>& g)
      : n_(g.n), offsets_(g.offsets.data()), arcs_(g.arcs.data()),
        original_(g.original_weights.empty() ? nullptr : g.original_weights.data()) {}
  [[nodiscard]] std::int64_t n() const noexcept { return n_; }
  [[nodiscard]] std::int64_t begin(std::size_t u) const noexcept { return offsets_[u]; }
  [[nodiscard]] std::int64_t end(std::size_t u) const noexcept { return offsets_[u + 1]; }
  [[nodiscard]] std::int32_t target(std::int64_t a) const noexcept { return arcs_[a].target; }
  [[nodiscard]] W weight(std::int64_t a) const noexcept { return arcs_[a].weight; }
  [[nodiscard]] const W* original() const noexcept { return original_; }
  /// Starts loading u's arcs (the vertex the queue will most likely hand out next).
  void prefetch(std::size_t u) const noexcept { __builtin_prefetch(arcs_ + offsets_[u]); }

private:
  std::int64_t n_;
  const std::int64_t* offsets_;
  const csr_arc<W>* arcs_;
  const W* original_;
};

/// A borrowed_csr's arcs, each weight converted on the fly as csr_from_edges converts it
/// (to T, then to the key type), or 1 with unit_weights.
template <class T, class Index, class Weight> struct borrowed_arcs {
  using weight_type = johnson_key_t<T>;
  borrowed_csr<Index, Weight> g; // a copy: its pointers stay in registers
  [[nodiscard]] std::int64_t n() const noexcept { return g.n; }
  [[nodiscard]] std::int64_t begin(std::size_t u) const noexcept { return g.offsets[u]; }
  [[nodiscard]] std::int64_t end(std::size_t u) const noexcept { return g.offsets[u + 1]; }
  [[nodiscard]] std::int32_t target(std::int64_t a) const noexcept {
    return static_cast<std::int32_t>(g.targets[a]);
  }
  [[nodiscard]] weight_type weight(std::int64_t a) const noexcept {
    if (g.unit_weights)
      return weight_type{1};
    return static_cast<weight_type>(static_cast<T>(static_cast<double>(g.weights[a])));
  }
  [[nodiscard]] const weight_type* original() const noexcept { return nullptr; }
  void prefetch(std::size_t u) const noexcept {
    const Index a = g.offsets[u];
    __builtin_prefetch(g.targets + a);
    if (!g.unit_weights)
      __builtin_prefetch(g.weights + a);
  }
};

/// The largest arc weight of `g` (0 without arcs): how far a push may run ahead of a pop.
template <class Arcs> std::uint64_t max_weight(const Arcs& g) {
  using W = typename Arcs::weight_type;
  W most{0};
  const std::int64_t arcs = g.n() > 0 ? g.end(static_cast<std::size_t>(g.n() - 1)) : 0;
  for (std::int64_t a = 0; a < arcs; ++a)
    most = std::max(most, g.weight(a));
  return static_cast<std::uint64_t>(most);
}

/// The queue for one run: Dial's buckets for integer weights up to bucket_queue::fits (road
/// graphs), else a radix heap on the unsigned key type; a 4-ary heap for floats.
enum class queue_kind { buckets, radix, dary };

template <class T, queue_kind Kind> struct queue_select {
  using type = dary_heap<johnson_key_t<T>, 4>;
};
template <class T> struct queue_select<T, queue_kind::buckets> {
  using type = bucket_queue<std::make_unsigned_t<johnson_key_t<T>>>;
};
template <class T> struct queue_select<T, queue_kind::radix> {
  using type = radix_heap<std::make_unsigned_t<johnson_key_t<T>>>;
};
template <class T, queue_kind Kind> using queue_for = typename queue_select<T, Kind>::type;

/// One thread's scratch space, reused for every source it runs.
template <class T, queue_kind Kind> struct workspace {
  using W = johnson_key_t<T>;
  static constexpr W unreached = std::numeric_limits<W>::max();
  /// `max_step`: the largest arc weight (bucket_queue's span).
  workspace(std::int64_t n, bool real_lengths, std::uint64_t max_step)
      : dist(static_cast<std::size_t>(n), unreached),
        real(real_lengths ? static_cast<std::size_t>(n) : 0) {
    if constexpr (Kind == queue_kind::dary)
      queue = queue_for<T, Kind>(n);
    else if constexpr (Kind == queue_kind::buckets)
      queue = queue_for<T, Kind>(max_step);
  }
  std::vector<W> dist;
  std::vector<std::int32_t> pred; // allocated by the first source that writes a tree
  std::vector<W> real; // with original_weights: the real weight of the path to each vertex
  queue_for<T, Kind> queue;
};

/// Dijkstra from s into ws.dist (and ws.pred with Tree: a row of the tree is asked for).
template <bool Tree, class T, queue_kind Kind, class Arcs>
void search(const Arcs& g, std::int32_t s, workspace<T, Kind>& ws) {
  using W = johnson_key_t<T>;
  using key_type = typename queue_for<T, Kind>::key_type;
  W* const dist = ws.dist.data();
  std::int32_t* const pred = ws.pred.data();
  auto& queue = ws.queue;
  W* real = ws.real.empty() ? nullptr : ws.real.data();
  const W* original = g.original();
  queue.clear();
  dist[static_cast<std::size_t>(s)] = W{0};
  if (real != nullptr)
    real[s] = W{0};
  if constexpr (Tree)
    pred[static_cast<std::size_t>(s)] = s;
  queue.push(key_type{0}, s);
  while (!queue.empty()) {
    const auto top = queue.pop();
    // Road-like graphs are bound by memory latency: start loading the next vertex's arcs and
    // distance while this one's are relaxed.
    if (const std::int32_t next = queue.next_vertex(); next >= 0) {
      g.prefetch(static_cast<std::size_t>(next));
      __builtin_prefetch(dist + next);
    }
    const auto u = static_cast<std::size_t>(top.vertex);
    const W du = dist[u];
    if (top.key != static_cast<key_type>(du))
      continue; // a stale entry: u was reached again at a lower distance (not the 4-ary heap)
    const std::int64_t end = g.end(u);
    for (std::int64_t a = g.begin(u); a < end; ++a) {
      const std::int32_t target = g.target(a);
      const auto v = static_cast<std::size_t>(target);
      const W candidate = du + g.weight(a);
      if (candidate < dist[v]) {
        dist[v] = candidate;
        if constexpr (Tree)
          pred[v] = top.vertex;
        if (real != nullptr)
          real[v] = real[u] + original[a];
        queue.push(static_cast<key_type>(candidate), target);
      }
    }
  }
}

template <class T, queue_kind Kind, class Arcs>
void one_source(const Arcs& g, const std::vector<johnson_key_t<T>>& h, std::int32_t s,
                workspace<T, Kind>& ws, T* out, std::int32_t* via_out, tree_format format) {
  using W = johnson_key_t<T>;
  auto& dist = ws.dist;
  auto& pred = ws.pred;
  W* real = ws.real.empty() ? nullptr : ws.real.data();
  if (via_out != nullptr) {
    if (pred.empty())
      pred.assign(dist.size(), -1);
    search<true>(g, s, ws);
  } else {
    search<false>(g, s, ws);
  }
  // Write the row and reset the scratch for the next source in the same pass.
  const std::int64_t n = g.n();
  constexpr T inf = weight_traits<T>::infinity;
  const W hs = h.empty() ? W{0} : h[static_cast<std::size_t>(s)];
  const std::int32_t none = format == tree_format::via ? no_via : no_predecessor;
  const std::int32_t parent_source = format == tree_format::via ? no_via : s;
  for (std::int64_t t = 0; t < n; ++t) {
    const auto k = static_cast<std::size_t>(t);
    const W dt = dist[k];
    if (dt == workspace<T, Kind>::unreached) {
      out[t] = inf;
      if (via_out != nullptr)
        via_out[t] = none;
      continue;
    }
    if (real != nullptr)
      out[t] = static_cast<T>(real[k]);
    else
      out[t] = h.empty() ? static_cast<T>(dt) : static_cast<T>(dt + (h[k] - hs));
    if (via_out != nullptr)
      via_out[t] = pred[k] == s ? parent_source : pred[k];
    dist[k] = workspace<T, Kind>::unreached;
  }
  out[s] = T{0};
  if (via_out != nullptr)
    via_out[s] = none;
}

/// Nothing to do once a row is written (the rows stay where row_at put them).
struct keep_row {
  template <class T> void operator()(std::int64_t, const T*) const noexcept {}
};

/// The threads run_rows starts for `count` rows.
int row_threads(const dijkstra_config& cfg, std::int64_t count) {
  return static_cast<int>(std::min<std::int64_t>(std::max(1, cfg.threads), count));
}

/// run_rows with the queue of `Kind`.
template <class T, queue_kind Kind, class Arcs, class SourceAt, class RowAt, class RowDone>
void run_rows_with(const Arcs& g, const std::vector<johnson_key_t<T>>& h, std::uint64_t max_step,
                   std::int64_t count, SourceAt source_at, RowAt row_at, tree_format format,
                   const dijkstra_config& cfg, detail::run_context& ctx, RowDone row_done) {
  const int threads = row_threads(cfg, count);
  row_progress progress(count, cfg.sources_per_round, ctx);
#pragma omp parallel num_threads(threads)
  {
    // Each thread allocates (and so first touches) its own scratch space.
    workspace<T, Kind> ws(g.n(), g.original() != nullptr, max_step);
    const bool reporter = omp_get_thread_num() == 0;
    for (std::int64_t i; (i = progress.take(count)) >= 0;) {
      const auto [out, tree_out] = row_at(i);
      one_source<T>(g, h, source_at(i), ws, out, tree_out, format);
      row_done(i, static_cast<const T*>(out));
      progress.done(1, reporter, ctx);
    }
  }
  progress.finish(ctx);
}

/// Runs one_source for rows 0..count-1 (row i from source source_at(i), written at row_at(i),
/// then row_done(i, row) on the same thread) on cfg.threads threads, reporting progress every
/// cfg.sources_per_round rows.
template <class T, class Arcs, class SourceAt, class RowAt, class RowDone = keep_row>
void run_rows(const Arcs& g, const std::vector<johnson_key_t<T>>& h, std::int64_t count,
              SourceAt source_at, RowAt row_at, tree_format format, const dijkstra_config& cfg,
              detail::run_context& ctx, RowDone row_done = {}) {
  if (count == 0 || g.n() == 0)
    return;
  if constexpr (std::is_integral_v<T>) {
    using key_type = std::make_unsigned_t<johnson_key_t<T>>;
    const std::uint64_t step = max_weight(g);
    if (bucket_queue<key_type>::fits(step)) {
      run_rows_with<T, queue_kind::buckets>(g, h, step, count, source_at, row_at, format, cfg, ctx,
                                            row_done);
    } else {
      run_rows_with<T, queue_kind::radix>(g, h, step, count, source_at, row_at, format, cfg, ctx,
                                          row_done);
    }
  } else {
    run_rows_with<T, queue_kind::dary>(g, h, 0, count, source_at, row_at, format, cfg, ctx,
                                       row_done);
  }
}

} // namespace

template <class T>
void all_sources_dijkstra(const csr_graph<johnson_key_t<T>>& g,
                          const std::vector<johnson_key_t<T>>& h, dense_matrix<T>& d,
                          via_matrix* via, const dijkstra_config& cfg, detail::run_context& ctx) {
  run_rows<T>(
      packed_arcs<johnson_key_t<T>>(g), h, g.n, [](std::int64_t s) { return static_cast<std::int32_t>(s); },
      [&](std::int64_t s) {
        return std::pair{d.row(s), via != nullptr ? via->row(s) : nullptr};
      },
      tree_format::via, cfg, ctx);
}

template <class T>
void sink_dijkstra(const csr_graph<johnson_key_t<T>>& g, const std::vector<johnson_key_t<T>>& h,
                   detail::row_sink<T>& sink, const dijkstra_config& cfg,
                   detail::run_context& ctx) {
  if (g.n == 0)
    return;
  // One row per thread, reused for each of its sources and reduced before the next.
  const int workers = row_threads(cfg, g.n);
  std::vector<std::vector<T>> rows(static_cast<std::size_t>(workers),
                                   std::vector<T>(static_cast<std::size_t>(g.n)));
  sink.start(workers);
  run_rows<T>(
      packed_arcs<johnson_key_t<T>>(g), h, g.n,
      [](std::int64_t s) { return static_cast<std::int32_t>(s); },
      [&](std::int64_t) {
        return std::pair{rows[static_cast<std::size_t>(omp_get_thread_num())].data(),
                         static_cast<std::int32_t*>(nullptr)};
      },
      tree_format::via, cfg, ctx,
      [&](std::int64_t s, const T* row) { sink.take(omp_get_thread_num(), s, row); });
}

template <class T>
void sources_dijkstra(const csr_graph<johnson_key_t<T>>& g, const std::vector<johnson_key_t<T>>& h,
                      std::span<const std::int32_t> sources, T* d, std::int32_t* tree,
                      tree_format format, const dijkstra_config& cfg, detail::run_context& ctx) {
  const std::int64_t n = g.n;
  run_rows<T>(
      packed_arcs<johnson_key_t<T>>(g), h, static_cast<std::int64_t>(sources.size()),
      [&](std::int64_t i) { return sources[static_cast<std::size_t>(i)]; },
      [&](std::int64_t i) {
        return std::pair{d + i * n, tree != nullptr ? tree + i * n : nullptr};
      },
      format, cfg, ctx);
}

template <class T, class Index, class Weight>
void sources_dijkstra(const borrowed_csr<Index, Weight>& g, std::span<const std::int32_t> sources,
                      T* d, std::int32_t* tree, tree_format format, const dijkstra_config& cfg,
                      detail::run_context& ctx) {
  const std::int64_t n = g.n;
  run_rows<T>(
      borrowed_arcs<T, Index, Weight>{g}, std::vector<johnson_key_t<T>>{},
      static_cast<std::int64_t>(sources.size()),
      [&](std::int64_t i) { return sources[static_cast<std::size_t>(i)]; },
      [&](std::int64_t i) {
        return std::pair{d + i * n, tree != nullptr ? tree + i * n : nullptr};
      },
      format, cfg, ctx);
}

#define APSP_DIJKSTRA(T)                                                                           \
  template void all_sources_dijkstra<T>(const csr_graph<johnson_key_t<T>>&,                        \
                                        const std::vector<johnson_key_t<T>>&, dense_matrix<T>&,    \
                                        via_matrix*, const dijkstra_config&, detail::run_context&);
APSP_DIJKSTRA(std::int32_t)
APSP_DIJKSTRA(float)
APSP_DIJKSTRA(std::int64_t)
APSP_DIJKSTRA(double)
#undef APSP_DIJKSTRA

#define APSP_SINK_DIJKSTRA(T)                                                                      \
  template void sink_dijkstra<T>(const csr_graph<johnson_key_t<T>>&,                               \
                                 const std::vector<johnson_key_t<T>>&, detail::row_sink<T>&,       \
                                 const dijkstra_config&, detail::run_context&);
APSP_SINK_DIJKSTRA(std::int32_t)
APSP_SINK_DIJKSTRA(float)
APSP_SINK_DIJKSTRA(std::int64_t)
APSP_SINK_DIJKSTRA(double)
#undef APSP_SINK_DIJKSTRA

#define APSP_SOURCES_DIJKSTRA(T)                                                                   \
  template void sources_dijkstra<T>(const csr_graph<johnson_key_t<T>>&,                            \
                                    const std::vector<johnson_key_t<T>>&,                          \
                                    std::span<const std::int32_t>, T*, std::int32_t*, tree_format, \
                                    const dijkstra_config&, detail::run_context&);
APSP_SOURCES_DIJKSTRA(std::int32_t)
APSP_SOURCES_DIJKSTRA(float)
APSP_SOURCES_DIJKSTRA(std::int64_t)
APSP_SOURCES_DIJKSTRA(double)
#undef APSP_SOURCES_DIJKSTRA

#define APSP_BORROWED_DIJKSTRA(T, Index, Weight)                                                   \
  template void sources_dijkstra<T, Index, Weight>(                                                \
      const borrowed_csr<Index, Weight>&, std::span<const std::int32_t>, T*, std::int32_t*,       \
      tree_format, const dijkstra_config&, detail::run_context&);
#define APSP_BORROWED_DIJKSTRA_T(T)                                                                \
  APSP_BORROWED_DIJKSTRA(T, std::int32_t, double)                                                  \
  APSP_BORROWED_DIJKSTRA(T, std::int32_t, float)                                                   \
  APSP_BORROWED_DIJKSTRA(T, std::int64_t, double)                                                  \
  APSP_BORROWED_DIJKSTRA(T, std::int64_t, float)
APSP_BORROWED_DIJKSTRA_T(std::int32_t)
APSP_BORROWED_DIJKSTRA_T(float)
APSP_BORROWED_DIJKSTRA_T(std::int64_t)
APSP_BORROWED_DIJKSTRA_T(double)
#undef APSP_BORROWED_DIJKSTRA_T
#undef APSP_BORROWED_DIJKSTRA

} // namespace apsp::cpu
