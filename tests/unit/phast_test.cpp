// PHAST (src/cpu/phast.hpp) against plain Dijkstra, row for row and exactly: grid-like and
// random sparse directed graphs with unreachable parts, zero weights, parallel arcs, self-loops
// and negative weights (through Johnson's potentials), n from 0 to 2000, int32 and int64, every
// lane count, generous and starved witness searches, hierarchies built on 1, 2 and 3 threads
// (the same hierarchy on each); the metrics reduced from the sweeps by position against those
// of Dijkstra's rows, on 1 to 3 threads; and apsp::compute_metrics on a road-like graph, where
// auto picks PHAST, against the metrics of the full matrix.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/same_metrics.hpp"
#include "core/backend.hpp"
#include "core/metrics_accumulator.hpp"
#include "core/row_sink.hpp"
#include "core/tuning.hpp"
#include "cpu/all_sources_dijkstra.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/phast.hpp"
#include "cpu/potentials.hpp"

namespace {

using apsp::testing::expect_same_metrics;

/// A w x h grid: each of its edges kept with probability 0.7, two-way or one-way; a few
/// diagonals, parallel arcs and self-loops; weights 0..max_weight, or shifted by random
/// potentials (negative weights, no negative cycle) when `negative`.
apsp::graph grid_graph(std::int64_t w, std::int64_t h, std::int64_t max_weight, bool negative,
                       std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::int64_t n = w * h;
  apsp::graph g(n);
  std::vector<std::int64_t> shift(static_cast<std::size_t>(n), 0);
  if (negative) {
    for (auto& s : shift)
      s = static_cast<std::int64_t>(rng() % 50);
  }
  std::uniform_int_distribution<std::int64_t> weight(0, max_weight);
  auto arc = [&](std::int64_t u, std::int64_t v) {
    // w(u, v) = base + shift(v) - shift(u): every cycle weighs its bases' sum, >= 0.
    const std::int64_t base = weight(rng);
    g.add_edge(u, v,
               static_cast<double>(base + shift[static_cast<std::size_t>(v)] -
                                   shift[static_cast<std::size_t>(u)]));
  };
  std::uniform_real_distribution<double> coin(0, 1);
  for (std::int64_t y = 0; y < h; ++y) {
    for (std::int64_t x = 0; x < w; ++x) {
      const std::int64_t v = y * w + x;
      for (const std::int64_t to : {x + 1 < w ? v + 1 : -1, y + 1 < h ? v + w : -1}) {
        if (to < 0 || coin(rng) > 0.7)
          continue;
        const double kind = coin(rng);
        if (kind < 0.8) {
          arc(v, to);
          arc(to, v);
        } else if (kind < 0.9) {
          arc(v, to);
        } else {
          arc(to, v);
        }
      }
      if (coin(rng) < 0.03 && x + 1 < w && y + 1 < h)
        arc(v, v + w + 1);
      if (coin(rng) < 0.02 && x + 1 < w)
        arc(v, v + 1); // a parallel arc, perhaps
      if (coin(rng) < 0.02)
        g.add_edge(v, v, static_cast<double>(weight(rng))); // a self-loop (>= 0)
    }
  }
  return g;
}

/// n vertices, m random arcs (some vertices unreachable, some unreaching), the same weights.
apsp::graph sparse_graph(std::int64_t n, std::int64_t m, std::int64_t max_weight, bool negative,
                         std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  apsp::graph g(n);
  if (n == 0)
    return g;
  std::vector<std::int64_t> shift(static_cast<std::size_t>(n), 0);
  if (negative) {
    for (auto& s : shift)
      s = static_cast<std::int64_t>(rng() % 1000);
  }
  std::uniform_int_distribution<std::int64_t> vertex(0, n - 1);
  std::uniform_int_distribution<std::int64_t> weight(0, max_weight);
  for (std::int64_t e = 0; e < m; ++e) {
    const std::int64_t u = vertex(rng);
    const std::int64_t v = e % 17 == 0 ? u : vertex(rng);
    const std::int64_t base = weight(rng);
    const std::int64_t w =
        u == v ? base
               : base + shift[static_cast<std::size_t>(v)] - shift[static_cast<std::size_t>(u)];
    g.add_edge(u, v, static_cast<double>(w));
  }
  return g;
}

/// Every row, kept: n x n values, and the order of the calls.
template <class T> class keep_rows final : public apsp::detail::row_sink<T> {
public:
  explicit keep_rows(std::int64_t n) : n_(n), rows_(static_cast<std::size_t>(n * n)) {}
  void start(int workers) override { workers_ = workers; }
  void take(int worker, std::int64_t source, const T* row) override {
    EXPECT_GE(worker, 0);
    EXPECT_LT(worker, workers_);
    std::copy(row, row + n_, rows_.begin() + source * n_);
    taken_.fetch_add(1);
  }
  [[nodiscard]] const std::vector<T>& rows() const noexcept { return rows_; }
  [[nodiscard]] std::int64_t taken() const noexcept { return taken_.load(); }

private:
  std::int64_t n_;
  int workers_ = 0;
  std::atomic<std::int64_t> taken_{0};
  std::vector<T> rows_;
};

/// What PHAST and Dijkstra's rows start from: `g` in CSR form, reweighted by Johnson's
/// potentials `h` when some weight is negative.
template <class T> struct johnson_graph {
  apsp::cpu::csr_graph<T> csr;
  std::vector<T> h;
  bool negative = false;
};

template <class T> johnson_graph<T> johnson_input(const apsp::graph& g) {
  johnson_graph<T> j{apsp::cpu::csr_from_edges<T>(g), {}, false};
  for (std::int64_t e = 0; e < g.num_edges(); ++e)
    j.negative = j.negative || g.weights()[static_cast<std::size_t>(e)] < 0;
  if (j.negative) {
    j.h = apsp::cpu::johnson_potentials(j.csr);
    apsp::cpu::reweight(j.csr, j.h);
  }
  return j;
}

/// Generous and starved witness searches, on the caller's threads.
std::vector<apsp::cpu::contraction_limits> both_limits() {
  apsp::cpu::contraction_limits starved;
  starved.settle_limit = 1; // almost no witness: many shortcuts, all must be right
  starved.estimate_settle_limit = 1;
  starved.shortcut_budget = 1e9;
  return {apsp::cpu::contraction_limits{}, starved};
}

/// PHAST's rows of `g` (every lane count, two witness-search budgets unless told) against
/// Dijkstra's.
template <class T>
void expect_dijkstra_rows(
    const apsp::graph& g, const std::string& what,
    const std::vector<apsp::cpu::contraction_limits>& limit_set = both_limits(),
    const std::vector<int>& lane_counts = {1, 4, 8, 16}) {
  SCOPED_TRACE(what);
  const std::int64_t n = g.num_vertices();
  auto [csr, h, negative] = johnson_input<T>(g);
  const apsp::solve_options so;
  apsp::cpu::dijkstra_config cfg;
  cfg.threads = 2;
  cfg.sources_per_round = 5;
  keep_rows<T> want(n);
  {
    apsp::detail::run_context ctx(so, n, negative);
    apsp::cpu::sink_dijkstra<T>(csr, h, want, cfg, ctx);
  }
  for (const auto& limits : limit_set) {
    const auto ch = apsp::cpu::phast_hierarchy<T>(csr, limits);
    ASSERT_TRUE(ch.complete);
    for (const int lanes : lane_counts) {
      SCOPED_TRACE("lanes=" + std::to_string(lanes) +
                   " settle limit=" + std::to_string(limits.settle_limit) +
                   " threads=" + std::to_string(limits.threads));
      keep_rows<T> got(n);
      std::int64_t last_round = 0;
      apsp::solve_options po;
      po.progress = [&](const apsp::progress_info& p) {
        EXPECT_EQ(p.rounds_done, last_round + 1);
        last_round = p.rounds_done;
        return true;
      };
      apsp::detail::run_context ctx(po, n, negative);
      apsp::cpu::sink_phast<T>(ch, h, got, cfg, lanes, ctx);
      EXPECT_EQ(got.taken(), n);
      EXPECT_EQ(last_round, (n + cfg.sources_per_round - 1) / cfg.sources_per_round);
      std::int64_t wrong = 0;
      for (std::int64_t i = 0; i < n * n; ++i) {
        if (got.rows()[static_cast<std::size_t>(i)] != want.rows()[static_cast<std::size_t>(i)] &&
            wrong++ < 5) {
          ADD_FAILURE() << "row " << i / n << " column " << i % n << ": PHAST "
                        << got.rows()[static_cast<std::size_t>(i)] << ", Dijkstra "
                        << want.rows()[static_cast<std::size_t>(i)];
        }
      }
      ASSERT_EQ(wrong, 0);
    }
  }
}

template <class T> void rows_on_many_graphs() {
  const std::int64_t max_weight = sizeof(T) == 4 ? 1000 : std::int64_t{1} << 40;
  std::uint64_t seed = 1;
  for (const std::int64_t n : {0, 1, 2, 3, 15, 16, 17, 100, 700, 2000}) {
    for (const bool negative : {false, true}) {
      ++seed;
      expect_dijkstra_rows<T>(sparse_graph(n, n * 5 / 2, max_weight, negative, seed),
                              "sparse n=" + std::to_string(n) + " seed=" + std::to_string(seed) +
                                  (negative ? " negative" : ""));
    }
  }
  for (const auto& [w, h] :
       {std::pair<std::int64_t, std::int64_t>{1, 1}, {1, 40}, {7, 9}, {31, 33}, {45, 44}}) {
    for (const std::int64_t mw : {std::int64_t{0}, std::int64_t{3}, max_weight}) {
      for (const bool negative : {false, true}) {
        ++seed;
        expect_dijkstra_rows<T>(grid_graph(w, h, mw, negative, seed),
                                "grid " + std::to_string(w) + "x" + std::to_string(h) +
                                    " max weight=" + std::to_string(mw) + " seed=" +
                                    std::to_string(seed) + (negative ? " negative" : ""));
      }
    }
  }
}

TEST(phast, rows_are_dijkstras_int32) {
  rows_on_many_graphs<std::int32_t>();
}
TEST(phast, rows_are_dijkstras_int64) {
  rows_on_many_graphs<std::int64_t>();
}

/// The metrics of PHAST's rows (metrics_accumulator::take_sweep: reduced by sweep position,
/// potentials added there) against those of Dijkstra's rows (take(), in vertex order): exact
/// where the values are counts, maxima or the histogram, within 1e-12 where they are sums of
/// 1/d in another order; every lane count, 1 to 3 threads, all metrics and a set without the
/// column sums.
template <class T> void expect_dijkstra_metrics(const apsp::graph& g, const std::string& what) {
  SCOPED_TRACE(what);
  const std::int64_t n = g.num_vertices();
  auto [csr, h, negative] = johnson_input<T>(g);
  const auto ch = apsp::cpu::phast_hierarchy<T>(csr);
  ASSERT_TRUE(ch.complete);
  const apsp::solve_options so;
  apsp::metrics_options all;
  all.histogram_bins = 9;
  apsp::metrics_options rows_only;
  rows_only.which = apsp::metric::diameter | apsp::metric::out_eccentricity |
                    apsp::metric::global_efficiency | apsp::metric::average_path_length;
  for (const auto& mo : {all, rows_only}) {
    apsp::cpu::dijkstra_config cfg;
    cfg.threads = 2;
    cfg.sources_per_round = 7;
    apsp::detail::metrics_accumulator<T> want(n, mo);
    {
      apsp::detail::run_context ctx(so, n, negative);
      apsp::cpu::sink_dijkstra<T>(csr, h, want, cfg, ctx);
    }
    const apsp::graph_metrics want_metrics = want.finish();
    for (const int lanes : {1, 4, 8, 16}) {
      for (int threads = 1; threads <= 3; ++threads) {
        SCOPED_TRACE("lanes=" + std::to_string(lanes) + " threads=" + std::to_string(threads) +
                     (mo.which == all.which ? " all metrics" : " rows only"));
        cfg.threads = threads;
        apsp::detail::metrics_accumulator<T> got(n, mo);
        apsp::detail::run_context ctx(so, n, negative);
        apsp::cpu::sink_phast<T>(ch, h, got, cfg, lanes, ctx);
        expect_same_metrics(got.finish(), want_metrics, 1e-12);
      }
    }
  }
}

template <class T> void metrics_on_some_graphs() {
  const std::int64_t max_weight = sizeof(T) == 4 ? 1000 : std::int64_t{1} << 40;
  std::uint64_t seed = 100;
  for (const std::int64_t n : {1, 2, 17, 300}) {
    for (const bool negative : {false, true}) {
      ++seed;
      expect_dijkstra_metrics<T>(sparse_graph(n, n * 5 / 2, max_weight, negative, seed),
                                 "sparse n=" + std::to_string(n) + " seed=" + std::to_string(seed) +
                                     (negative ? " negative" : ""));
    }
  }
  for (const std::int64_t mw : {std::int64_t{0}, std::int64_t{3}, max_weight}) {
    for (const bool negative : {false, true}) {
      ++seed;
      expect_dijkstra_metrics<T>(grid_graph(23, 19, mw, negative, seed),
                                 "grid 23x19 max weight=" + std::to_string(mw) + " seed=" +
                                     std::to_string(seed) + (negative ? " negative" : ""));
    }
  }
}

TEST(phast, metrics_of_the_sweeps_are_those_of_dijkstras_rows_int32) {
  metrics_on_some_graphs<std::int32_t>();
}
TEST(phast, metrics_of_the_sweeps_are_those_of_dijkstras_rows_int64) {
  metrics_on_some_graphs<std::int64_t>();
}

TEST(phast, weights_near_the_type_limit_do_not_wrap) {
  // Arcs at and just below int32's infinity / 3 (the largest a solve admits on a path of a few
  // arcs) and one heavier than any distance: sums in the sweep must not overflow.
  apsp::graph g(6);
  const double big = (1073741823.0 - 1) / 4;
  g.add_edge(0, 1, big);
  g.add_edge(1, 2, big);
  g.add_edge(2, 3, big);
  g.add_edge(3, 4, 1);
  g.add_edge(4, 0, 0);
  g.add_edge(5, 0, big);
  expect_dijkstra_rows<std::int32_t>(g, "heavy path");
}

/// The limits of `base` on `threads` threads.
apsp::cpu::contraction_limits on_threads(apsp::cpu::contraction_limits base, int threads) {
  base.threads = threads;
  return base;
}

TEST(phast, hierarchies_built_on_1_2_and_3_threads_give_dijkstras_rows) {
  std::vector<apsp::cpu::contraction_limits> limit_set;
  for (const auto& limits : both_limits()) {
    for (const int threads : {1, 2, 3})
      limit_set.push_back(on_threads(limits, threads));
  }
  std::uint64_t seed = 100;
  for (const std::int64_t mw : {0, 3, 1000}) {
    for (const bool negative : {false, true}) {
      ++seed;
      expect_dijkstra_rows<std::int32_t>(grid_graph(45, 44, mw, negative, seed),
                                         "grid 45x44 max weight=" + std::to_string(mw) + " seed=" +
                                             std::to_string(seed) + (negative ? " negative" : ""),
                                         limit_set, {16});
      expect_dijkstra_rows<std::int64_t>(sparse_graph(700, 1750, mw, negative, seed),
                                         "sparse n=700 max weight=" + std::to_string(mw) +
                                             " seed=" + std::to_string(seed) +
                                             (negative ? " negative" : ""),
                                         limit_set, {8});
    }
  }
}

TEST(phast, the_hierarchy_does_not_depend_on_the_thread_count) {
  // The rounds are the same on any number of threads, and so are the shortcuts and the layout.
  // (Smaller graphs for the starved searches, whose shortcuts make a dense core.)
  std::uint64_t seed = 200;
  for (const auto& limits : both_limits()) {
    const bool starved = limits.settle_limit == 1;
    for (const std::int64_t mw : {0, 3, 1000}) {
      ++seed;
      SCOPED_TRACE("max weight=" + std::to_string(mw) + " seed=" + std::to_string(seed) +
                   " settle limit=" + std::to_string(limits.settle_limit));
      for (const apsp::graph& g :
           {grid_graph(starved ? 45 : 150, starved ? 44 : 140, mw, false, seed),
            sparse_graph(starved ? 700 : 3000, starved ? 1750 : 7500, mw, false, seed)}) {
        const auto csr = apsp::cpu::csr_from_edges<std::int32_t>(g);
        const auto one = apsp::cpu::phast_hierarchy<std::int32_t>(csr, on_threads(limits, 1));
        const auto three = apsp::cpu::phast_hierarchy<std::int32_t>(csr, on_threads(limits, 3));
        ASSERT_TRUE(one.complete);
        ASSERT_TRUE(three.complete);
        EXPECT_EQ(one.shortcuts, three.shortcuts);
        EXPECT_EQ(one.levels, three.levels);
        EXPECT_EQ(one.position, three.position);
        EXPECT_EQ(one.vertex_at, three.vertex_at);
        EXPECT_EQ(one.up_offsets, three.up_offsets);
        EXPECT_EQ(one.down_offsets, three.down_offsets);
        auto same_arcs = [](const auto& a, const auto& b) {
          return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                            [](const auto& x, const auto& y) {
                              return x.other == y.other && x.weight == y.weight;
                            });
        };
        EXPECT_TRUE(same_arcs(one.up_arcs, three.up_arcs));
        EXPECT_TRUE(same_arcs(one.down_arcs, three.down_arcs));
      }
    }
  }
}

TEST(phast, a_hierarchy_over_its_shortcut_budget_is_incomplete_on_any_thread_count) {
  // Starved witness searches need more shortcuts than one per vertex (the budget at 0 per arc).
  const apsp::graph g = grid_graph(45, 44, 1000, false, 7);
  const auto csr = apsp::cpu::csr_from_edges<std::int32_t>(g);
  apsp::cpu::contraction_limits tight = both_limits()[1];
  const auto starved = apsp::cpu::phast_hierarchy<std::int32_t>(csr, tight);
  ASSERT_TRUE(starved.complete);
  ASSERT_GT(starved.shortcuts, g.num_vertices());
  tight.shortcut_budget = 0;
  for (const int threads : {1, 2, 3}) {
    const auto ch = apsp::cpu::phast_hierarchy<std::int32_t>(csr, on_threads(tight, threads));
    EXPECT_FALSE(ch.complete) << threads << " threads";
  }
}

TEST(phast, a_cancel_stops_the_sweeps) {
  const apsp::graph g = grid_graph(20, 20, 100, false, 3);
  auto csr = apsp::cpu::csr_from_edges<std::int32_t>(g);
  const auto ch = apsp::cpu::phast_hierarchy<std::int32_t>(csr);
  apsp::solve_options so;
  so.progress = [](const apsp::progress_info& p) { return p.rounds_done < 2; };
  apsp::cpu::dijkstra_config cfg;
  cfg.sources_per_round = 16;
  keep_rows<std::int32_t> got(g.num_vertices());
  apsp::detail::run_context ctx(so, g.num_vertices(), false);
  EXPECT_THROW(apsp::cpu::sink_phast<std::int32_t>(ch, {}, got, cfg, 16, ctx),
               apsp::cancelled_error);
  EXPECT_LT(got.taken(), g.num_vertices());
}

TEST(phast, the_rule_takes_large_sparse_integer_graphs_only) {
  const apsp::detail::tuning on;
  const apsp::graph small = grid_graph(10, 10, 5, false, 1);
  EXPECT_EQ(apsp::detail::choose_row_engine(small, apsp::dtype::int32, on),
            apsp::detail::row_engine::dijkstra);
  const apsp::graph road = grid_graph(80, 80, 1000, false, 2);
  EXPECT_EQ(apsp::detail::choose_row_engine(road, apsp::dtype::int32, on),
            apsp::detail::row_engine::phast);
  EXPECT_EQ(apsp::detail::choose_row_engine(road, apsp::dtype::int64, on),
            apsp::detail::row_engine::phast);
  EXPECT_EQ(apsp::detail::choose_row_engine(road, apsp::dtype::float32, on),
            apsp::detail::row_engine::dijkstra);
  apsp::detail::tuning off;
  off.cpu_phast = false;
  EXPECT_EQ(apsp::detail::choose_row_engine(road, apsp::dtype::int32, off),
            apsp::detail::row_engine::dijkstra);
}

TEST(phast, compute_metrics_on_a_road_like_graph_matches_the_full_matrix) {
  // 72 x 72 = 5184 vertices: past phast_min_vertices, so auto makes the rows by PHAST. The
  // full matrix comes from the cpu back end's blocked Floyd-Warshall (the reference back end's
  // n^3 would take minutes at this size; cpu_backend_test holds it to the reference).
  for (const bool negative : {false, true}) {
    SCOPED_TRACE(negative ? "negative weights" : "weights >= 0");
    const apsp::graph g = grid_graph(72, 72, 1000, negative, negative ? 11 : 12);
    ASSERT_GE(g.num_vertices(), apsp::cpu::phast_min_vertices);
    apsp::solve_options fw;
    fw.backend = apsp::backend_kind::cpu;
    fw.algorithm = apsp::algorithm_kind::floyd_warshall;
    const apsp::graph_metrics want = apsp::metrics_of(apsp::solve(g, fw).distances(), {});
    apsp::solve_options so;
    so.backend = apsp::backend_kind::cpu;
    const apsp::graph_metrics got = apsp::compute_metrics(g, so, {});
    EXPECT_TRUE(std::holds_alternative<apsp::drivers::phast_rows>(got.executed_plan.run));
    EXPECT_NE(got.executed_plan.device.find("PHAST"), std::string::npos)
        << got.executed_plan.device;
    expect_same_metrics(got, want);
    // And with PHAST switched off, the same values by Dijkstra.
    const apsp::detail::scoped_tuning plain([](apsp::detail::tuning& t) { t.cpu_phast = false; });
    const apsp::graph_metrics dijkstra = apsp::compute_metrics(g, so, {});
    EXPECT_EQ(dijkstra.executed_plan.device.find("PHAST"), std::string::npos);
    expect_same_metrics(dijkstra, want);
  }
}

} // namespace
