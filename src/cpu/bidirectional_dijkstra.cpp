#include "cpu/bidirectional_dijkstra.hpp"

#include <algorithm>
#include <type_traits>

#include "cpu/dijkstra_queues.hpp"

namespace apsp::cpu {
namespace {

/// A path's length and its number of arcs, compared in that order: Dijkstra on these keys finds,
/// of the shortest paths, one with the fewest arcs (every arc adds one, so no zero-weight cycle
/// ties either). K: std::int64_t for integer weights (a relaxation's sum of reweighted integers,
/// at most 4B, fits where a 4-byte key would not), double for float weights.
template <class K> struct hop_key {
  K length{};
  std::int64_t arcs = 0;
  friend bool operator<(const hop_key& a, const hop_key& b) noexcept {
    return a.length < b.length || (a.length == b.length && a.arcs < b.arcs);
  }
  friend hop_key operator+(const hop_key& a, const hop_key& b) noexcept {
    return {a.length + b.length, a.arcs + b.arcs};
  }
};

enum class label : char { none, queued, settled };

/// One direction's labels and queue.
template <class K> struct search_side {
  explicit search_side(std::int64_t n)
      : key(static_cast<std::size_t>(n)), via(static_cast<std::size_t>(n), -1),
        state(static_cast<std::size_t>(n), label::none), queue(n) {}

  [[nodiscard]] bool labelled(std::int32_t v) const noexcept {
    return state[static_cast<std::size_t>(v)] != label::none;
  }
  [[nodiscard]] hop_key<K> top() const noexcept {
    return key[static_cast<std::size_t>(queue.next_vertex())];
  }
  void start(std::int32_t v) {
    state[static_cast<std::size_t>(v)] = label::queued;
    queue.push(hop_key<K>{}, v);
  }

  std::vector<hop_key<K>> key;
  std::vector<std::int64_t> via; ///< the arc (of this side's graph) that last lowered the key
  std::vector<label> state;
  dary_heap<hop_key<K>> queue;
};

/// The tail of forward arc a: the u with offsets[u] <= a < offsets[u + 1].
template <class W> std::int32_t tail_of(const csr_graph<W>& g, std::int64_t a) {
  const auto it = std::upper_bound(g.offsets.begin(), g.offsets.end(), a);
  return static_cast<std::int32_t>(it - g.offsets.begin() - 1);
}

} // namespace

template <class W> reverse_csr<W> reverse_of(const csr_graph<W>& g) {
  reverse_csr<W> r;
  const auto n = static_cast<std::size_t>(g.n);
  r.offsets.assign(n + 1, 0);
  for (const auto& a : g.arcs)
    ++r.offsets[static_cast<std::size_t>(a.target) + 1];
  for (std::size_t v = 0; v < n; ++v)
    r.offsets[v + 1] += r.offsets[v];
  r.arcs.resize(g.arcs.size());
  r.forward_arc.resize(g.arcs.size());
  std::vector<std::int64_t> next(r.offsets.begin(), r.offsets.end() - 1);
  for (std::size_t u = 0; u < n; ++u) {
    for (auto a = g.offsets[u]; a < g.offsets[u + 1]; ++a) {
      const auto& arc = g.arcs[static_cast<std::size_t>(a)];
      const auto slot = static_cast<std::size_t>(next[static_cast<std::size_t>(arc.target)]++);
      r.arcs[slot] = {static_cast<std::int32_t>(u), arc.weight};
      r.forward_arc[slot] = a;
    }
  }
  return r;
}

template <class W>
pair_search bidirectional_dijkstra(const csr_graph<W>& g, const reverse_csr<W>& r,
                                   std::int32_t source, std::int32_t target,
                                   const std::function<bool(std::int64_t)>& keep_going) {
  using K = std::conditional_t<std::is_integral_v<W>, std::int64_t, double>;
  search_side<K> forward(g.n);
  search_side<K> backward(g.n);
  forward.start(source);
  backward.start(target);
  pair_search out;
  hop_key<K> best; // the shortest meeting found so far, when meet >= 0
  std::int32_t meet = -1;
  while (!forward.queue.empty() && !backward.queue.empty()) {
    const hop_key<K> top_f = forward.top();
    const hop_key<K> top_b = backward.top();
    // Every path not seen yet is at least top_f + top_b long (and as many arcs).
    if (meet >= 0 && !(top_f + top_b < best))
      break;
    const bool ahead = !(top_b < top_f); // the side whose ball is smaller grows
    search_side<K>& side = ahead ? forward : backward;
    const search_side<K>& other = ahead ? backward : forward;
    const auto& offsets = ahead ? g.offsets : r.offsets;
    const auto& arcs = ahead ? g.arcs : r.arcs;
    const auto u = static_cast<std::size_t>(side.queue.pop().vertex);
    side.state[u] = label::settled;
    if ((++out.settled & 0xFFFF) == 0 && keep_going && !keep_going(out.settled)) {
      out.cancelled = true;
      return out;
    }
    for (auto a = offsets[u]; a < offsets[u + 1]; ++a) {
      const auto& arc = arcs[static_cast<std::size_t>(a)];
      const auto v = static_cast<std::size_t>(arc.target);
      const hop_key<K> candidate = side.key[u] + hop_key<K>{static_cast<K>(arc.weight), 1};
      if (side.state[v] != label::none && !(candidate < side.key[v]))
        continue;
      side.key[v] = candidate;
      side.via[v] = a;
      side.state[v] = label::queued;
      side.queue.push(candidate, arc.target);
      if (other.labelled(arc.target)) {
        const hop_key<K> through = candidate + other.key[v];
        if (meet < 0 || through < best) {
          best = through;
          meet = arc.target;
        }
      }
    }
  }
  // The queues also meet at either end: the source labelled by the backward search or the
  // target by the forward one is a meeting found by the relaxation above.
  if (meet < 0)
    return out;
  out.reached = true;
  for (std::int32_t v = meet; v != source;) {
    const std::int64_t a = forward.via[static_cast<std::size_t>(v)];
    out.arcs.push_back(a);
    v = tail_of(g, a);
  }
  std::reverse(out.arcs.begin(), out.arcs.end());
  for (std::int32_t v = meet; v != target;) {
    const std::int64_t a =
        r.forward_arc[static_cast<std::size_t>(backward.via[static_cast<std::size_t>(v)])];
    out.arcs.push_back(a);
    v = g.arcs[static_cast<std::size_t>(a)].target;
  }
  return out;
}

#define APSP_BIDIRECTIONAL(W)                                                                      \
  template reverse_csr<W> reverse_of(const csr_graph<W>&);                                         \
  template pair_search bidirectional_dijkstra(const csr_graph<W>&, const reverse_csr<W>&,          \
                                              std::int32_t, std::int32_t,                          \
                                              const std::function<bool(std::int64_t)>&);
APSP_BIDIRECTIONAL(std::int32_t)
APSP_BIDIRECTIONAL(std::int64_t)
APSP_BIDIRECTIONAL(double)
#undef APSP_BIDIRECTIONAL

} // namespace apsp::cpu
