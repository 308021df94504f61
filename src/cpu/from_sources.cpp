// apsp::solve_from_sources: Johnson's algorithm for the rows asked only. The graph is copied
// into CSR once; potentials are computed only when a weight that the sources can reach is
// negative, and then only over what they reach (cycle_scope::reachable), so a negative cycle
// elsewhere neither refuses the solve nor costs a search.

#include "apsp/sources.hpp"

#include <omp.h>

#include <algorithm>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "apsp/error.hpp"
#include "apsp/result.hpp"
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "cpu/all_sources_dijkstra.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/csr_view_input.hpp"
#include "cpu/potentials.hpp"
#include "core/thread_count.hpp"

namespace apsp {
namespace {

/// Vertices reachable from `sources` (1 = reached), by a breadth-first search over the arcs.
template <class W>
std::vector<char> reachable_from(const cpu::csr_graph<W>& g,
                                 std::span<const std::int32_t> sources) {
  std::vector<char> seen(static_cast<std::size_t>(g.n), 0);
  std::vector<std::int32_t> frontier;
  for (const std::int32_t s : sources) {
    if (!seen[static_cast<std::size_t>(s)]) {
      seen[static_cast<std::size_t>(s)] = 1;
      frontier.push_back(s);
    }
  }
  while (!frontier.empty()) {
    const auto u = static_cast<std::size_t>(frontier.back());
    frontier.pop_back();
    for (auto a = g.offsets[u]; a < g.offsets[u + 1]; ++a) {
      const auto v = g.arcs[static_cast<std::size_t>(a)].target;
      if (!seen[static_cast<std::size_t>(v)]) {
        seen[static_cast<std::size_t>(v)] = 1;
        frontier.push_back(v);
      }
    }
  }
  return seen;
}

/// `g` without the arcs that leave unreached vertices (none enters the reached set from
/// outside it, so no distance from a source changes), and with the most negative self-loop of
/// a reached vertex (read from the edge list, as the CSR keeps only the graph's most negative).
template <class T>
void keep_reached(cpu::csr_graph<cpu::johnson_key_t<T>>& g, const std::vector<char>& seen,
                  const graph& edges) {
  using W = cpu::johnson_key_t<T>;
  std::int64_t write = 0;
  for (std::int64_t u = 0; u < g.n; ++u) {
    const auto begin = g.offsets[static_cast<std::size_t>(u)];
    const auto end = g.offsets[static_cast<std::size_t>(u) + 1];
    g.offsets[static_cast<std::size_t>(u)] = write;
    if (!seen[static_cast<std::size_t>(u)])
      continue;
    for (auto a = begin; a < end; ++a)
      g.arcs[static_cast<std::size_t>(write++)] = g.arcs[static_cast<std::size_t>(a)];
  }
  g.offsets[static_cast<std::size_t>(g.n)] = write;
  g.arcs.resize(static_cast<std::size_t>(write));
  g.negative_loop = -1;
  g.negative_loop_weight = W{0};
  const auto& src = edges.sources();
  for (std::size_t e = 0; e < src.size(); ++e) {
    const std::int32_t v = src[e];
    const auto w = static_cast<W>(static_cast<T>(edges.weights()[e]));
    if (v == edges.targets()[e] && seen[static_cast<std::size_t>(v)] && w < W{0} &&
        (g.negative_loop < 0 || w < g.negative_loop_weight)) {
      g.negative_loop = v;
      g.negative_loop_weight = w;
    }
  }
}

template <class W> bool has_negative_arc(const cpu::csr_graph<W>& g) {
  return g.negative_loop >= 0 ||
         std::any_of(g.arcs.begin(), g.arcs.end(), [](const auto& a) { return a.weight < W{0}; });
}

/// Allocates the rows, then runs `search(d, predecessors or null, cfg, ctx)` on `threads`
/// threads with about 64 progress steps.
template <class T, class Search>
void fill_rows(std::int64_t n, std::size_t sources, const source_options& o, int threads,
               bool negative, source_result& out, Search search) {
  const std::size_t cells = sources * static_cast<std::size_t>(n);
  std::vector<T> d;
  try {
    d.resize(cells);
    if (o.predecessors)
      out.predecessors.resize(cells);
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error("cannot allocate " + std::to_string(sources) + " rows of " +
                              std::to_string(n) + " distances");
  }
  solve_options ctx_options;
  ctx_options.type = o.type;
  ctx_options.threads = threads;
  ctx_options.progress = o.progress;
  detail::run_context ctx(ctx_options, n, negative);
  cpu::dijkstra_config cfg;
  cfg.threads = detail::thread_count(ctx_options);
  // About 64 progress steps, each at least one source per thread.
  cfg.sources_per_round =
      std::max<std::int64_t>(cfg.threads, (static_cast<std::int64_t>(sources) + 63) / 64);
  search(d.data(), o.predecessors ? out.predecessors.data() : nullptr, cfg, ctx);
  out.distances = std::move(d);
}

/// The CSR copy of a graph for one dtype, reweighted by its potentials `h` when they were
/// computed (cycle_scope::whole_graph with negative weights), else as given.
template <class T> struct prepared_graph {
  using value_type = T;
  cpu::csr_graph<cpu::johnson_key_t<T>> g;
  std::vector<cpu::johnson_key_t<T>> h;
  bool reweighted = false;
};

template <class T>
prepared_graph<T> prepare(const graph& edges, const source_options& o, bool negative) {
  prepared_graph<T> p{cpu::csr_from_edges<T>(edges), {}, false};
  if (negative && o.cycles == cycle_scope::whole_graph) {
    p.h = cpu::johnson_potentials(p.g);
    cpu::reweight(p.g, p.h);
    p.reweighted = true;
  }
  return p;
}

/// The rows from `sources` on a prepared graph. With cycle_scope::reachable and negative
/// weights, potentials over what the sources reach only (on a copy of the CSR).
template <class T>
void solve_rows(const prepared_graph<T>& p, const graph& edges,
                std::span<const std::int32_t> sources, const source_options& o, int threads,
                bool negative, source_result& out) {
  const auto run = [&](const cpu::csr_graph<cpu::johnson_key_t<T>>& g,
                       const std::vector<cpu::johnson_key_t<T>>& h, bool reweighted) {
    fill_rows<T>(
        edges.num_vertices(), sources.size(), o, threads, reweighted, out,
        [&](T* d, std::int32_t* pred, const cpu::dijkstra_config& cfg, detail::run_context& ctx) {
          cpu::sources_dijkstra<T>(g, h, sources, d, pred, cpu::tree_format::predecessors, cfg,
                                   ctx);
        });
  };
  if (!negative || p.reweighted) {
    run(p.g, p.h, p.reweighted);
    return;
  }
  auto g = p.g;
  const auto seen = reachable_from(g, sources);
  if (std::find(seen.begin(), seen.end(), 0) != seen.end())
    keep_reached<T>(g, seen, edges);
  std::vector<cpu::johnson_key_t<T>> h;
  const bool reached_negative = has_negative_arc(g);
  if (reached_negative) {
    h = cpu::johnson_potentials(g);
    cpu::reweight(g, h);
  }
  run(g, h, reached_negative);
}

/// Checks `options.threads` and the vertex count.
void check_solver_options(std::int64_t n, const source_options& options) {
  APSP_EXPECTS(options.threads >= 0, invalid_argument_error,
               "threads must be >= 0 (0 = all), got " + std::to_string(options.threads));
  APSP_EXPECTS(n < (std::int64_t{1} << 31), invalid_argument_error,
               "solve_from_sources handles at most 2^31 - 1 vertices");
}

/// Checks `options.threads` and the sources; returns them as vertex ids.
std::vector<std::int32_t> checked_sources(std::int64_t n, std::span<const std::int64_t> sources,
                                          const source_options& options) {
  check_solver_options(n, options);
  std::vector<std::int32_t> rows(sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    APSP_EXPECTS(sources[i] >= 0 && sources[i] < n, invalid_argument_error,
                 "source " + std::to_string(sources[i]) + " is not a vertex of the graph (0.." +
                     std::to_string(n - 1) + ")");
    rows[i] = static_cast<std::int32_t>(sources[i]);
  }
  return rows;
}

/// Threads work across sources: a few sources get as many threads (and the O(m) passes before
/// them run on those too: on a busy machine a parallel pass waits for its slowest thread).
int source_threads(const source_options& options, std::size_t sources) {
  return static_cast<int>(
      std::min<std::int64_t>(options.threads > 0 ? options.threads : omp_get_max_threads(),
                             static_cast<std::int64_t>(std::max<std::size_t>(1, sources))));
}

using any_prepared = std::variant<prepared_graph<std::int32_t>, prepared_graph<float>,
                                  prepared_graph<std::int64_t>, prepared_graph<double>>;

} // namespace

struct detail::source_solver_state {
  source_options options;
  std::optional<graph> usable; // the edges kept, when the type drops some
  const graph* edges = nullptr;
  bool negative = false;
  any_prepared prepared;
};

namespace {

/// The checks of solve_from_sources and the graph's preparation, on the caller's threads.
std::unique_ptr<detail::source_solver_state> make_state(const graph& g,
                                                        const source_options& options) {
  check_solver_options(g.num_vertices(), options);
  auto s = std::make_unique<detail::source_solver_state>();
  s->options = options;
  const auto summary = g.summarize_weights();
  const auto facts = detail::analyze_weights(g, options.type, false);
  detail::check_representable(facts, options.type, summary.all_integral);
  // Edges the type cannot hold change no distance (see usable_edges): dropped before the cast.
  s->usable = detail::usable_edges(g, options.type);
  s->edges = s->usable ? &*s->usable : &g;
  s->negative = facts.has_negative;
  visit_dtype(options.type, [&](auto zero) {
    using T = decltype(zero);
    s->prepared = prepare<T>(*s->edges, options, s->negative);
  });
  return s;
}

source_result solve_prepared(const detail::source_solver_state& s,
                             std::span<const std::int64_t> sources, const source_options& options) {
  const std::int64_t n = s.edges->num_vertices();
  const auto rows = checked_sources(n, sources, options);
  const int threads = source_threads(options, sources.size());
  const detail::omp_thread_cap cap(threads);
  source_result out;
  out.n = n;
  out.sources.assign(sources.begin(), sources.end());
  std::visit(
      [&](const auto& p) {
        using T = typename std::decay_t<decltype(p)>::value_type;
        solve_rows<T>(p, *s.edges, rows, options, threads, s.negative, out);
      },
      s.prepared);
  return out;
}

} // namespace

std::uint64_t source_rows_host_bytes(std::int64_t n, std::int64_t arcs, std::size_t rows,
                                     const source_options& options) noexcept {
  const auto vertices = static_cast<std::uint64_t>(std::max<std::int64_t>(n, 0));
  const auto edges = static_cast<std::uint64_t>(std::max<std::int64_t>(arcs, 0));
  const std::uint64_t cell = size_of(options.type) + (options.predecessors ? 4 : 0);
  const std::uint64_t arc = options.type == dtype::int32 ? 8 : 16; // csr_arc, padded
  const auto threads = static_cast<std::uint64_t>(
      std::max(1, source_threads(options, std::max<std::size_t>(rows, 1))));
  // The rows, the CSR offsets, the edge list and its CSR arcs, and 28 bytes a vertex of
  // Dijkstra's scratch per thread (as Johnson's plan counts it).
  return rows * vertices * cell + 8 * (vertices + 1) + edges * (16 + arc) + threads * 28 * vertices;
}

source_solver::source_solver(const graph& g, const source_options& options) {
  const detail::omp_thread_cap cap(options.threads);
  state_ = make_state(g, options);
}
source_solver::~source_solver() = default;
source_solver::source_solver(source_solver&&) noexcept = default;
source_solver& source_solver::operator=(source_solver&&) noexcept = default;

source_result source_solver::solve(std::span<const std::int64_t> sources,
                                   const progress_callback& progress) const {
  source_options o = state_->options;
  o.progress = progress;
  return solve_prepared(*state_, sources, o);
}

source_result solve_from_sources(const graph& g, std::span<const std::int64_t> sources,
                                 const source_options& options) {
  // The sources are checked before the graph, and a few sources' threads do the O(m) passes
  // too (on a busy machine a parallel pass waits for its slowest thread).
  (void)checked_sources(g.num_vertices(), sources, options);
  const detail::omp_thread_cap cap(source_threads(options, sources.size()));
  const auto s = make_state(g, options);
  return solve_prepared(*s, sources, options);
}

template <class Index, class Weight>
source_result solve_from_sources(const csr_view<Index, Weight>& g,
                                 std::span<const std::int64_t> sources,
                                 const source_options& options) {
  const int threads = source_threads(options, sources.size());
  const detail::omp_thread_cap cap(threads);
  const auto scan = detail::scan_csr(g);
  if (!detail::searchable_in_place(g, scan, options.type))
    return solve_from_sources(detail::edge_list(g, scan), sources, options);
  // What solve_from_sources(graph) checks and decides, from the scan: analyze_weights' first
  // bound (searchable_in_place asked for it to suffice), no negative weight, no potentials.
  const auto rows = checked_sources(g.n, sources, options);
  detail::check_representable(detail::in_place_facts(g, scan), options.type, !scan.fraction);
  source_result out;
  out.n = g.n;
  out.sources.assign(sources.begin(), sources.end());
  const cpu::borrowed_csr<Index, Weight> b{g.n, g.offsets.data(), g.targets.data(),
                                           g.weights.data(), g.unit_weights};
  visit_dtype(options.type, [&](auto zero) {
    using T = decltype(zero);
    fill_rows<T>(g.n, rows.size(), options, threads, false, out,
                 [&](T* d, std::int32_t* pred, const cpu::dijkstra_config& cfg,
                     detail::run_context& ctx) {
                   cpu::sources_dijkstra<T>(b, rows, d, pred, cpu::tree_format::predecessors,
                                            cfg, ctx);
                 });
  });
  return out;
}

template <class Index, class Weight> graph graph_of(const csr_view<Index, Weight>& g) {
  return detail::edge_list(g, detail::scan_csr(g));
}

#define APSP_CSR_SOURCES(Index, Weight)                                                            \
  template source_result solve_from_sources(const csr_view<Index, Weight>&,                       \
                                            std::span<const std::int64_t>,                         \
                                            const source_options&);                                \
  template graph graph_of(const csr_view<Index, Weight>&);
APSP_CSR_SOURCE_TYPES(APSP_CSR_SOURCES)
#undef APSP_CSR_SOURCES

} // namespace apsp
