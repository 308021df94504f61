#include "cpu/contraction_hierarchy.hpp"

#include "cpu/dijkstra_queues.hpp"
#include "cpu/team_barrier.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <utility>

namespace apsp::cpu {
namespace {

template <class W> struct neighbour {
  std::int32_t vertex;
  W weight;
};

template <class W> using adjacency = std::vector<std::vector<neighbour<W>>>;

/// A shortcut that a contraction adds: u -> w, replacing u -> v -> w.
template <class W> struct shortcut {
  std::int32_t from;
  std::int32_t to;
  W weight;
};

/// A local Dijkstra in the graph that remains, reused for every search of one thread (reset by
/// its touched list, so a search costs what it visits, not n).
template <class W> class witness_search {
public:
  explicit witness_search(std::int64_t n)
      : dist_(static_cast<std::size_t>(n), std::numeric_limits<W>::max()), heap_(n) {}

  /// Distances from `source` through no vertex that `skip` names, exact up to `limit` for the
  /// vertices settled before `settle_limit` of them are; others read as at least what they are.
  template <class Skip>
  void run(const adjacency<W>& out, std::span<const shortcut<W>> pending, std::int32_t source,
           Skip skip, W limit, int settle_limit) {
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
      for (const auto& a : pending) {
        if (a.from == u && du + a.weight <= limit && du + a.weight < dist(a.to)) {
          set(a.to, du + a.weight);
          heap_.push(du + a.weight, a.to);
        }
      }
      for (const auto& a : out[static_cast<std::size_t>(u)]) {
        if (skip(a.vertex))
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

/// A fixed pseudo-random order of the vertices (splitmix64): ties between equal priorities
/// spread over the graph instead of following the input's numbering, so each round contracts
/// many vertices, and the same ones on any number of threads.
[[nodiscard]] std::uint64_t tie_breaker(std::int32_t v) noexcept {
  std::uint64_t z = static_cast<std::uint64_t>(v) + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Contracts in rounds. Each round takes the vertices whose priority is the smallest within two
/// arcs among the vertices that remain (an independent set), finds their shortcuts in parallel
/// on the graph as it is, with witness searches that avoid every vertex of the round (a witness
/// through another one would vanish with it: with ties, two could each be the other's witness),
/// then adds the shortcuts and removes the round's vertices in vertex order, and recomputes
/// their neighbours' priorities in parallel. Nothing depends on the thread count: the hierarchy
/// is the same on any.
template <class W> class contractor {
public:
  contractor(const csr_graph<W>& g, W cap, const contraction_limits& limits)
      : n_(g.n), cap_(cap), limits_(limits),
        team_(std::max(1, limits.threads > 0 ? limits.threads : omp_get_max_threads())),
        out_(static_cast<std::size_t>(g.n)), in_(static_cast<std::size_t>(g.n)) {
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
    deleted_.assign(n, 0);
    level_.assign(n, 0);
    priority_.assign(n, 0);
    in_round_.assign(n, 0);
    up_.resize(n);
    down_.resize(n);
    std::int64_t arcs = 0;
    for (const auto& list : out_)
      arcs += static_cast<std::int64_t>(list.size());
    budget_ = static_cast<std::int64_t>(limits_.shortcut_budget * static_cast<double>(arcs)) + n_;
    for (int t = 0; t < team_; ++t)
      searches_.emplace_back(n_);
    found_.resize(static_cast<std::size_t>(team_));
    remaining_.resize(n);
    std::iota(remaining_.begin(), remaining_.end(), 0);
    picked_.resize(n);
    // One parallel region for the whole contraction, synchronised by team_barrier (a short spin,
    // then sleep): its hundreds of rounds meet a barrier five times each, and OpenMP's own
    // barriers and idle threads spin long enough to take a shared core from the thread that
    // works alone between them (blocked_fw.cpp's reason too).
#pragma omp parallel num_threads(team_)
    {
#pragma omp single
      sync_.emplace(omp_get_num_threads(),
                    detail::cpu::team_barrier::spins_for(omp_get_num_threads()));
      contract_all(static_cast<std::size_t>(omp_get_thread_num()));
    }
    contraction_hierarchy<W> h;
    h.n = n_;
    if (shortcuts_ > budget_)
      return h; // incomplete
    h.shortcuts = shortcuts_;
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

  /// Calls emit(u, w, weight) for each shortcut u -> w that contracting v needs now: each pair
  /// of v's neighbours without a witness that avoids what `skip` names (v among them).
  template <class Skip, class Emit, class Pending>
  void shortcuts_of(std::int32_t v, witness_search<W>& search, int settle_limit, Skip skip,
                    Emit emit, Pending pending) const {
    const auto& ins = in_[static_cast<std::size_t>(v)];
    const auto& outs = out_[static_cast<std::size_t>(v)];
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
      search.run(out_, pending(), u, skip, longest, settle_limit);
      for (const auto& [w, wv] : outs) {
        const W through = wu + wv;
        if (w == u || through >= cap_ || search.dist(w) <= through)
          continue; // a witness (or no distance can use it)
        emit(u, w, through);
      }
    }
  }

  /// Edge difference and contracted neighbours: contract where the graph grows least, spread
  /// out over the graph.
  std::int64_t priority(std::int32_t v, witness_search<W>& search) const {
    const auto vi = static_cast<std::size_t>(v);
    std::int64_t added = 0;
    shortcuts_of(
        v, search, limits_.estimate_settle_limit, [v](std::int32_t x) { return x == v; },
        [&added](std::int32_t, std::int32_t, W) { ++added; },
        [] { return std::span<const shortcut<W>>{}; });
    const auto removed = static_cast<std::int64_t>(in_[vi].size() + out_[vi].size());
    return 2 * (added - removed) + deleted_[vi];
  }

  /// Whether a comes before b: lower priority, then the fixed tie order, then lower id.
  [[nodiscard]] bool before(std::int32_t a, std::int32_t b) const noexcept {
    const auto pa = priority_[static_cast<std::size_t>(a)];
    const auto pb = priority_[static_cast<std::size_t>(b)];
    if (pa != pb)
      return pa < pb;
    const auto ta = tie_breaker(a);
    const auto tb = tie_breaker(b);
    return ta != tb ? ta < tb : a < b;
  }

  /// Whether v comes before every remaining vertex within two arcs of it (either way): two
  /// vertices of a round then share no neighbour, so that one's contraction changes nothing the
  /// other's priority counted (one arc apart only, rounds are larger but the hierarchy has more
  /// shortcuts).
  [[nodiscard]] bool first_within_two_arcs(std::int32_t v) const noexcept {
    const auto vi = static_cast<std::size_t>(v);
    for (const auto* list : {&in_[vi], &out_[vi]}) {
      for (const auto& a : *list) {
        if (!before(v, a.vertex))
          return false;
        const auto ai = static_cast<std::size_t>(a.vertex);
        for (const auto* next : {&in_[ai], &out_[ai]}) {
          for (const auto& b : *next) {
            if (b.vertex != v && !before(v, b.vertex))
              return false;
          }
        }
      }
    }
    return true;
  }

  /// Thread `t`'s part of the contraction: every thread runs the same rounds, and thread 0 alone
  /// the steps that change the graph, between barriers.
  void contract_all(std::size_t t) {
    auto& search = searches_[t];
    auto& found = found_[t];
    share_priorities(remaining_, search);
    while (!remaining_.empty()) {
      // The round: every vertex first within two arcs.
      share(next_pick_, static_cast<std::int64_t>(remaining_.size()), 256, [&](std::int64_t i) {
        picked_[static_cast<std::size_t>(i)] =
            first_within_two_arcs(remaining_[static_cast<std::size_t>(i)]) ? 1 : 0;
      });
      if (t == 0)
        take_round();
      sync_->arrive_and_wait();
      // Its shortcuts: round_[i]'s are found_[thread][first, first + size) for spans_[i].
      found.clear();
      share(next_find_, static_cast<std::int64_t>(round_.size()), 1, [&](std::int64_t i) {
        const std::size_t first = found.size();
        shortcuts_of(
            round_[static_cast<std::size_t>(i)], search, limits_.settle_limit,
            [this](std::int32_t x) { return in_round_[static_cast<std::size_t>(x)] != 0; },
            [&found](std::int32_t u, std::int32_t w, W weight) {
              found.push_back({u, w, weight});
            },
            [&found, first] {
              return std::span<const shortcut<W>>(found.data() + first, found.size() - first);
            });
        spans_[static_cast<std::size_t>(i)] = {t, first, found.size() - first};
      });
      if (t == 0)
        apply_round();
      sync_->arrive_and_wait();
      if (shortcuts_ > budget_)
        return; // incomplete
      share_priorities(touched_, search);
    }
  }

  /// A shared loop: every thread takes chunks of [0, count) from `next` until none is left, then
  /// all meet. Thread 0 sets each counter back while no thread uses it (take_round,
  /// apply_round).
  template <class Body>
  void share(std::atomic<std::int64_t>& next, std::int64_t count, std::int64_t chunk, Body body) {
    for (std::int64_t first; (first = next.fetch_add(chunk, std::memory_order_relaxed)) < count;) {
      for (std::int64_t i = first; i < std::min(first + chunk, count); ++i)
        body(i);
    }
    sync_->arrive_and_wait();
  }

  void share_priorities(const std::vector<std::int32_t>& vertices, witness_search<W>& search) {
    share(next_priority_, static_cast<std::int64_t>(vertices.size()), 16, [&](std::int64_t i) {
      const std::int32_t v = vertices[static_cast<std::size_t>(i)];
      priority_[static_cast<std::size_t>(v)] = priority(v, search);
    });
  }

  /// Moves the picked vertices from remaining_ to round_, both in vertex order (thread 0).
  void take_round() {
    round_.clear();
    std::size_t kept = 0;
    for (std::size_t i = 0; i < remaining_.size(); ++i) {
      if (picked_[i] != 0)
        round_.push_back(remaining_[i]);
      else
        remaining_[kept++] = remaining_[i];
    }
    remaining_.resize(kept);
    for (const std::int32_t v : round_)
      in_round_[static_cast<std::size_t>(v)] = 1;
    picked_.resize(remaining_.size());
    spans_.resize(round_.size());
    next_priority_.store(0, std::memory_order_relaxed);
  }

  /// Adds the round's shortcuts and removes its vertices, in vertex order: the same graph, arcs
  /// in the same order, on any number of threads; lists their neighbours in touched_ (thread 0).
  void apply_round() {
    touched_.clear();
    for (std::size_t i = 0; i < round_.size() && shortcuts_ <= budget_; ++i) {
      const auto& [thread, first, size] = spans_[i];
      for (std::size_t s = first; s < first + size; ++s) {
        const auto& sc = found_[thread][s];
        shortcuts_ += add_arc(sc.from, sc.to, sc.weight) ? 1 : 0;
      }
      remove(round_[i], touched_);
    }
    for (const std::int32_t v : round_)
      in_round_[static_cast<std::size_t>(v)] = 0;
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    next_pick_.store(0, std::memory_order_relaxed);
    next_find_.store(0, std::memory_order_relaxed);
  }

  /// Removes v (its shortcuts in): its arcs leave the remaining graph (kept as the hierarchy's),
  /// its neighbours go to `touched`.
  void remove(std::int32_t v, std::vector<std::int32_t>& touched) {
    const auto vi = static_cast<std::size_t>(v);
    auto drop = [v](std::vector<neighbour<W>>& list) {
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (list[i].vertex == v) {
          list[i] = list.back();
          list.pop_back();
          return;
        }
      }
    };
    const std::size_t first = touched.size();
    for (const auto& a : in_[vi]) {
      drop(out_[static_cast<std::size_t>(a.vertex)]);
      touched.push_back(a.vertex);
    }
    for (const auto& a : out_[vi]) {
      drop(in_[static_cast<std::size_t>(a.vertex)]);
      touched.push_back(a.vertex);
    }
    std::sort(touched.begin() + static_cast<std::ptrdiff_t>(first), touched.end());
    touched.erase(std::unique(touched.begin() + static_cast<std::ptrdiff_t>(first), touched.end()),
                  touched.end());
    for (std::size_t i = first; i < touched.size(); ++i) {
      const auto wi = static_cast<std::size_t>(touched[i]);
      ++deleted_[wi];
      level_[wi] = std::max(level_[wi], level_[vi] + 1);
    }
    up_[vi] = std::move(out_[vi]);
    down_[vi] = std::move(in_[vi]);
    out_[vi] = {};
    in_[vi] = {};
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
  int team_;
  adjacency<W> out_;
  adjacency<W> in_;
  adjacency<W> up_;   // each contracted vertex's arcs to higher ones
  adjacency<W> down_; // and from higher ones
  std::vector<witness_search<W>> searches_; // one per thread
  std::vector<std::vector<shortcut<W>>> found_;
  struct span {
    std::size_t thread;
    std::size_t first;
    std::size_t size;
  };
  std::vector<span> spans_;
  std::vector<char> in_round_;
  std::vector<char> picked_;
  std::vector<std::int32_t> remaining_; // in vertex order
  std::vector<std::int32_t> round_;
  std::vector<std::int32_t> touched_;
  std::int64_t shortcuts_ = 0;
  std::int64_t budget_ = 0;
  std::optional<detail::cpu::team_barrier> sync_;
  std::atomic<std::int64_t> next_pick_{0};
  std::atomic<std::int64_t> next_find_{0};
  std::atomic<std::int64_t> next_priority_{0};
  std::vector<std::int32_t> deleted_;
  std::vector<std::int32_t> level_;
  std::vector<std::int64_t> priority_;
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
