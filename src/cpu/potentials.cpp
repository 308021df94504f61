#include "cpu/potentials.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <type_traits>

#include "apsp/error.hpp"
#include "core/backend.hpp"
#include "core/negative_cycle.hpp"

namespace apsp::cpu {
namespace {

/// A cycle of the predecessor graph (arc pred_arc[v] enters v from pred[v]), in arc order and
/// starting at its smallest vertex, or nothing. O(n).
std::optional<std::vector<std::int64_t>> find_pred_cycle(const std::vector<std::int32_t>& pred) {
  const auto n = static_cast<std::int32_t>(pred.size());
  std::vector<std::int32_t> walk_of(pred.size(), -1);
  for (std::int32_t start = 0; start < n; ++start) {
    std::int32_t x = start;
    while (x >= 0 && walk_of[static_cast<std::size_t>(x)] < 0) {
      walk_of[static_cast<std::size_t>(x)] = start;
      x = pred[static_cast<std::size_t>(x)];
    }
    if (x < 0 || walk_of[static_cast<std::size_t>(x)] != start)
      continue; // reached a root, or a walk already known to end without a cycle
    std::vector<std::int64_t> cycle{x};
    for (std::int32_t y = pred[static_cast<std::size_t>(x)]; y != x;
         y = pred[static_cast<std::size_t>(y)])
      cycle.push_back(y);
    std::reverse(cycle.begin(), cycle.end()); // predecessors run backwards
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
    return cycle;
  }
  return std::nullopt;
}

/// The most a simple path's weight can lie below 0: the sum over vertices of their most negative
/// out-arc (a path leaves each vertex once; the CSR holds no self-loops).
double negative_reach(const auto& g) {
  double reach = 0;
  for (std::int64_t u = 0; u < g.n; ++u) {
    double lightest = 0;
    for (auto a = g.offsets[static_cast<std::size_t>(u)];
         a < g.offsets[static_cast<std::size_t>(u) + 1]; ++a)
      lightest =
          std::min(lightest, static_cast<double>(g.arcs[static_cast<std::size_t>(a)].weight));
    reach -= lightest;
  }
  return reach;
}

} // namespace

template <class W> std::vector<W> johnson_potentials(const csr_graph<W>& g) {
  if (g.negative_loop >= 0) {
    detail::throw_negative_cycle_found({g.negative_loop},
                                       static_cast<double>(g.negative_loop_weight));
  }
  const std::int64_t n = g.n;
  // 64 bits while searching: around a negative cycle labels fall until the cycle is found, and
  // may pass below what W holds. Without one they end at >= -B, which W holds.
  using wide = std::conditional_t<std::is_integral_v<W>, std::int64_t, double>;
  std::vector<wide> h(static_cast<std::size_t>(n), wide{0});
  std::vector<std::int32_t> pred(static_cast<std::size_t>(n), -1);
  std::vector<std::int64_t> pred_arc(static_cast<std::size_t>(n), -1);
  std::vector<char> queued(static_cast<std::size_t>(n), 1);
  std::deque<std::int32_t> queue;
  for (std::int64_t v = 0; v < n; ++v)
    queue.push_back(static_cast<std::int32_t>(v));
  // Every label is at least the weight of the path its predecessors lead back along; while that
  // path is simple it is >= -reach. A label below that (below twice that for doubles, against
  // rounding) proves a cycle among its predecessors, found at once: so labels stay far from what
  // the type holds, however fast they fall around a cycle of heavy arcs between the searches.
  const double reach = negative_reach(g);
  const double floor = std::is_integral_v<W> ? -reach : -2 * reach;
  const auto throw_cycle = [&](std::vector<std::int64_t> cycle) {
    double weight = 0;
    for (const std::int64_t x : cycle) {
      weight += static_cast<double>(
          g.arcs[static_cast<std::size_t>(pred_arc[static_cast<std::size_t>(x)])].weight);
    }
    detail::throw_negative_cycle_found(std::move(cycle), weight);
  };
  std::int64_t relaxations = 0;
  while (!queue.empty()) {
    const std::int32_t u = queue.front();
    queue.pop_front();
    queued[static_cast<std::size_t>(u)] = 0;
    const wide hu = h[static_cast<std::size_t>(u)];
    const auto end = g.offsets[static_cast<std::size_t>(u) + 1];
    for (auto a = g.offsets[static_cast<std::size_t>(u)]; a < end; ++a) {
      const auto& arc = g.arcs[static_cast<std::size_t>(a)];
      const auto v = static_cast<std::size_t>(arc.target);
      const wide candidate = hu + static_cast<wide>(arc.weight);
      if (!(candidate < h[v]))
        continue;
      h[v] = candidate;
      pred[v] = u;
      pred_arc[v] = a;
      if (!queued[v]) {
        queued[v] = 1;
        queue.push_back(static_cast<std::int32_t>(v));
      }
      const bool below = static_cast<double>(candidate) < floor;
      if (++relaxations % std::max<std::int64_t>(n, 1) != 0 && !below)
        continue;
      if (auto cycle = find_pred_cycle(pred))
        throw_cycle(std::move(*cycle));
    }
  }
  return std::vector<W>(h.begin(), h.end());
}

void rethrow_with_cycle(const graph& g, const negative_cycle_error& found) {
  try {
    (void)johnson_potentials(csr_from_edges<double>(g));
  } catch (const negative_cycle_error& e) {
    const std::string text =
        detail::cycle_text(e.cycle(), [](std::int64_t v) { return std::to_string(v); });
    throw negative_cycle_error(std::string(found.what()) + "; one of them: " + text +
                                   ", total weight " + detail::weight_text(e.cycle_weight()),
                               found.vertices(), e.cycle(), e.cycle_weight());
  }
  throw found;
}

template <class W> void reweight(csr_graph<W>& g, const std::vector<W>& h) {
  const std::int64_t n = g.n;
  if constexpr (std::is_floating_point_v<W>) {
    g.original_weights.resize(g.arcs.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t a = 0; a < g.num_arcs(); ++a)
      g.original_weights[static_cast<std::size_t>(a)] = g.arcs[static_cast<std::size_t>(a)].weight;
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t u = 0; u < n; ++u) {
    const W hu = h[static_cast<std::size_t>(u)];
    for (auto a = g.offsets[static_cast<std::size_t>(u)];
         a < g.offsets[static_cast<std::size_t>(u) + 1]; ++a) {
      auto& arc = g.arcs[static_cast<std::size_t>(a)];
      // The potentials' difference first: w + (h(u) - h(v)) keeps a small weight between two
      // large potentials, where (w + h(u)) - h(v) would round it away.
      arc.weight = std::max(W{0}, arc.weight + (hu - h[static_cast<std::size_t>(arc.target)]));
    }
  }
}

#define APSP_POTENTIALS(W)                                                                         \
  template std::vector<W> johnson_potentials(const csr_graph<W>&);                                 \
  template void reweight(csr_graph<W>&, const std::vector<W>&);
APSP_POTENTIALS(std::int32_t)
APSP_POTENTIALS(std::int64_t)
APSP_POTENTIALS(double)
#undef APSP_POTENTIALS

} // namespace apsp::cpu

namespace apsp::detail {

void rethrow_with_one_cycle(const graph& g, const negative_cycle_error& found) {
  cpu::rethrow_with_cycle(g, found);
}

} // namespace apsp::detail
