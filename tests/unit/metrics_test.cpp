// apsp::compute_metrics on every engine built for the cpu (reference, cpu blocked, supernodal,
// Dijkstra in batches, auto), and with APSP_METRICS_TEST_CUDA (metrics_cuda_test, label gpu)
// on the cuda back end too (the matrix reduced on the GPU), against apsp::metrics_of on the
// reference back end's full matrix;
// metrics_of itself against a naive computation from the definitions; the histogram's
// independence of row order; negative cycles, cancellation and the metric-name parser.

#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/reference_solve.hpp"
#include "common/same_metrics.hpp"
#include "common/test_graphs.hpp"
#include "core/backend.hpp"
#include "core/metrics_accumulator.hpp"
#include "core/metrics_histogram.hpp"
#include "core/planner.hpp"
#include "core/row_sink.hpp"
#include "core/tuning.hpp"
#include "cpu/cpu_isa.hpp"

namespace {

using apsp::testing::expect_close;
using apsp::testing::expect_same_metrics;
using apsp::testing::reference_solve;

/// The definitions of include/apsp/metrics.hpp, written out pair by pair on the reference
/// matrix (in double), independently of the library's reduction.
apsp::graph_metrics naive_metrics(const apsp::result& r, bool wf_improved) {
  const std::int64_t n = r.n();
  apsp::graph_metrics m;
  m.n = n;
  const auto N = static_cast<std::size_t>(n);
  m.out_eccentricity.assign(N, 0);
  m.in_eccentricity.assign(N, 0);
  m.closeness.assign(N, 0);
  m.harmonic.assign(N, 0);
  m.reach_out.assign(N, 0);
  m.reach_in.assign(N, 0);
  double total = 0;
  double inverse = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    double to_v = 0;
    for (std::int64_t u = 0; u < n; ++u) {
      if (u == v || !r.reachable(u, v))
        continue;
      const double d = r.distance(u, v);
      ++m.reach_in[static_cast<std::size_t>(v)];
      ++m.reach_out[static_cast<std::size_t>(u)];
      to_v += d;
      total += d;
      m.in_eccentricity[static_cast<std::size_t>(v)] =
          std::max(m.in_eccentricity[static_cast<std::size_t>(v)], d);
      m.out_eccentricity[static_cast<std::size_t>(u)] =
          std::max(m.out_eccentricity[static_cast<std::size_t>(u)], d);
      if (d > 0) {
        m.harmonic[static_cast<std::size_t>(v)] += 1 / d;
        inverse += 1 / d;
      }
    }
    const auto reached = static_cast<double>(m.reach_in[static_cast<std::size_t>(v)]);
    if (to_v > 0 && n > 1) {
      m.closeness[static_cast<std::size_t>(v)] =
          reached / to_v * (wf_improved ? reached / static_cast<double>(n - 1) : 1.0);
    }
  }
  bool any = false;
  for (std::size_t v = 0; v < N; ++v) {
    m.reachable_pairs += static_cast<std::uint64_t>(m.reach_out[v]);
    m.diameter = std::max(m.diameter, m.out_eccentricity[v]);
    if (m.reach_out[v] > 0) {
      m.radius = any ? std::min(m.radius, m.out_eccentricity[v]) : m.out_eccentricity[v];
      any = true;
    }
  }
  m.average_path_length = m.reachable_pairs > 0 ? total / static_cast<double>(m.reachable_pairs) : 0;
  m.global_efficiency = n > 1 ? inverse / (static_cast<double>(n) * static_cast<double>(n - 1)) : 0;
  return m;
}

/// Random graph with zero and (optionally) negative weights, unreachable vertices, self-loops
/// and parallel edges; weights in quarters for float types, both directions when undirected.
apsp::graph test_graph(std::int64_t n, double density, bool negative, bool undirected,
                       apsp::dtype type, std::uint64_t seed) {
  apsp::testing::random_graph_spec spec;
  spec.n = n;
  spec.density = density;
  spec.min_weight = 0;
  spec.max_weight = 20;
  spec.negative_edges = negative;
  spec.isolated_fraction = 0.15;
  const apsp::graph base = apsp::testing::make_random_graph(spec, seed);
  const double scale = apsp::is_integral(type) ? 1.0 : 0.25;
  apsp::graph g(n);
  for (std::int64_t e = 0; e < base.num_edges(); ++e) {
    const auto k = static_cast<std::size_t>(e);
    const std::int32_t u = base.sources()[k];
    const std::int32_t v = base.targets()[k];
    const double w = base.weights()[k] * scale;
    g.add_edge(u, v, w);
    if (undirected && u != v)
      g.add_edge(v, u, w);
  }
  return g;
}

struct engine {
  const char* name;
  apsp::backend_kind backend;
  apsp::algorithm_kind algorithm;
  std::int64_t block;
  std::vector<int> devices = {}; ///< cuda: empty = device 0
};

/// Whether this build and machine run the cuda back end (metrics_cuda_test only).
bool have_cuda() {
  for (const apsp::backend_status& b : apsp::list_backends()) {
    if (b.kind == apsp::backend_kind::cuda)
      return b.available;
  }
  return false;
}

std::vector<engine> engines() {
  std::vector<engine> e = {
      {"reference", apsp::backend_kind::reference, apsp::algorithm_kind::floyd_warshall, 0},
      {"cpu blocked", apsp::backend_kind::cpu, apsp::algorithm_kind::floyd_warshall, 0},
      {"dijkstra batches of 3", apsp::backend_kind::cpu, apsp::algorithm_kind::johnson, 3},
      {"dijkstra batches of 7", apsp::backend_kind::automatic, apsp::algorithm_kind::johnson, 7},
      {"auto", apsp::backend_kind::automatic, apsp::algorithm_kind::automatic, 0},
  };
  if (apsp::detail::supernodal_has_nested_dissection())
    e.push_back({"supernodal", apsp::backend_kind::cpu, apsp::algorithm_kind::supernodal, 0});
#ifdef APSP_METRICS_TEST_CUDA
  if (have_cuda()) {
    e.push_back({"cuda", apsp::backend_kind::cuda, apsp::algorithm_kind::floyd_warshall, 0});
    e.push_back(
        {"cuda block 32", apsp::backend_kind::cuda, apsp::algorithm_kind::floyd_warshall, 32});
    // The supernodal solver on the GPU, its matrix reduced there in vertex order.
    e.push_back({"cuda supernodal", apsp::backend_kind::cuda, apsp::algorithm_kind::supernodal, 0});
    // Split over two GPUs where n has two tile rows of 128 (else one device runs it).
    apsp::solve_options two;
    two.backend = apsp::backend_kind::cuda;
    two.devices = {0, 1};
    try {
      (void)apsp::make_plan(256, two);
      e.push_back({"cuda split over devices 0,1",
                   apsp::backend_kind::cuda,
                   apsp::algorithm_kind::floyd_warshall,
                   128,
                   {0, 1}});
    } catch (const apsp::invalid_argument_error&) {
      // one device only
    }
  }
#endif
  return e;
}

/// The engines of `type`: the cuda back end solves int32 and float32 only.
bool runs(const engine& e, apsp::dtype type) {
  return e.backend != apsp::backend_kind::cuda || type == apsp::dtype::int32 ||
         type == apsp::dtype::float32;
}

struct metrics_case {
  std::int64_t n;
  double density;
  bool negative;
  bool undirected;
  apsp::dtype type;
  std::uint64_t seed;
};

class compute_metrics_test : public ::testing::TestWithParam<metrics_case> {};

TEST_P(compute_metrics_test, every_engine_matches_the_reference_matrix) {
  const auto c = GetParam();
  SCOPED_TRACE("seed=" + std::to_string(c.seed) + " n=" + std::to_string(c.n) + " type=" +
               std::string(apsp::to_string(c.type)) + (c.negative ? " negative" : "") +
               (c.undirected ? " undirected" : ""));
  const apsp::graph g = test_graph(c.n, c.density, c.negative, c.undirected, c.type, c.seed);
  const apsp::result full = reference_solve(g, c.type);
  apsp::metrics_options mo;
  mo.histogram_bins = 5;
  const apsp::graph_metrics want = apsp::metrics_of(full.distances(), mo);
  {
    SCOPED_TRACE("metrics_of against the definitions");
    apsp::graph_metrics naive = naive_metrics(full, true);
    naive.computed = want.computed;
    naive.histogram = want.histogram; // checked on its own below
    expect_same_metrics(want, naive);
  }
  for (const engine& e : engines()) {
    if (!runs(e, c.type))
      continue;
    SCOPED_TRACE(e.name);
    apsp::solve_options so;
    so.backend = e.backend;
    so.algorithm = e.algorithm;
    so.type = c.type;
    so.block = e.block;
    so.devices = e.devices;
    so.threads = 2;
    apsp::graph_metrics got;
    try {
      got = apsp::compute_metrics(g, so, mo);
    } catch (const apsp::invalid_argument_error& err) {
      // The supernodal solver refuses a graph without small separators; nothing else may.
      ASSERT_EQ(e.algorithm, apsp::algorithm_kind::supernodal) << err.what();
      continue;
    }
    expect_same_metrics(got, want);
    if (e.algorithm == apsp::algorithm_kind::johnson) {
      // Rows, by Dijkstra or (a large sparse integer graph) PHAST, in batches of the block.
      EXPECT_TRUE(apsp::detail::row_engine_of(got.executed_plan.run).has_value())
          << apsp::to_string(got.executed_plan.run);
      EXPECT_EQ(got.executed_plan.block, e.block);
    }
    if (e.backend == apsp::backend_kind::reference) {
      EXPECT_TRUE(std::holds_alternative<apsp::drivers::reference>(got.executed_plan.run));
    }
    if (e.backend == apsp::backend_kind::cuda && c.n > 0) {
      if (apsp::detail::current_tuning().cuda_force_out_of_core_bytes != 0) {
        // APSP_CUDA_FORCE_OUT_OF_CORE_BYTES (bench/gpu/run.sh metrics): every plan out of
        // core, its matrix in host memory, reduced there after the rounds.
        EXPECT_TRUE(std::holds_alternative<apsp::drivers::cuda_out_of_core>(
            got.executed_plan.run))
            << apsp::to_string(got.executed_plan.run);
        EXPECT_TRUE(got.host_matrix);
      } else {
        // Reduced on the GPU: no n x n matrix in host memory.
        EXPECT_TRUE(std::holds_alternative<apsp::drivers::cuda_in_core>(got.executed_plan.run) ||
                    (!e.devices.empty() &&
                     std::holds_alternative<apsp::drivers::cuda_split>(got.executed_plan.run)) ||
                    (e.algorithm == apsp::algorithm_kind::supernodal &&
                     std::holds_alternative<apsp::drivers::cuda_supernodal>(
                         got.executed_plan.run)))
            << apsp::to_string(got.executed_plan.run);
        EXPECT_FALSE(got.host_matrix);
      }
    }
  }
}

std::vector<metrics_case> cases() {
  std::vector<metrics_case> out;
  std::uint64_t seed = 101;
  const apsp::dtype types[] = {apsp::dtype::int32, apsp::dtype::float32, apsp::dtype::int64,
                               apsp::dtype::float64};
  // Sizes 0, 1, 2 and either side of 32- and 64-wide tiles; sparse and denser.
  for (const std::int64_t n : {0, 1, 2, 31, 33, 65}) {
    for (const apsp::dtype t : types) {
      out.push_back({n, 0.08, false, false, t, seed++});
      out.push_back({n, 0.08, true, false, t, seed++});
      out.push_back({n, 0.3, false, true, t, seed++});
    }
  }
  out.push_back({130, 0.03, true, false, apsp::dtype::int32, seed++});
  // Three and more tile rows of 128 (a split over two GPUs deals out several each).
  out.push_back({300, 0.02, true, false, apsp::dtype::int32, seed++});
  out.push_back({385, 0.01, false, true, apsp::dtype::float32, seed++});
  out.push_back({129, 0.02, false, true, apsp::dtype::float64, seed++});
  return out;
}

INSTANTIATE_TEST_SUITE_P(random_graphs, compute_metrics_test, ::testing::ValuesIn(cases()));

TEST(compute_metrics, a_hand_checked_graph) {
  // 0 -> 1 (2), 1 -> 2 (3), 2 -> 0 (0), 3 isolated: a 3-cycle with a zero-weight arc.
  apsp::graph g(4);
  g.add_edge(0, 1, 2);
  g.add_edge(1, 2, 3);
  g.add_edge(2, 0, 0);
  apsp::solve_options so;
  so.algorithm = apsp::algorithm_kind::johnson;
  const auto m = apsp::compute_metrics(g, so);
  // d: 0->1 2, 0->2 5, 1->2 3, 1->0 3, 2->0 0, 2->1 2.
  EXPECT_EQ(m.out_eccentricity, (std::vector<double>{5, 3, 2, 0}));
  EXPECT_EQ(m.in_eccentricity, (std::vector<double>{3, 2, 5, 0}));
  EXPECT_EQ(m.reach_out, (std::vector<std::int64_t>{2, 2, 2, 0}));
  EXPECT_EQ(m.reach_in, (std::vector<std::int64_t>{2, 2, 2, 0}));
  EXPECT_EQ(m.reachable_pairs, 6u);
  EXPECT_EQ(m.diameter, 5);
  EXPECT_EQ(m.radius, 2);
  EXPECT_DOUBLE_EQ(m.average_path_length, 15.0 / 6);
  // To 0: from 1 (3) and 2 (0): r = 2, S = 3: 2/3 * 2/3. Harmonic skips the 0.
  EXPECT_DOUBLE_EQ(m.closeness[0], 2.0 / 3 * 2.0 / 3);
  EXPECT_DOUBLE_EQ(m.harmonic[0], 1.0 / 3);
  EXPECT_DOUBLE_EQ(m.closeness[3], 0);
  EXPECT_DOUBLE_EQ(m.global_efficiency, (1.0 / 2 + 1.0 / 5 + 1.0 / 3 + 1.0 / 3 + 1.0 / 2) / 12);
  // Bins of width 1 from 0 (32 bins hold 0..5): 0, 2, 2, 3, 3, 5.
  EXPECT_EQ(m.histogram.width, 1);
  EXPECT_EQ(m.histogram.counts[0], 1u);
  EXPECT_EQ(m.histogram.counts[2], 2u);
  EXPECT_EQ(m.histogram.counts[3], 2u);
  EXPECT_EQ(m.histogram.counts[5], 1u);
  EXPECT_EQ(m.histogram.edges().back(), 32);
}

TEST(compute_metrics, asks_only_for_what_is_wanted) {
  const apsp::graph g = test_graph(20, 0.2, false, false, apsp::dtype::int32, 7);
  apsp::metrics_options mo;
  mo.which = apsp::metric::diameter | apsp::metric::closeness;
  const auto m = apsp::compute_metrics(g, {}, mo);
  EXPECT_EQ(m.closeness.size(), 20u);
  EXPECT_TRUE(m.harmonic.empty());
  EXPECT_TRUE(m.out_eccentricity.empty());
  EXPECT_TRUE(m.reach_in.empty());
  EXPECT_TRUE(m.histogram.counts.empty());
  EXPECT_EQ(m.reachable_pairs, 0u);
  const auto all = apsp::compute_metrics(g);
  EXPECT_EQ(m.diameter, all.diameter);
  EXPECT_EQ(m.closeness, all.closeness);
}

TEST(compute_metrics, wf_improved_off_matches_the_definition) {
  const apsp::graph g = test_graph(25, 0.1, false, false, apsp::dtype::float64, 9);
  apsp::metrics_options mo;
  mo.wf_improved = false;
  apsp::solve_options so;
  so.type = apsp::dtype::float64;
  const auto m = apsp::compute_metrics(g, so, mo);
  const auto naive = naive_metrics(reference_solve(g, apsp::dtype::float64), false);
  expect_close(m.closeness, naive.closeness, "closeness without wf_improved");
}

TEST(compute_metrics, the_histogram_does_not_depend_on_row_order_or_threads) {
  const apsp::graph g = test_graph(90, 0.05, true, false, apsp::dtype::float32, 21);
  apsp::metrics_options mo;
  mo.histogram_bins = 7;
  std::vector<apsp::distance_histogram> seen;
  for (const int threads : {1, 2}) {
    for (const std::int64_t block : {1, 4, 89}) {
      apsp::solve_options so;
      so.algorithm = apsp::algorithm_kind::johnson;
      so.type = apsp::dtype::float32;
      so.threads = threads;
      so.block = block;
      seen.push_back(apsp::compute_metrics(g, so, mo).histogram);
    }
  }
  for (const auto& h : seen) {
    EXPECT_EQ(h.width, seen.front().width);
    EXPECT_EQ(h.counts, seen.front().counts);
    EXPECT_EQ(h.negative, seen.front().negative);
  }
}

TEST(histogram_builder, any_order_and_any_split_give_the_same_bins) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> value(-3, 1000);
  std::vector<double> values(500);
  for (double& v : values)
    v = value(rng);
  values.push_back(0);
  const int bins = 6;
  const auto build = [&](const std::vector<double>& vs) {
    apsp::detail::histogram_builder h(bins, false);
    for (const double v : vs)
      h.add(v);
    return h.result();
  };
  auto ascending = values;
  std::sort(ascending.begin(), ascending.end());
  auto descending = ascending;
  std::reverse(descending.begin(), descending.end());
  const auto a = build(values);
  const auto b = build(ascending);
  const auto c = build(descending);
  // Two halves built apart, then merged.
  apsp::detail::histogram_builder first(bins, false);
  apsp::detail::histogram_builder second(bins, false);
  for (std::size_t i = 0; i < values.size(); ++i)
    (i % 3 == 0 ? first : second).add(descending[i]);
  first.merge(second);
  const auto d = first.result();
  for (const auto* h : {&b, &c, &d}) {
    EXPECT_EQ(h->width, a.width);
    EXPECT_EQ(h->counts, a.counts);
    EXPECT_EQ(h->negative, a.negative);
  }
  // The rule itself: the smallest power of two with max < bins * width, then floor(v / width).
  const double max = *std::max_element(values.begin(), values.end());
  double width = std::ldexp(1.0, -20);
  while (max >= bins * width)
    width *= 2;
  EXPECT_EQ(a.width, width);
  std::vector<std::uint64_t> counts(bins, 0);
  std::uint64_t negative = 0;
  for (const double v : values) {
    if (v < 0)
      ++negative;
    else
      ++counts[static_cast<std::size_t>(std::floor(v / width))];
  }
  EXPECT_EQ(a.counts, counts);
  EXPECT_EQ(a.negative, negative);
}

/// An all-reduce between the threads of one test, standing in for MPI_Allreduce: every process
/// passes its array, and each gets back the element-wise sum or maximum of all of them.
class thread_all_reduce {
public:
  explicit thread_all_reduce(int processes)
      : slots_(static_cast<std::size_t>(processes)), sync_(processes) {}

  /// The reducer of process `rank` (what metrics_accumulator::combine calls).
  struct reducer {
    thread_all_reduce* all;
    int rank;
    template <class V> void sum(V* values, std::size_t count) {
      all->reduce(rank, values, count, [](V a, V b) { return a + b; });
    }
    template <class V> void max(V* values, std::size_t count) {
      all->reduce(rank, values, count, [](V a, V b) { return std::max(a, b); });
    }
  };

private:
  template <class V, class Op> void reduce(int rank, V* values, std::size_t count, Op op) {
    slots_[static_cast<std::size_t>(rank)] = values;
    sync_.arrive_and_wait(); // every process's array is published
    std::vector<V> out(values, values + count);
    for (std::size_t p = 0; p < slots_.size(); ++p) {
      if (static_cast<int>(p) != rank) {
        const V* other = static_cast<const V*>(slots_[p]);
        for (std::size_t i = 0; i < count; ++i)
          out[i] = op(out[i], other[i]);
      }
    }
    sync_.arrive_and_wait(); // every process has read every array
    std::copy(out.begin(), out.end(), values);
  }

  std::vector<void*> slots_;
  std::barrier<> sync_;
};

// The distributed metrics' reduction without MPI: processes that each hold some columns of
// every row (take_part), combined, give every process the metrics of the whole matrix.
TEST(metrics_accumulator, rows_taken_in_lanes_give_the_same_bits_as_one_by_one) {
  // PHAST hands 16 rows at once, interleaved (row_sink::take_sweep, whose default the rows of
  // a float sweep or an odd lane count take); every sum must see its values in the order of
  // take() row after row, so the metrics are equal, not just close. Rows with no path, zero
  // and negative distances; a last batch of fewer than 16.
  const std::int64_t n = 37;
  std::mt19937_64 rng(5);
  std::vector<std::int32_t> d(static_cast<std::size_t>(n * n));
  for (auto& v : d) {
    const auto r = static_cast<std::int32_t>(rng() % 1000);
    v = r < 100 ? apsp::weight_traits<std::int32_t>::infinity : r < 120 ? 0 : r - 400;
  }
  apsp::metrics_options mo;
  mo.histogram_bins = 7;
  apsp::detail::metrics_accumulator<std::int32_t> rows(n, mo);
  rows.start(1);
  for (std::int64_t s = 0; s < n; ++s)
    rows.take(0, s, d.data() + s * n);
  apsp::detail::metrics_accumulator<std::int32_t> lanes(n, mo);
  lanes.start(1);
  constexpr int stride = 16;
  std::vector<std::int32_t> identity(static_cast<std::size_t>(n));
  for (std::int64_t t = 0; t < n; ++t)
    identity[static_cast<std::size_t>(t)] = static_cast<std::int32_t>(t);
  std::vector<std::int32_t> interleaved(static_cast<std::size_t>(n * stride));
  std::vector<std::int32_t> scratch;
  for (std::int64_t first = 0; first < n; first += stride) {
    const int count = static_cast<int>(std::min<std::int64_t>(stride, n - first));
    for (std::int64_t t = 0; t < n; ++t) {
      for (int k = 0; k < count; ++k)
        interleaved[static_cast<std::size_t>(t * stride + k)] =
            d[static_cast<std::size_t>((first + k) * n + t)];
    }
    const apsp::detail::sweep_rows<std::int32_t> sweep{
        first, count, n, interleaved.data(), stride, identity.data(), identity.data(), nullptr};
    lanes.apsp::detail::row_sink<std::int32_t>::take_sweep(0, sweep, scratch);
  }
  expect_same_metrics(lanes.finish(), rows.finish(), 0.0);
}

/// One process: combine() reduces nothing, but puts the workers' columns back in vertex order.
struct one_process {
  template <class V> void max(V*, std::size_t) {}
  template <class V> void sum(V*, std::size_t) {}
};

/// Rows by sweep position (take_sweep, as PHAST hands them), against the same rows by take():
/// a random permutation and random potentials, distances with no path, zero and negative ones,
/// garbage on the diagonal (which must be skipped), batches spread over 1-3 workers, the first
/// batch of worker 0 taken in vertex order before its sweeps, with combine() or without.
template <class T>
void expect_sweeps_match_rows(std::int64_t n, int stride, int workers,
                              const apsp::metrics_options& mo, bool combine,
                              apsp::detail::cpu::isa isa, std::uint64_t seed) {
  SCOPED_TRACE("n=" + std::to_string(n) + " stride=" + std::to_string(stride) + " isa=" +
               std::string(apsp::detail::cpu::to_string(isa)) + " workers=" + std::to_string(workers) +
               " seed=" + std::to_string(seed) + (combine ? " combined" : ""));
  // The reduction runs the kernels of the instruction set the cpu's kernels run with.
  const apsp::detail::scoped_tuning kernels(
      [isa](apsp::detail::tuning& t) { t.cpu_isa = apsp::detail::cpu::to_string(isa); });
  constexpr T inf = apsp::weight_traits<T>::infinity;
  const auto N = static_cast<std::size_t>(n);
  std::mt19937_64 rng(seed);
  std::vector<std::int32_t> vertex_at(N);
  for (std::size_t p = 0; p < N; ++p)
    vertex_at[p] = static_cast<std::int32_t>(p);
  std::shuffle(vertex_at.begin(), vertex_at.end(), rng);
  std::vector<std::int32_t> position(N);
  for (std::size_t p = 0; p < N; ++p)
    position[static_cast<std::size_t>(vertex_at[p])] = static_cast<std::int32_t>(p);
  std::vector<T> h(N);
  for (auto& x : h)
    x = -static_cast<T>(rng() % 500);
  std::vector<T> d(N * N); // d[s * n + t], true distances, 0 on the diagonal
  for (std::size_t i = 0; i < N * N; ++i) {
    const auto r = static_cast<T>(rng() % 1000);
    d[i] = i / N == i % N ? T{0} : r < 100 ? inf : r < 120 ? T{0} : r - 300;
  }
  std::vector<T> potential_at(N);
  for (std::size_t p = 0; p < N; ++p)
    potential_at[p] = h[static_cast<std::size_t>(vertex_at[p])];

  apsp::detail::metrics_accumulator<T> want(n, mo);
  want.start(workers);
  apsp::detail::metrics_accumulator<T> got(n, mo);
  got.start(workers);
  apsp::detail::metrics_accumulator<T> by_default(n, mo); // row_sink's take_sweep
  by_default.start(workers);
  std::vector<T> values(N * static_cast<std::size_t>(stride));
  std::vector<T> scratch;
  std::int64_t batch = 0;
  for (std::int64_t first = 0; first < n; first += stride, ++batch) {
    const int count = static_cast<int>(std::min<std::int64_t>(stride, n - first));
    const int worker = static_cast<int>(batch % workers);
    for (int k = 0; k < count; ++k)
      want.take(worker, first + k, d.data() + (first + k) * n);
    for (std::size_t p = 0; p < N; ++p) {
      const auto t = static_cast<std::size_t>(vertex_at[p]);
      for (int k = 0; k < stride; ++k) {
        const auto s = static_cast<std::size_t>(first + k);
        T& out = values[p * static_cast<std::size_t>(stride) + static_cast<std::size_t>(k)];
        if (k >= count || d[s * N + t] >= inf)
          out = inf;
        else if (s == t)
          out = static_cast<T>(rng() % 50) - 25; // not a pair: must not count
        else
          out = d[s * N + t] - h[t] + h[s];
      }
    }
    const apsp::detail::sweep_rows<T> rows{first,
                                           count,
                                           n,
                                           values.data(),
                                           stride,
                                           position.data(),
                                           vertex_at.data(),
                                           potential_at.data()};
    by_default.apsp::detail::row_sink<T>::take_sweep(worker, rows, scratch);
    if (batch == 0) {
      // Vertex order first (take() of the true rows), then the sweeps: the worker's columns
      // move to position order.
      for (int k = 0; k < count; ++k)
        got.take(0, first + k, d.data() + (first + k) * n);
    } else {
      got.take_sweep(worker, rows, scratch);
    }
  }
  if (combine)
    got.combine(one_process{});
  const apsp::graph_metrics want_metrics = want.finish();
  expect_same_metrics(by_default.finish(), want_metrics, 0.0); // take(): the same bits
  expect_same_metrics(got.finish(), want_metrics, 1e-13);
}

TEST(metrics_accumulator, rows_taken_by_sweep_position_match_rows_taken_one_by_one) {
  apsp::metrics_options all;
  all.histogram_bins = 7;
  apsp::metrics_options rows_only;
  rows_only.which = apsp::metric::diameter | apsp::metric::radius | apsp::metric::out_eccentricity;
  apsp::metrics_options columns_only;
  columns_only.which = apsp::metric::closeness | apsp::metric::harmonic;
  // Each kernel family this CPU can run (APSP_CPU_ISA, the tuning's cpu_isa, picks it).
  std::vector<apsp::detail::cpu::isa> isas{apsp::detail::cpu::isa::scalar};
  if (apsp::detail::cpu::isa_supported(apsp::detail::cpu::isa::avx2))
    isas.push_back(apsp::detail::cpu::isa::avx2);
  if (apsp::detail::cpu::isa_supported(apsp::detail::cpu::isa::avx512))
    isas.push_back(apsp::detail::cpu::isa::avx512);
  std::uint64_t seed = 40;
  for (const auto isa : isas) {
    for (const std::int64_t n : {1, 2, 15, 16, 17, 53}) {
      for (const int stride : {1, 4, 8, 16}) {
        for (int workers = 1; workers <= 3; ++workers) {
          for (const auto& mo : {all, rows_only, columns_only}) {
            ++seed;
            expect_sweeps_match_rows<std::int32_t>(n, stride, workers, mo, seed % 2 == 0, isa,
                                                   seed);
            expect_sweeps_match_rows<std::int64_t>(n, stride, workers, mo, seed % 2 == 1, isa,
                                                   seed);
          }
        }
      }
    }
  }
}

TEST(metrics_accumulator, parts_of_rows_combined_across_processes_give_the_whole) {
  for (const apsp::dtype type : {apsp::dtype::int32, apsp::dtype::float64}) {
    SCOPED_TRACE(std::string(apsp::to_string(type)));
    const apsp::graph g = test_graph(47, 0.1, true, false, type, 7);
    const apsp::result full = reference_solve(g, type);
    apsp::metrics_options mo;
    mo.histogram_bins = 6;
    const apsp::graph_metrics want = apsp::metrics_of(full.distances(), mo);
    std::visit(
        [&](const auto& d) {
          using T = typename std::decay_t<decltype(d)>::value_type;
          constexpr int processes = 3;
          const std::int64_t n = d.n();
          thread_all_reduce all(processes);
          std::vector<apsp::graph_metrics> got(processes);
          std::vector<std::thread> threads;
          for (int rank = 0; rank < processes; ++rank) {
            threads.emplace_back([&, rank] {
              // Columns rank, rank + 3, ...: each process holds a share of every row.
              std::vector<std::int64_t> columns;
              for (std::int64_t t = rank; t < n; t += processes)
                columns.push_back(t);
              apsp::detail::metrics_accumulator<T> acc(n, mo);
              acc.start(1);
              std::vector<T> values(columns.size());
              for (std::int64_t s = 0; s < n; ++s) {
                for (std::size_t k = 0; k < columns.size(); ++k)
                  values[k] = d(s, columns[k]);
                acc.take_part(
                    0, s, values.data(), static_cast<std::int64_t>(columns.size()),
                    [&columns](std::int64_t k) { return columns[static_cast<std::size_t>(k)]; });
              }
              acc.combine(thread_all_reduce::reducer{&all, rank});
              got[static_cast<std::size_t>(rank)] = acc.finish();
            });
          }
          for (std::thread& t : threads)
            t.join();
          for (int rank = 0; rank < processes; ++rank) {
            SCOPED_TRACE("process " + std::to_string(rank));
            expect_same_metrics(got[static_cast<std::size_t>(rank)], want);
          }
        },
        full.distances());
  }
}

TEST(histogram_builder, integers_start_at_width_one) {
  apsp::detail::histogram_builder h(4, true);
  for (const std::int64_t v : {0, 1, 3, 3})
    h.add(v);
  EXPECT_EQ(h.result().width, 1);
  h.add(std::int64_t{9}); // beyond 4 bins of 1 and of 2: width 4
  const auto r = h.result();
  EXPECT_EQ(r.width, 4);
  EXPECT_EQ(r.counts, (std::vector<std::uint64_t>{4, 0, 1, 0}));
}

// What a GPU hands back (counts at the exponent set by the largest value) is the builder that
// was given the values one by one.
TEST(histogram_builder, counts_made_elsewhere_at_the_exponent_of_the_largest_value) {
  for (const bool integral : {true, false}) {
    SCOPED_TRACE(integral ? "integral" : "float");
    const std::vector<double> values = integral ? std::vector<double>{0, 2, 7, 7, 40, 1000, 3}
                                                : std::vector<double>{0.5, 2.25, 1e-7, 77.0, 3};
    apsp::detail::histogram_builder one_by_one(6, integral);
    double largest = 0;
    for (const double v : values) {
      if (integral)
        one_by_one.add(static_cast<std::int64_t>(v));
      else
        one_by_one.add(v);
      largest = std::max(largest, v);
    }
    one_by_one.add(-1.0);
    const int e = apsp::detail::histogram_builder::exponent_for(largest, 6, integral);
    std::vector<std::uint64_t> counts(6, 0);
    for (const double v : values)
      ++counts[static_cast<std::size_t>(std::floor(std::ldexp(v, -e)))];
    const apsp::detail::histogram_builder made(6, integral, e, counts, 1);
    const auto want = one_by_one.result();
    const auto got = made.result();
    EXPECT_EQ(got.width, want.width);
    EXPECT_EQ(got.counts, want.counts);
    EXPECT_EQ(got.negative, want.negative);
  }
  EXPECT_EQ(apsp::detail::histogram_builder::exponent_for(0, 4, true), 0);
  EXPECT_EQ(apsp::detail::histogram_builder::exponent_for(4, 4, true), 1);
  EXPECT_EQ(apsp::detail::histogram_builder::exponent_for(3, 4, true), 0);
}

TEST(compute_metrics, a_negative_cycle_is_refused_by_every_engine) {
  apsp::graph g(5);
  g.add_edge(0, 1, 1);
  g.add_edge(1, 2, -2);
  g.add_edge(2, 1, 1);
  g.add_edge(3, 4, 1);
  for (const engine& e : engines()) {
    SCOPED_TRACE(e.name);
    apsp::solve_options so;
    so.backend = e.backend;
    so.algorithm = e.algorithm;
    so.block = e.block;
    try {
      (void)apsp::compute_metrics(g, so);
      ADD_FAILURE() << "no negative_cycle_error";
    } catch (const apsp::negative_cycle_error& err) {
      EXPECT_EQ(err.cycle(), (std::vector<std::int64_t>{1, 2}));
    } catch (const apsp::invalid_argument_error&) {
      EXPECT_EQ(e.algorithm, apsp::algorithm_kind::supernodal);
    }
  }
  // metrics_of refuses a matrix with a negative diagonal.
  apsp::dense_matrix<double> d(2);
  d(0, 0) = -1;
  d(0, 1) = d(1, 0) = 1;
  d(1, 1) = 0;
  EXPECT_THROW((void)apsp::metrics_of(apsp::any_matrix(std::move(d))),
               apsp::negative_cycle_error);
}

TEST(compute_metrics, a_false_from_progress_cancels) {
  const apsp::graph g = test_graph(120, 0.05, false, false, apsp::dtype::int32, 3);
  for (const auto algorithm : {apsp::algorithm_kind::johnson, apsp::algorithm_kind::floyd_warshall}) {
    apsp::solve_options so;
    so.algorithm = algorithm;
    so.backend = apsp::backend_kind::cpu;
    so.block = algorithm == apsp::algorithm_kind::johnson ? 10 : 16; // several rounds either way
    int calls = 0;
    apsp::metrics_options mo;
    mo.progress = [&calls](const apsp::progress_info& p) {
      EXPECT_GT(p.rounds_total, 0);
      return ++calls < 2;
    };
    EXPECT_THROW((void)apsp::compute_metrics(g, so, mo), apsp::cancelled_error);
    EXPECT_EQ(calls, 2);
  }
}

TEST(compute_metrics, progress_comes_after_each_batch) {
  const apsp::graph g = test_graph(50, 0.1, false, false, apsp::dtype::int32, 4);
  apsp::solve_options so;
  so.algorithm = apsp::algorithm_kind::johnson;
  so.block = 7;
  std::vector<std::int64_t> rounds;
  apsp::metrics_options mo;
  mo.progress = [&rounds](const apsp::progress_info& p) {
    EXPECT_EQ(p.rounds_total, 8); // ceil(50 / 7)
    rounds.push_back(p.rounds_done);
    return true;
  };
  (void)apsp::compute_metrics(g, so, mo);
  EXPECT_EQ(rounds, (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(compute_metrics, auto_takes_batches_for_sparse_graphs) {
  // A long path: Johnson's cost is far below Floyd-Warshall's n^3, so auto runs batches.
  const std::int64_t n = 3000;
  apsp::graph g(n);
  for (std::int64_t v = 0; v + 1 < n; ++v)
    g.add_edge(v, v + 1, 1);
  apsp::metrics_options mo;
  mo.which = apsp::metric::diameter | apsp::metric::reachable_pairs;
  apsp::solve_options so;
  so.backend = apsp::backend_kind::cpu;
  const auto m = apsp::compute_metrics(g, so, mo);
  EXPECT_EQ(m.diameter, n - 1);
  EXPECT_EQ(m.reachable_pairs, static_cast<std::uint64_t>(n * (n - 1) / 2));
  if (apsp::detail::row_engine_of(m.executed_plan.run)) {
    EXPECT_LT(m.executed_plan.host_bytes, static_cast<std::uint64_t>(n) * n * 4);
  } else {
    EXPECT_NE(m.executed_plan.algorithm, apsp::algorithm_kind::johnson);
  }
}

TEST(compute_metrics, refuses_what_a_metrics_run_cannot_take) {
  const apsp::graph g(3);
  apsp::solve_options so;
  so.paths = true;
  EXPECT_THROW((void)apsp::compute_metrics(g, so), apsp::invalid_argument_error);
  apsp::metrics_options mo;
  mo.histogram_bins = 0;
  EXPECT_THROW((void)apsp::compute_metrics(g, {}, mo), apsp::invalid_argument_error);
  so = {};
  so.algorithm = apsp::algorithm_kind::johnson;
  so.backend = apsp::backend_kind::reference;
  EXPECT_THROW((void)apsp::compute_metrics(g, so), apsp::backend_unavailable_error);
}

TEST(parse_metrics, names_lists_and_errors) {
  EXPECT_EQ(apsp::parse_metrics("all"), apsp::all_metrics);
  EXPECT_EQ(apsp::parse_metrics("closeness,diameter"),
            apsp::metric::closeness | apsp::metric::diameter);
  for (const apsp::metric m : apsp::metric_list())
    EXPECT_EQ(apsp::parse_metrics(apsp::to_string(m)), static_cast<apsp::metric_set>(m));
  EXPECT_EQ(apsp::metric_list().size(), 11u);
  try {
    (void)apsp::parse_metrics("closeness,betweenness");
    ADD_FAILURE() << "no error";
  } catch (const apsp::invalid_argument_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'betweenness'"), std::string::npos) << what;
    EXPECT_NE(what.find("average-path-length"), std::string::npos) << what;
  }
  EXPECT_THROW((void)apsp::parse_metrics(""), apsp::invalid_argument_error);
  EXPECT_THROW((void)apsp::parse_metrics("closeness,"), apsp::invalid_argument_error);
}

} // namespace
