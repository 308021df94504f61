// apsp::solve_table_along (apsp/table.hpp): a table of two values per cell, as routing engines
// give them: the distance in the weight that chooses the paths (a travel time), and along the
// chosen path the sum of a second weight (a length). Of the paths of least weight, the one with
// the least second sum is chosen (a lexicographic Dijkstra on (weight, second) pairs), so the
// second value is defined whatever the ties, and any correct implementation gives the same.
// Negative first weights go through Bellman-Ford potentials, which shift every path between
// two vertices by the same amount and so keep the same paths and ties. Second sums are
// accumulated from the source along the path, in float64.

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/table.hpp"
#include "core/checks.hpp"
#include "core/thread_count.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/potentials.hpp"

namespace apsp {
namespace {

template <class T> struct pair_arc {
  std::int32_t target;
  T weight; // reweighted: >= 0
  double second;
};

template <class T> struct pair_graph {
  std::vector<std::int64_t> offsets;
  std::vector<pair_arc<T>> arcs;
};

/// The arcs of g with both weights (the first reweighted by h when not empty), by tail; arcs
/// that no shortest path uses (self-loops >= 0, weights the type reads as no edge) left out.
template <class T>
pair_graph<T> arcs_of(const graph& g, std::span<const double> second, const std::vector<T>& h) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  const auto& src = g.sources();
  const auto& dst = g.targets();
  const auto& w = g.weights();
  const auto usable = [&](std::size_t e) {
    return src[e] != dst[e] && w[e] < static_cast<double>(weight_traits<T>::infinity);
  };
  pair_graph<T> p;
  p.offsets.assign(n + 1, 0);
  for (std::size_t e = 0; e < src.size(); ++e) {
    if (usable(e))
      ++p.offsets[static_cast<std::size_t>(src[e]) + 1];
  }
  for (std::size_t v = 0; v < n; ++v)
    p.offsets[v + 1] += p.offsets[v];
  p.arcs.resize(static_cast<std::size_t>(p.offsets[n]));
  std::vector<std::int64_t> next(p.offsets.begin(), p.offsets.end() - 1);
  for (std::size_t e = 0; e < src.size(); ++e) {
    if (!usable(e))
      continue;
    const auto u = static_cast<std::size_t>(src[e]);
    const auto v = static_cast<std::size_t>(dst[e]);
    auto weight = static_cast<T>(w[e]);
    if (!h.empty())
      weight = static_cast<T>(weight + h[u] - h[v]);
    p.arcs[static_cast<std::size_t>(next[u]++)] = {dst[e], weight, second[e]};
  }
  return p;
}

/// Dijkstra on (weight, second) pairs, compared lexicographically, from one source; scratch
/// kept between runs.
template <class T> class pair_search {
public:
  explicit pair_search(std::int64_t n)
      : dist_(static_cast<std::size_t>(n), weight_traits<T>::infinity),
        sum_(static_cast<std::size_t>(n), 0.0) {}

  void run(const pair_graph<T>& g, std::int32_t source) {
    for (const std::int32_t v : touched_)
      dist_[static_cast<std::size_t>(v)] = weight_traits<T>::infinity;
    touched_.clear();
    set(source, T{0}, 0.0);
    heap_.push({T{0}, 0.0, source});
    while (!heap_.empty()) {
      const auto [d, s, u] = heap_.top();
      heap_.pop();
      const auto ui = static_cast<std::size_t>(u);
      if (d != dist_[ui] || s != sum_[ui])
        continue; // a stale entry
      for (auto a = g.offsets[ui]; a < g.offsets[ui + 1]; ++a) {
        const auto& arc = g.arcs[static_cast<std::size_t>(a)];
        const T nd = d + arc.weight; // both below infinity, whose double fits T
        const double ns = s + arc.second;
        const auto vi = static_cast<std::size_t>(arc.target);
        if (nd < dist_[vi] || (nd == dist_[vi] && ns < sum_[vi])) {
          set(arc.target, nd, ns);
          heap_.push({nd, ns, arc.target});
        }
      }
    }
  }

  [[nodiscard]] T dist(std::int64_t v) const noexcept { return dist_[static_cast<std::size_t>(v)]; }
  [[nodiscard]] double sum(std::int64_t v) const noexcept {
    return sum_[static_cast<std::size_t>(v)];
  }

private:
  using entry = std::tuple<T, double, std::int32_t>;
  void set(std::int32_t v, T d, double s) {
    auto& slot = dist_[static_cast<std::size_t>(v)];
    if (slot == weight_traits<T>::infinity)
      touched_.push_back(v);
    slot = d;
    sum_[static_cast<std::size_t>(v)] = s;
  }

  std::vector<T> dist_;
  std::vector<double> sum_;
  std::vector<std::int32_t> touched_;
  std::priority_queue<entry, std::vector<entry>, std::greater<>> heap_;
};

template <class T>
void pair_table(const graph& g, std::span<const double> second,
                std::span<const std::int64_t> sources, std::span<const std::int64_t> targets,
                int threads, table_result& r) {
  constexpr dtype type = std::is_same_v<T, std::int32_t> ? dtype::int32 : dtype::int64;
  const auto summary = g.summarize_weights();
  const auto facts = detail::analyze_weights(g, type, false);
  detail::check_representable(facts, type, summary.all_integral);
  std::vector<T> h;
  if (facts.has_negative) {
    const auto csr = cpu::csr_from_edges<T>(g);
    h = cpu::johnson_potentials(csr); // throws on every negative cycle of the graph
  }
  const pair_graph<T> arcs = arcs_of<T>(g, second, h);
  const std::size_t cols = targets.size();
  std::vector<T> d(sources.size() * cols);
  r.second.assign(sources.size() * cols, 0.0);
  const auto rows = static_cast<std::int64_t>(sources.size());
  const int workers = static_cast<int>(std::max<std::int64_t>(
      1, std::min<std::int64_t>(threads > 0 ? threads : omp_get_max_threads(), rows)));
#pragma omp parallel num_threads(workers)
  {
    pair_search<T> search(g.num_vertices());
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::int64_t s = sources[static_cast<std::size_t>(i)];
      search.run(arcs, static_cast<std::int32_t>(s));
      for (std::size_t j = 0; j < cols; ++j) {
        const std::int64_t t = targets[j];
        const std::size_t cell = static_cast<std::size_t>(i) * cols + j;
        const T dt = search.dist(t);
        if (dt >= weight_traits<T>::infinity) {
          d[cell] = weight_traits<T>::infinity;
          r.second[cell] = std::numeric_limits<double>::infinity();
        } else {
          d[cell] = h.empty() ? dt
                              : static_cast<T>(dt + h[static_cast<std::size_t>(t)] -
                                               h[static_cast<std::size_t>(s)]);
          r.second[cell] = search.sum(t);
        }
      }
    }
  }
  r.distances = std::move(d);
}

} // namespace

table_result solve_table_along(const graph& g, std::span<const double> second,
                               std::span<const std::int64_t> sources,
                               std::span<const std::int64_t> targets,
                               const solve_options& options) {
  const std::int64_t n = g.num_vertices();
  APSP_EXPECTS(static_cast<std::int64_t>(second.size()) == g.num_edges(), invalid_argument_error,
               "the second weights must be one per edge: " + std::to_string(second.size()) +
                   " given for " + std::to_string(g.num_edges()) + " edges");
  for (std::size_t e = 0; e < second.size(); ++e) {
    APSP_EXPECTS(std::isfinite(second[e]) && second[e] >= 0, invalid_input_error,
                 "second weight " + std::to_string(second[e]) + " of edge " + std::to_string(e) +
                     " is not a finite number >= 0");
  }
  for (const auto ids : {sources, targets}) {
    for (const std::int64_t v : ids) {
      APSP_EXPECTS(v >= 0 && v < n, invalid_argument_error,
                   "vertex " + std::to_string(v) + " is not in the graph (0.." +
                       std::to_string(n - 1) + ")");
    }
  }
  const detail::omp_thread_cap cap(options.threads);
  table_result r;
  r.rows = static_cast<std::int64_t>(sources.size());
  r.cols = static_cast<std::int64_t>(targets.size());
  r.ran.type = options.type;
  r.ran.run = drivers::block_rows{options.threads, false};
  r.ran.algorithm_reason = "a second value per cell: Dijkstra on (weight, second) pairs";
  if (options.type == dtype::int32)
    pair_table<std::int32_t>(g, second, sources, targets, options.threads, r);
  else if (options.type == dtype::int64)
    pair_table<std::int64_t>(g, second, sources, targets, options.threads, r);
  else
    throw invalid_argument_error("a table with a second value needs integer weights (--dtype "
                                 "int32 or int64): its paths are chosen exactly");
  return r;
}

} // namespace apsp
