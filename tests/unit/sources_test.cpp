// apsp::solve_from_sources against the naive O(n^3) reference back end: the rows asked for
// (repeats, any order), in every element type, with negative weights, parallel edges and
// self-loops; predecessors that lead along shortest paths; negative cycles by scope; errors.
// The CSR overload against the edge-list one: the same rows and predecessors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/reference_solve.hpp"
#include "common/test_graphs.hpp"

namespace {

using apsp::testing::reference_solve;

template <class T>
void expect_rows_match(const apsp::graph& g, const std::vector<std::int64_t>& sources,
                       const apsp::source_result& got, const apsp::result& want) {
  const std::int64_t n = g.num_vertices();
  const auto& d = std::get<std::vector<T>>(got.distances);
  ASSERT_EQ(d.size(), sources.size() * static_cast<std::size_t>(n));
  ASSERT_EQ(got.predecessors.size(), d.size());
  const auto& full = want.distances_as<T>();
  const auto lightest = apsp::testing::min_edge_weights(g);
  constexpr T inf = apsp::weight_traits<T>::infinity;
  for (std::size_t r = 0; r < sources.size(); ++r) {
    const std::int64_t s = sources[r];
    for (std::int64_t t = 0; t < n; ++t) {
      const auto k = r * static_cast<std::size_t>(n) + static_cast<std::size_t>(t);
      ASSERT_EQ(d[k], full(s, t)) << "source " << s << " target " << t;
      const std::int32_t p = got.predecessors[k];
      if (t == s || d[k] == inf) {
        EXPECT_EQ(p, apsp::no_predecessor) << s << " -> " << t;
        continue;
      }
      // The predecessor's row entry plus the lightest p -> t edge is the distance to t.
      ASSERT_GE(p, 0) << s << " -> " << t;
      const auto edge = lightest.find({p, t});
      ASSERT_NE(edge, lightest.end()) << s << " -> " << t << " via " << p;
      const T via = d[r * static_cast<std::size_t>(n) + static_cast<std::size_t>(p)];
      EXPECT_EQ(static_cast<double>(via) + edge->second, static_cast<double>(d[k]))
          << s << " -> " << t << " via " << p;
    }
  }
}

struct sources_case {
  std::int64_t n;
  bool negative;
  std::uint64_t seed;
};

class solve_from_sources_test : public ::testing::TestWithParam<sources_case> {};

TEST_P(solve_from_sources_test, matches_the_reference_in_every_type) {
  const auto c = GetParam();
  SCOPED_TRACE("seed=" + std::to_string(c.seed) + " n=" + std::to_string(c.n));
  apsp::testing::random_graph_spec spec;
  spec.n = c.n;
  spec.density = 0.08;
  spec.min_weight = 1;
  spec.max_weight = 40;
  spec.negative_edges = c.negative;
  const apsp::graph g = apsp::testing::make_random_graph(spec, c.seed);
  std::vector<std::int64_t> sources;
  if (c.n > 0)
    sources = {c.n - 1, 0, c.n / 2, 0}; // any order, a repeat
  for (auto type :
       {apsp::dtype::float64, apsp::dtype::float32, apsp::dtype::int64, apsp::dtype::int32}) {
    SCOPED_TRACE(std::string(apsp::to_string(type)));
    apsp::source_options o;
    o.type = type;
    o.predecessors = true;
    o.threads = 2;
    const auto got = apsp::solve_from_sources(g, sources, o);
    EXPECT_EQ(got.n, c.n);
    EXPECT_EQ(got.sources, sources);
    const auto want = reference_solve(g, type);
    apsp::visit_dtype(type, [&](auto zero) {
      expect_rows_match<decltype(zero)>(g, sources, got, want);
    });
  }
}

// Sizes around the thread count and the progress step; with and without negative weights.
INSTANTIATE_TEST_SUITE_P(random_graphs, solve_from_sources_test,
                         ::testing::Values(sources_case{1, false, 1}, sources_case{2, true, 2},
                                           sources_case{17, false, 3}, sources_case{17, true, 4},
                                           sources_case{90, false, 5}, sources_case{90, true, 6}),
                         [](const auto& info) {
                           return "n" + std::to_string(info.param.n) +
                                  (info.param.negative ? "_negative" : "") + "_seed" +
                                  std::to_string(info.param.seed);
                         });

/// 0 -> 1 (weight 1), and a negative cycle 2 -> 3 -> 2 that 0 does not reach.
apsp::graph unreached_negative_cycle() {
  apsp::graph g(4);
  g.add_edge(0, 1, 1);
  g.add_edge(2, 3, -2);
  g.add_edge(3, 2, 1);
  return g;
}

TEST(solve_from_sources, negative_cycles_refuse_by_scope) {
  const apsp::graph g = unreached_negative_cycle();
  const std::vector<std::int64_t> from_zero{0};
  const auto got = apsp::solve_from_sources(g, from_zero); // reachable scope: not in the way
  const auto& d = std::get<std::vector<double>>(got.distances);
  EXPECT_EQ(d, (std::vector<double>{0, 1, apsp::weight_traits<double>::infinity,
                                    apsp::weight_traits<double>::infinity}));
  apsp::source_options whole;
  whole.cycles = apsp::cycle_scope::whole_graph;
  try {
    (void)apsp::solve_from_sources(g, from_zero, whole);
    ADD_FAILURE() << "no negative_cycle_error with cycle_scope::whole_graph";
  } catch (const apsp::negative_cycle_error& e) {
    EXPECT_EQ(e.cycle(), (std::vector<std::int64_t>{2, 3}));
    EXPECT_EQ(e.cycle_weight(), -1);
  }
  const std::vector<std::int64_t> from_three{3};
  EXPECT_THROW((void)apsp::solve_from_sources(g, from_three), apsp::negative_cycle_error);
  apsp::graph loop(3);
  loop.add_edge(0, 1, 1);
  loop.add_edge(2, 2, -1); // a negative self-loop is a negative cycle of its own
  EXPECT_NO_THROW((void)apsp::solve_from_sources(loop, from_zero));
  const std::vector<std::int64_t> from_two{2};
  EXPECT_THROW((void)apsp::solve_from_sources(loop, from_two), apsp::negative_cycle_error);
}

TEST(source_solver, batches_give_the_rows_of_one_call_and_cycles_refuse_once) {
  apsp::testing::random_graph_spec spec;
  spec.n = 60;
  spec.density = 0.08;
  spec.min_weight = 1;
  spec.max_weight = 40;
  spec.negative_edges = true;
  const apsp::graph g = apsp::testing::make_random_graph(spec, 5);
  const std::vector<std::int64_t> sources{59, 0, 7, 0, 33, 12, 41};
  for (const auto scope : {apsp::cycle_scope::whole_graph, apsp::cycle_scope::reachable}) {
    apsp::source_options o;
    o.type = apsp::dtype::int32;
    o.predecessors = true;
    o.threads = 2;
    o.cycles = scope;
    const auto whole = apsp::solve_from_sources(g, sources, o);
    const apsp::source_solver solver(g, o);
    const std::span<const std::int64_t> all(sources);
    for (std::size_t first = 0; first < sources.size(); first += 3) {
      const auto batch = all.subspan(first, std::min<std::size_t>(3, sources.size() - first));
      int reports = 0;
      const auto rows = solver.solve(batch, [&](const apsp::progress_info&) {
        ++reports;
        return true;
      });
      EXPECT_GT(reports, 0);
      const auto& want = std::get<std::vector<std::int32_t>>(whole.distances);
      const auto& got = std::get<std::vector<std::int32_t>>(rows.distances);
      const auto n = static_cast<std::size_t>(g.num_vertices());
      ASSERT_EQ(got.size(), batch.size() * n);
      EXPECT_TRUE(std::equal(got.begin(), got.end(), want.begin() + first * n));
      EXPECT_TRUE(std::equal(rows.predecessors.begin(), rows.predecessors.end(),
                             whole.predecessors.begin() + first * n));
    }
  }
  apsp::source_options whole_graph;
  whole_graph.cycles = apsp::cycle_scope::whole_graph;
  EXPECT_THROW(apsp::source_solver(unreached_negative_cycle(), whole_graph),
               apsp::negative_cycle_error);
  const apsp::graph cyclic = unreached_negative_cycle();
  const apsp::source_solver reachable(cyclic, {});
  EXPECT_NO_THROW((void)reachable.solve(std::vector<std::int64_t>{0}));
  EXPECT_THROW((void)reachable.solve(std::vector<std::int64_t>{3}), apsp::negative_cycle_error);
  EXPECT_THROW((void)reachable.solve(std::vector<std::int64_t>{4}), apsp::invalid_argument_error);
}

TEST(solve_from_sources, empty_sources_give_no_rows_and_bad_ones_are_refused) {
  const apsp::graph g = unreached_negative_cycle();
  const auto none = apsp::solve_from_sources(g, std::vector<std::int64_t>{});
  EXPECT_TRUE(std::get<std::vector<double>>(none.distances).empty());
  EXPECT_THROW((void)apsp::solve_from_sources(g, std::vector<std::int64_t>{4}),
               apsp::invalid_argument_error);
  EXPECT_THROW((void)apsp::solve_from_sources(g, std::vector<std::int64_t>{-1}),
               apsp::invalid_argument_error);
  apsp::graph fractional(2);
  fractional.add_edge(0, 1, 0.5);
  apsp::source_options o;
  o.type = apsp::dtype::int32;
  EXPECT_THROW((void)apsp::solve_from_sources(fractional, std::vector<std::int64_t>{0}, o),
               apsp::invalid_input_error);
}

TEST(solve_from_sources, progress_reports_and_cancels) {
  apsp::testing::random_graph_spec spec;
  spec.n = 200;
  const apsp::graph g = apsp::testing::make_random_graph(spec, 7);
  std::vector<std::int64_t> all(200);
  for (std::int64_t s = 0; s < 200; ++s)
    all[static_cast<std::size_t>(s)] = s;
  std::vector<std::int64_t> done;
  apsp::source_options o;
  o.progress = [&](const apsp::progress_info& p) {
    done.push_back(p.rounds_done);
    return true;
  };
  (void)apsp::solve_from_sources(g, all, o);
  ASSERT_GE(done.size(), 2U);
  EXPECT_EQ(done.front(), 1);
  int calls = 0;
  o.progress = [&](const apsp::progress_info&) { return ++calls < 2; };
  EXPECT_THROW((void)apsp::solve_from_sources(g, all, o), apsp::cancelled_error);
  EXPECT_EQ(calls, 2);
}

} // namespace

namespace {

/// `g`'s edges as CSR arrays in the edge list's order within each row (parallel edges and
/// self-loops kept) or, with `canonical`, sorted by target with one (the lightest) arc per
/// target, as SciPy's csr_matrix holds a summed COO.
template <class Index, class Weight> struct csr_arrays {
  std::vector<Index> offsets;
  std::vector<Index> targets;
  std::vector<Weight> weights;

  csr_arrays(const apsp::graph& g, bool canonical) {
    const auto n = static_cast<std::size_t>(g.num_vertices());
    std::vector<std::vector<std::pair<Index, Weight>>> rows(n);
    for (std::size_t e = 0; e < g.sources().size(); ++e)
      rows[static_cast<std::size_t>(g.sources()[e])].push_back(
          {static_cast<Index>(g.targets()[e]), static_cast<Weight>(g.weights()[e])});
    offsets.push_back(0);
    for (auto& row : rows) {
      if (canonical) {
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end(),
                              [](const auto& a, const auto& b) { return a.first == b.first; }),
                  row.end());
      }
      for (const auto& [t, w] : row) {
        targets.push_back(t);
        weights.push_back(w);
      }
      offsets.push_back(static_cast<Index>(targets.size()));
    }
  }
  [[nodiscard]] apsp::csr_view<Index, Weight> view(std::int64_t n) const {
    return {n, offsets, targets, weights};
  }
  /// The same arcs as an edge list, in array order.
  [[nodiscard]] apsp::graph edges(std::int64_t n) const {
    apsp::graph g(n);
    for (std::int64_t u = 0; u < n; ++u)
      for (auto a = offsets[static_cast<std::size_t>(u)];
           a < offsets[static_cast<std::size_t>(u) + 1]; ++a)
        g.add_edge(u, targets[static_cast<std::size_t>(a)], weights[static_cast<std::size_t>(a)]);
    return g;
  }
};

/// `g` as the edge-list path reads directed=False (every arc u != v also reversed, after all the
/// others) and unweighted=True (every weight 1).
apsp::graph transformed(const apsp::graph& g, bool symmetric, bool unit) {
  apsp::graph out(g.num_vertices());
  const auto& s = g.sources();
  const auto& t = g.targets();
  for (std::size_t e = 0; e < s.size(); ++e)
    out.add_edge(s[e], t[e], unit ? 1.0 : g.weights()[e]);
  for (std::size_t e = 0; symmetric && e < s.size(); ++e)
    if (s[e] != t[e])
      out.add_edge(t[e], s[e], unit ? 1.0 : g.weights()[e]);
  return out;
}

template <class Index, class Weight>
void expect_csr_like_edges(const apsp::graph& g, bool canonical, bool negative) {
  const std::int64_t n = g.num_vertices();
  const csr_arrays<Index, Weight> a(g, canonical);
  const apsp::graph edges = a.edges(n);
  const std::vector<std::int64_t> sources{n - 1, 0, n / 2, 0};
  for (auto type :
       {apsp::dtype::float64, apsp::dtype::float32, apsp::dtype::int64, apsp::dtype::int32}) {
    for (const bool symmetric : {false, true}) {
      for (const bool unit : {false, true}) {
        if (negative && symmetric && !unit)
          continue; // a negative edge both ways is a negative cycle (tested apart)
        SCOPED_TRACE(std::string(apsp::to_string(type)) + (symmetric ? " symmetric" : "") +
                     (unit ? " unit" : ""));
        apsp::source_options o;
        o.type = type;
        o.predecessors = true;
        o.threads = 2;
        auto view = a.view(n);
        view.symmetric = symmetric;
        view.unit_weights = unit;
        const auto got = apsp::solve_from_sources(view, sources, o);
        const auto want =
            apsp::solve_from_sources(transformed(edges, symmetric, unit), sources, o);
        EXPECT_EQ(got.n, n);
        EXPECT_EQ(got.sources, sources);
        EXPECT_EQ(got.distances, want.distances); // same values, same type
        EXPECT_EQ(got.predecessors, want.predecessors);
      }
    }
  }
}

struct csr_case {
  std::int64_t n;
  bool negative;
  bool canonical;
  std::uint64_t seed;
};

class csr_sources_test : public ::testing::TestWithParam<csr_case> {};

// Searched in place (canonical, non-negative) or through an edge list (the others): the rows and
// predecessors of the edge-list overload exactly, in every index, weight and element type.
TEST_P(csr_sources_test, gives_the_edge_list_rows) {
  const auto c = GetParam();
  SCOPED_TRACE("seed=" + std::to_string(c.seed) + " n=" + std::to_string(c.n) +
               (c.canonical ? " canonical" : " raw"));
  apsp::testing::random_graph_spec spec;
  spec.n = c.n;
  spec.density = 0.08;
  spec.min_weight = 0; // explicit zeros
  spec.max_weight = 40;
  spec.negative_edges = c.negative;
  const apsp::graph g = apsp::testing::make_random_graph(spec, c.seed);
  expect_csr_like_edges<std::int32_t, double>(g, c.canonical, c.negative);
  expect_csr_like_edges<std::int64_t, double>(g, c.canonical, c.negative);
  expect_csr_like_edges<std::int32_t, float>(g, c.canonical, c.negative);
  expect_csr_like_edges<std::int64_t, float>(g, c.canonical, c.negative);
}

INSTANTIATE_TEST_SUITE_P(random_graphs, csr_sources_test,
                         ::testing::Values(csr_case{1, false, true, 11},
                                           csr_case{17, false, true, 12},
                                           csr_case{17, false, false, 13},
                                           csr_case{90, false, true, 14},
                                           csr_case{90, false, false, 15},
                                           csr_case{90, true, true, 16}),
                         [](const auto& info) {
                           return "n" + std::to_string(info.param.n) +
                                  (info.param.negative ? "_negative" : "") +
                                  (info.param.canonical ? "_canonical" : "_raw") + "_seed" +
                                  std::to_string(info.param.seed);
                         });

TEST(csr_sources, reads_entries_as_scipy_does) {
  // 0 -> 1 (2), 0 -> 2 (+inf: no arc), 1 -> 2 (0: an arc), 2 -> 0 (5)
  const std::vector<std::int32_t> offsets{0, 2, 3, 4};
  const std::vector<std::int32_t> targets{1, 2, 2, 0};
  std::vector<double> weights{2, HUGE_VAL, 0, 5};
  apsp::csr_view<std::int32_t, double> g{3, offsets, targets, weights};
  apsp::source_options o;
  o.predecessors = true;
  const auto r = apsp::solve_from_sources(g, std::vector<std::int64_t>{0, 2}, o);
  EXPECT_EQ(std::get<std::vector<double>>(r.distances), (std::vector<double>{0, 2, 2, 5, 7, 0}));
  EXPECT_EQ(r.predecessors, (std::vector<std::int32_t>{apsp::no_predecessor, 0, 1, 2, 0,
                                                       apsp::no_predecessor}));
  weights[2] = -1; // a negative weight: potentials, same answer less 1 through 1 -> 2
  const auto neg = apsp::solve_from_sources(g, std::vector<std::int64_t>{0}, o);
  EXPECT_EQ(std::get<std::vector<double>>(neg.distances), (std::vector<double>{0, 2, 1}));
  weights[3] = -1.5; // 0 -> 1 -> 2 -> 0 weighs -0.5
  EXPECT_THROW((void)apsp::solve_from_sources(g, std::vector<std::int64_t>{1}),
               apsp::negative_cycle_error);
  weights[3] = std::nan("");
  EXPECT_THROW((void)apsp::solve_from_sources(g, std::vector<std::int64_t>{1}),
               apsp::invalid_input_error);
  weights[3] = -HUGE_VAL;
  EXPECT_THROW((void)apsp::solve_from_sources(g, std::vector<std::int64_t>{1}),
               apsp::invalid_input_error);
}

TEST(csr_sources, refuses_malformed_arrays) {
  const std::vector<std::int64_t> offsets{0, 1, 2};
  const std::vector<std::int64_t> targets{1, 2}; // 2 is outside 0..1
  const std::vector<float> weights{1, 1};
  const std::vector<std::int64_t> from_zero{0};
  EXPECT_THROW((void)apsp::solve_from_sources(apsp::csr_view<std::int64_t, float>{2, offsets,
                                                                                  targets, weights},
                                              from_zero),
               apsp::invalid_input_error);
  const std::vector<std::int64_t> targets_ok{1, 0};
  const std::vector<std::int64_t> short_offsets{0, 2};
  EXPECT_THROW((void)apsp::solve_from_sources(
                   apsp::csr_view<std::int64_t, float>{2, short_offsets, targets_ok, weights},
                   from_zero),
               apsp::invalid_argument_error);
  const std::vector<std::int64_t> decreasing{0, 2, 1};
  EXPECT_THROW((void)apsp::solve_from_sources(
                   apsp::csr_view<std::int64_t, float>{2, decreasing, targets_ok, weights},
                   from_zero),
               apsp::invalid_argument_error);
  const std::vector<std::int64_t> from_two{2};
  EXPECT_THROW((void)apsp::solve_from_sources(
                   apsp::csr_view<std::int64_t, float>{2, offsets, targets_ok, weights}, from_two),
               apsp::invalid_argument_error);
}

} // namespace
