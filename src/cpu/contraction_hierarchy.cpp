#include "cpu/contraction_hierarchy.hpp"

#include "cpu/dijkstra_queues.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <utility>

namespace apsp::cpu {
namespace {

template <class W> struct neighbour {
  std::int32_t vertex;
  W weight;
};

template <class W> using adjacency = std::vector<std::vector<neighbour<W>>>;

/// A local Dijkstra in the graph that remains, reused for every search (reset by its touched
/// list, so a search costs what it visits, not n).
template <class W> class witness_search {
public:
  explicit witness_search(std::int64_t n)
      : dist_(static_cast<std::size_t>(n), std::numeric_limits<W>::max()), heap_(n) {}

  /// Distances from `source` without passing `excluded`, exact up to `limit` for the vertices
  /// settled before `settle_limit` of them are; others read as at least what they are.
  void run(const adjacency<W>& out, std::int32_t source, std::int32_t excluded, W limit,
           int settle_limit) {
    for (const std::int32_t v : touched_)
      dist_[static_cast<std::size_t>(v)] = std::numeric_limits<W>::max();
    touched_.clear();
    heap_.clear();
    set(source, W{0});
    heap_.push(W{0}, source);
    int settled = 0;
    while (!heap_.empty()) {
      const auto [du, u] = heap_.pop();
      if (du > limit || ++settled > settle_limit)
        break;
      for (const auto& a : out[static_cast<std::size_t>(u)]) {
        if (a.vertex == excluded)
          continue;
        const W candidate = du + a.weight; // du <= limit < cap and a.weight < cap: no overflow
        if (candidate <= limit && candidate < dist_[static_cast<std::size_t>(a.vertex)]) {
          set(a.vertex, candidate);
          heap_.push(candidate, a.vertex);
        }
      }
    }
  }

  [[nodiscard]] W dist(std::int32_t v) const noexcept { return dist_[static_cast<std::size_t>(v)]; }

private:
  void set(std::int32_t v, W d) {
    auto& slot = dist_[static_cast<std::size_t>(v)];
    if (slot == std::numeric_limits<W>::max())
      touched_.push_back(v);
    slot = d;
  }

  std::vector<W> dist_;
  std::vector<std::int32_t> touched_;
  dary_heap<W, 4> heap_;
};

template <class W> class contractor {
public:
  contractor(const csr_graph<W>& g, W cap, const contraction_limits& limits)
      : n_(g.n), cap_(cap), limits_(limits), out_(static_cast<std::size_t>(g.n)),
        in_(static_cast<std::size_t>(g.n)), search_(g.n) {
    for (std::int64_t u = 0; u < g.n; ++u) {
      for (std::int64_t a = g.offsets[static_cast<std::size_t>(u)];
           a < g.offsets[static_cast<std::size_t>(u) + 1]; ++a) {
        const auto& arc = g.arcs[static_cast<std::size_t>(a)];
        if (arc.weight >= cap || arc.target == u)
          continue; // no shortest distance uses it
        add_arc(static_cast<std::int32_t>(u), arc.target, arc.weight);
      }
    }
  }

  contraction_hierarchy<W> run() {
    const auto n = static_cast<std::size_t>(n_);
    contracted_.assign(n, 0);
    deleted_.assign(n, 0);
    level_.assign(n, 0);
    priority_.assign(n, 0);
    up_.resize(n);
    down_.resize(n);
    std::int64_t arcs = 0;
    for (const auto& list : out_)
      arcs += static_cast<std::int64_t>(list.size());
    const auto budget =
        static_cast<std::int64_t>(limits_.shortcut_budget * static_cast<double>(arcs)) + n_;
    using entry = std::pair<std::int64_t, std::int32_t>;
    std::priority_queue<entry, std::vector<entry>, std::greater<>> queue;
    for (std::size_t v = 0; v < n; ++v) {
      priority_[v] = priority(static_cast<std::int32_t>(v));
      queue.push({priority_[v], static_cast<std::int32_t>(v)});
    }
    contraction_hierarchy<W> h;
    h.n = n_;
    std::int64_t shortcuts = 0;
    while (!queue.empty()) {
      const auto [p, v] = queue.top();
      queue.pop();
      const auto vi = static_cast<std::size_t>(v);
      if (contracted_[vi] != 0 || p != priority_[vi])
        continue; // stale
      // Lazy update: a vertex whose priority has grown since it was queued waits its turn.
      const std::int64_t now = priority(v);
      if (now > p && !queue.empty() && now > queue.top().first) {
        priority_[vi] = now;
        queue.push({now, v});
        continue;
      }
      shortcuts += contract(v);
      if (shortcuts > budget)
        return h; // incomplete
      for (const std::int32_t w : touched_neighbours_) {
        const auto wi = static_cast<std::size_t>(w);
        priority_[wi] = priority(w);
        queue.push({priority_[wi], w});
      }
    }
    h.shortcuts = shortcuts;
    layout(h);
    h.complete = true;
    return h;
  }

private:
  /// Adds u -> w, or lowers the weight of the arc there; true when the arc is new.
  bool add_arc(std::int32_t u, std::int32_t w, W weight) {
    auto& from = out_[static_cast<std::size_t>(u)];
    for (auto& a : from) {
      if (a.vertex == w) {
        if (weight < a.weight) {
          a.weight = weight;
          for (auto& b : in_[static_cast<std::size_t>(w)]) {
            if (b.vertex == u)
              b.weight = weight;
          }
        }
        return false;
      }
    }
    from.push_back({w, weight});
    in_[static_cast<std::size_t>(w)].push_back({u, weight});
    return true;
  }

  /// The shortcuts contracting v needs now: counted only (Add = false) or added.
  template <bool Add> std::int64_t shortcuts_of(std::int32_t v, int settle_limit) {
    const auto& ins = in_[static_cast<std::size_t>(v)];
    const auto& outs = out_[static_cast<std::size_t>(v)];
    std::int64_t count = 0;
    for (const auto& [u, wu] : ins) {
      W longest = 0;
      bool any = false;
      for (const auto& [w, wv] : outs) {
        if (w != u && wu + wv < cap_) {
          longest = std::max<W>(longest, wu + wv);
          any = true;
        }
      }
      if (!any)
        continue;
      search_.run(out_, u, v, longest, settle_limit);
      for (const auto& [w, wv] : outs) {
        const W through = wu + wv;
        if (w == u || through >= cap_ || search_.dist(w) <= through)
          continue; // a witness (or no distance can use it)
        if constexpr (Add)
          count += add_arc(u, w, through) ? 1 : 0;
        else
          ++count;
      }
    }
    return count;
  }

  /// Edge difference and contracted neighbours: contract where the graph grows least, spread
  /// out over the graph.
  std::int64_t priority(std::int32_t v) {
    const auto vi = static_cast<std::size_t>(v);
    const std::int64_t added = shortcuts_of<false>(v, limits_.estimate_settle_limit);
    const auto removed = static_cast<std::int64_t>(in_[vi].size() + out_[vi].size());
    return 2 * (added - removed) + deleted_[vi];
  }

  /// Contracts v: its shortcuts go in, its arcs leave the remaining graph (kept as the
  /// hierarchy's), its neighbours are listed in touched_neighbours_. Returns the new arcs.
  std::int64_t contract(std::int32_t v) {
    const auto vi = static_cast<std::size_t>(v);
    const std::int64_t added = shortcuts_of<true>(v, limits_.settle_limit);
    contracted_[vi] = 1;
    touched_neighbours_.clear();
    auto drop = [v](std::vector<neighbour<W>>& list) {
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (list[i].vertex == v) {
          list[i] = list.back();
          list.pop_back();
          return;
        }
      }
    };
    for (const auto& a : in_[vi]) {
      drop(out_[static_cast<std::size_t>(a.vertex)]);
      touched_neighbours_.push_back(a.vertex);
    }
    for (const auto& a : out_[vi]) {
      drop(in_[static_cast<std::size_t>(a.vertex)]);
      touched_neighbours_.push_back(a.vertex);
    }
    std::sort(touched_neighbours_.begin(), touched_neighbours_.end());
    touched_neighbours_.erase(std::unique(touched_neighbours_.begin(), touched_neighbours_.end()),
                              touched_neighbours_.end());
    for (const std::int32_t w : touched_neighbours_) {
      const auto wi = static_cast<std::size_t>(w);
      ++deleted_[wi];
      level_[wi] = std::max(level_[wi], level_[vi] + 1);
    }
    up_[vi] = std::move(out_[vi]);
    down_[vi] = std::move(in_[vi]);
    out_[vi] = {};
    in_[vi] = {};
    return added;
  }

  /// Positions by level, highest first (every arc of the hierarchy joins a lower level to a
  /// higher one), then by vertex id (the input's own locality within a level); arcs in CSR.
  void layout(contraction_hierarchy<W>& h) {
    const auto n = static_cast<std::size_t>(n_);
    h.vertex_at.resize(n);
    std::iota(h.vertex_at.begin(), h.vertex_at.end(), 0);
    std::stable_sort(h.vertex_at.begin(), h.vertex_at.end(), [&](std::int32_t a, std::int32_t b) {
      return level_[static_cast<std::size_t>(a)] > level_[static_cast<std::size_t>(b)];
    });
    h.position.resize(n);
    for (std::size_t p = 0; p < n; ++p)
      h.position[static_cast<std::size_t>(h.vertex_at[p])] = static_cast<std::int32_t>(p);
    h.levels = n == 0 ? 0 : *std::max_element(level_.begin(), level_.end()) + 1;
    h.up_offsets.assign(n + 1, 0);
    h.down_offsets.assign(n + 1, 0);
    for (std::size_t p = 0; p < n; ++p) {
      const auto v = static_cast<std::size_t>(h.vertex_at[p]);
      h.up_offsets[p + 1] = h.up_offsets[p] + static_cast<std::int64_t>(up_[v].size());
      h.down_offsets[p + 1] = h.down_offsets[p] + static_cast<std::int64_t>(down_[v].size());
    }
    h.up_arcs.resize(static_cast<std::size_t>(h.up_offsets[n]));
    h.down_arcs.resize(static_cast<std::size_t>(h.down_offsets[n]));
    for (std::size_t p = 0; p < n; ++p) {
      const auto v = static_cast<std::size_t>(h.vertex_at[p]);
      auto* up = h.up_arcs.data() + h.up_offsets[p];
      for (const auto& a : up_[v])
        *up++ = {h.position[static_cast<std::size_t>(a.vertex)], a.weight};
      auto* down = h.down_arcs.data() + h.down_offsets[p];
      for (const auto& a : down_[v])
        *down++ = {h.position[static_cast<std::size_t>(a.vertex)], a.weight};
      std::sort(h.down_arcs.data() + h.down_offsets[p], down,
                [](const ch_arc<W>& a, const ch_arc<W>& b) { return a.other < b.other; });
      up_[v] = {};
      down_[v] = {};
    }
  }

  std::int64_t n_;
  W cap_;
  contraction_limits limits_;
  adjacency<W> out_;
  adjacency<W> in_;
  adjacency<W> up_;   // each contracted vertex's arcs to higher ones
  adjacency<W> down_; // and from higher ones
  witness_search<W> search_;
  std::vector<char> contracted_;
  std::vector<std::int32_t> deleted_;
  std::vector<std::int32_t> level_;
  std::vector<std::int64_t> priority_;
  std::vector<std::int32_t> touched_neighbours_;
};

} // namespace

template <class W>
contraction_hierarchy<W> build_contraction_hierarchy(const csr_graph<W>& g, W cap,
                                                     const contraction_limits& limits) {
  return contractor<W>(g, cap, limits).run();
}

template contraction_hierarchy<std::int32_t>
build_contraction_hierarchy(const csr_graph<std::int32_t>&, std::int32_t,
                            const contraction_limits&);
template contraction_hierarchy<std::int64_t>
build_contraction_hierarchy(const csr_graph<std::int64_t>&, std::int64_t,
                            const contraction_limits&);

} // namespace apsp::cpu
