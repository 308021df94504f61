// Johnson's building blocks against independent references: the three Dijkstra queues against a
// sorted multiset, Dijkstra's rows with each queue against a std::priority_queue Dijkstra, the CSR
// copy against the edge list, the potentials against the oracle's distances, and the cost model's
// choices at its two ends.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/test_graphs.hpp"
#include "core/algorithm_choice.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/dijkstra_queues.hpp"
#include "cpu/potentials.hpp"

namespace {

// Dijkstra-like use: keys pushed are never below the last key popped; some vertices are pushed
// again with lower keys (stale entries stay in a radix heap, so compare multisets).
template <class Key> void check_radix_heap(std::uint64_t seed) {
  SCOPED_TRACE("seed=" + std::to_string(seed) + " key bits=" + std::to_string(sizeof(Key) * 8));
  std::mt19937_64 rng(seed);
  // Small spans and keys near the top of the range both: every bucket gets used.
  const Key base = seed == 3 ? Key{1} << (sizeof(Key) * 8 - 2) : 0;
  const Key span = seed == 1 ? 50 : Key{1} << (sizeof(Key) * 8 - 8);
  {
    apsp::cpu::radix_heap<Key> heap;
    std::multiset<std::pair<Key, std::int32_t>> want;
    Key last = base;
    for (int step = 0; step < 20000; ++step) {
      if (want.empty() || rng() % 3 != 0) {
        const Key key = static_cast<Key>(last + rng() % span);
        const auto v = static_cast<std::int32_t>(rng() % 1000);
        heap.push(key, v);
        want.emplace(key, v);
      } else {
        const auto got = heap.pop();
        ASSERT_EQ(got.key, want.begin()->first);
        ASSERT_TRUE(want.count({got.key, got.vertex}) > 0);
        want.erase(want.find({got.key, got.vertex}));
        last = got.key;
      }
      ASSERT_EQ(heap.size(), want.size());
    }
    while (!want.empty()) {
      ASSERT_EQ(heap.pop().key, want.begin()->first);
      want.erase(want.begin());
    }
    EXPECT_TRUE(heap.empty());
    heap.clear();
    heap.push(0, 7); // after clear() the heap starts over from key 0
    EXPECT_EQ(heap.pop().vertex, 7);
  }
}

TEST(RadixHeap, PopsInOrderUnderMonotonePushes) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    check_radix_heap<std::uint32_t>(seed);
    check_radix_heap<std::uint64_t>(seed);
  }
}

// Dial's buckets under Dijkstra's use: every key pushed lies in [last popped, last popped +
// step]; ties and zero steps (key == last popped) included. Keys start at `base` (near the top
// of the type in one case) and the circular array wraps many times.
template <class Key> void check_bucket_queue(std::uint64_t step, Key base, std::uint64_t seed) {
  SCOPED_TRACE("seed=" + std::to_string(seed) + " step=" + std::to_string(step) +
               " base=" + std::to_string(base) + " key bits=" + std::to_string(sizeof(Key) * 8));
  ASSERT_TRUE(apsp::cpu::bucket_queue<Key>::fits(step));
  std::mt19937_64 rng(seed);
  apsp::cpu::bucket_queue<Key> queue(step);
  for (int round = 0; round < 2; ++round) { // the second after clear(): a new source
    std::multiset<std::pair<Key, std::int32_t>> want;
    Key last = round == 0 ? base : Key{0};
    queue.push(last, 0);
    want.emplace(last, 0);
    for (int i = 0; i < 20000; ++i) {
      if (want.empty() || rng() % 3 != 0) {
        // A third of the pushes tie with the last key popped (zero-weight arcs).
        const Key key = static_cast<Key>(last + (rng() % 3 == 0 ? 0 : rng() % (step + 1)));
        const auto v = static_cast<std::int32_t>(rng() % 1000);
        queue.push(key, v);
        want.emplace(key, v);
      } else {
        const std::int32_t hint = queue.next_vertex();
        const auto got = queue.pop();
        ASSERT_EQ(got.key, want.begin()->first);
        if (hint >= 0)
          ASSERT_EQ(hint, got.vertex);
        const auto it = want.find({got.key, got.vertex});
        ASSERT_TRUE(it != want.end());
        want.erase(it);
        last = got.key;
      }
      ASSERT_EQ(queue.size(), want.size());
    }
    while (!want.empty()) {
      const auto got = queue.pop();
      ASSERT_EQ(got.key, want.begin()->first);
      want.erase(want.find({got.key, got.vertex}));
    }
    EXPECT_TRUE(queue.empty());
    queue.clear();
  }
}

TEST(BucketQueue, PopsInOrderUnderDijkstraPushes) {
  using big = std::uint64_t;
  using small = std::uint32_t;
  const std::uint64_t widest = apsp::cpu::bucket_queue<small>::max_buckets - 1;
  for (const std::uint64_t step : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{63},
                                   std::uint64_t{64}, std::uint64_t{1000}, widest}) {
    check_bucket_queue<small>(step, 0, step + 1);
    check_bucket_queue<big>(step, 0, step + 2);
    // Keys near the top of the type (Dijkstra's distances stay below the type's maximum).
    check_bucket_queue<small>(step, std::numeric_limits<std::int32_t>::max() - (1u << 28),
                              step + 3);
    check_bucket_queue<big>(step, std::numeric_limits<std::int64_t>::max() - (big{1} << 40),
                            step + 4);
  }
  EXPECT_FALSE(apsp::cpu::bucket_queue<small>::fits(widest + 1));
}

/// Distances from `s` by Dijkstra with std::priority_queue over the edge list (in doubles; the
/// weights are whole numbers, so exact), +inf where unreachable.
std::vector<double> priority_queue_dijkstra(const apsp::graph& g, std::int64_t s) {
  const auto n = static_cast<std::size_t>(g.num_vertices());
  std::vector<std::vector<std::pair<std::int64_t, double>>> out(n);
  for (std::size_t e = 0; e < g.sources().size(); ++e)
    out[static_cast<std::size_t>(g.sources()[e])].emplace_back(g.targets()[e], g.weights()[e]);
  std::vector<double> d(n, std::numeric_limits<double>::infinity());
  using item = std::pair<double, std::int64_t>;
  std::priority_queue<item, std::vector<item>, std::greater<>> queue;
  d[static_cast<std::size_t>(s)] = 0;
  queue.emplace(0.0, s);
  while (!queue.empty()) {
    const auto [du, u] = queue.top();
    queue.pop();
    if (du > d[static_cast<std::size_t>(u)])
      continue;
    for (const auto& [v, w] : out[static_cast<std::size_t>(u)]) {
      if (du + w < d[static_cast<std::size_t>(v)]) {
        d[static_cast<std::size_t>(v)] = du + w;
        queue.emplace(du + w, v);
      }
    }
  }
  return d;
}

/// A sparse random graph (about 3 arcs a vertex, a tenth of them weighing 0, some vertices with
/// no arcs in or out) with weights up to `max_weight`.
apsp::graph sparse_graph(std::int64_t n, double max_weight, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  apsp::graph g(n);
  for (std::int64_t u = 0; u < n; ++u) {
    if (rng() % 20 == 0)
      continue; // no out-arcs
    for (int k = 0; k < 3; ++k) {
      const auto v = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n - n / 10));
      const double w = rng() % 10 == 0
                           ? 0.0
                           : std::floor(std::uniform_real_distribution<double>(1, max_weight)(rng));
      g.add_edge(u, v, w); // the last tenth of the vertices is never reached from elsewhere
    }
  }
  return g;
}

template <class T> void expect_rows_of_priority_queue_dijkstra(const apsp::graph& g) {
  std::vector<std::int64_t> sources(static_cast<std::size_t>(g.num_vertices()));
  for (std::size_t s = 0; s < sources.size(); ++s)
    sources[s] = static_cast<std::int64_t>(s);
  apsp::source_options o;
  o.type = apsp::weight_traits<T>::type;
  o.threads = 2;
  const auto got = apsp::solve_from_sources(g, sources, o);
  const auto& rows = std::get<std::vector<T>>(got.distances);
  const auto n = static_cast<std::size_t>(g.num_vertices());
  for (std::size_t s = 0; s < n; ++s) {
    const auto want = priority_queue_dijkstra(g, static_cast<std::int64_t>(s));
    for (std::size_t t = 0; t < n; ++t) {
      const T expected =
          std::isinf(want[t]) ? apsp::weight_traits<T>::infinity : static_cast<T>(want[t]);
      ASSERT_EQ(rows[s * n + t], expected) << "s=" << s << " t=" << t;
    }
  }
}

TEST(Dijkstra, EveryQueueGivesThePriorityQueueRowsInEveryType) {
  // Small weights take Dial's buckets, weights above bucket_queue::max_buckets the radix heap
  // (integer types); floats the 4-ary heap. The largest weights keep every distance of the 300
  // vertices within what int32 (2^30 - 1 is its infinity) and int64 admit.
  for (const double max_weight : {1.0, 50.0, 16383.0, 16384.0, 3.0e5}) {
    SCOPED_TRACE("max weight " + std::to_string(max_weight));
    const auto g = sparse_graph(300, max_weight, static_cast<std::uint64_t>(max_weight));
    expect_rows_of_priority_queue_dijkstra<std::int32_t>(g);
    expect_rows_of_priority_queue_dijkstra<std::int64_t>(g);
    expect_rows_of_priority_queue_dijkstra<float>(g);
    expect_rows_of_priority_queue_dijkstra<double>(g);
  }
  const auto heavy = sparse_graph(300, 1.0e12, 7); // int64 and double only
  expect_rows_of_priority_queue_dijkstra<std::int64_t>(heavy);
  expect_rows_of_priority_queue_dijkstra<double>(heavy);
}

TEST(DaryHeap, DecreaseKeyKeepsOneEntryPerVertex) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> key(0.0, 1000.0);
  const std::int32_t n = 500;
  apsp::cpu::dary_heap<double, 4> heap(n);
  std::vector<double> current(n, -1); // -1: not in the heap
  for (int step = 0; step < 20000; ++step) {
    const auto v = static_cast<std::int32_t>(rng() % n);
    if (rng() % 4 != 0) {
      double k = key(rng);
      if (current[v] >= 0)
        k = std::min(k, current[v]); // push only ever lowers a key
      heap.push(k, v);
      current[v] = k;
    } else if (!heap.empty()) {
      const auto got = heap.pop();
      double smallest = HUGE_VAL;
      for (double c : current)
        if (c >= 0)
          smallest = std::min(smallest, c);
      ASSERT_EQ(got.key, smallest);
      ASSERT_EQ(current[got.vertex], got.key);
      current[got.vertex] = -1;
    }
    ASSERT_EQ(heap.size(),
              static_cast<std::size_t>(std::count_if(current.begin(), current.end(),
                                                     [](double c) { return c >= 0; })));
  }
  heap.clear();
  EXPECT_TRUE(heap.empty());
  heap.push(3.0, 5); // a cleared vertex can come back
  EXPECT_EQ(heap.pop().vertex, 5);
}

TEST(CsrGraph, KeepsTheLightestParallelArcAndDropsSelfLoops) {
  apsp::graph g(4);
  g.add_edge(0, 1, 5);
  g.add_edge(0, 1, 3);
  g.add_edge(0, 1, 9);
  g.add_edge(2, 2, 4);  // a positive self-loop changes nothing
  g.add_edge(3, 3, -2); // a negative one is a cycle
  g.add_edge(3, 0, 1);
  g.add_edge(0, 2, 7);
  const auto csr = apsp::cpu::csr_from_edges<std::int32_t>(g);
  ASSERT_EQ(csr.n, 4);
  EXPECT_EQ(csr.offsets, (std::vector<std::int64_t>{0, 2, 2, 2, 3}));
  using arc = apsp::cpu::csr_arc<std::int32_t>;
  EXPECT_EQ(csr.arcs, (std::vector<arc>{{1, 3}, {2, 7}, {0, 1}}));
  EXPECT_EQ(csr.negative_loop, 3);
  EXPECT_EQ(csr.negative_loop_weight, -2);
}

TEST(Potentials, MakeEveryArcNonNegativeAndMatchTheVirtualSourceDistances) {
  apsp::testing::random_graph_spec spec;
  spec.n = 120;
  spec.density = 0.04;
  spec.negative_edges = true;
  spec.self_loops = false;
  const auto g = apsp::testing::make_random_graph(spec, 77);
  auto csr = apsp::cpu::csr_from_edges<std::int32_t>(g);
  const auto h = apsp::cpu::johnson_potentials(csr);
  // The oracle's h(v) = min(0, min over u of d(u, v)): the virtual source's 0-arcs reach all.
  apsp::solve_options o;
  o.backend = apsp::backend_kind::reference;
  o.type = apsp::dtype::int64;
  const auto r = apsp::solve(g, o);
  for (std::int64_t v = 0; v < spec.n; ++v) {
    double want = 0;
    for (std::int64_t u = 0; u < spec.n; ++u)
      want = std::min(want, r.distance(u, v));
    EXPECT_EQ(static_cast<double>(h[static_cast<std::size_t>(v)]), want) << "h[" << v << "]";
  }
  apsp::cpu::reweight(csr, h);
  for (const auto& a : csr.arcs)
    EXPECT_GE(a.weight, 0);
}

TEST(Potentials, NameANegativeCycleFarFromTheStartInOrder) {
  // A long path of negative arcs leading into the cycle 40 -> 41 -> 42 -> 40 (weight -1).
  apsp::graph g(50);
  for (std::int64_t v = 0; v < 40; ++v)
    g.add_edge(v, v + 1, -1);
  g.add_edge(40, 41, 2);
  g.add_edge(41, 42, -4);
  g.add_edge(42, 40, 1);
  const auto csr = apsp::cpu::csr_from_edges<double>(g);
  try {
    (void)apsp::cpu::johnson_potentials(csr);
    FAIL() << "no negative_cycle_error";
  } catch (const apsp::negative_cycle_error& e) {
    EXPECT_EQ(e.cycle(), (std::vector<std::int64_t>{40, 41, 42})) << e.what();
    EXPECT_EQ(e.cycle_weight(), -1);
    EXPECT_NE(std::string(e.what()).find("40 -> 41 -> 42 -> 40"), std::string::npos) << e.what();
  }
}

TEST(Potentials, FindAHeavyNegativeCycleBeforeTheLabelsOverflow) {
  // 99 arcs of -2^53 and one of +2^53 on the cycle 0 -> 1 -> ... -> 99 -> 0, among 1,500
  // vertices: between two searches every n relaxations the labels would fall past int64's
  // range (they wrapped, and the solve returned made-up distances).
  const std::int64_t n = 1500;
  const double heavy = 9007199254740992.0; // 2^53
  apsp::graph g(n);
  for (std::int64_t v = 0; v < 100; ++v)
    g.add_edge(v, (v + 1) % 100, v == 99 ? heavy : -heavy);
  for (const auto type : {apsp::dtype::int64, apsp::dtype::float64}) {
    apsp::solve_options o;
    o.backend = apsp::backend_kind::cpu;
    o.algorithm = apsp::algorithm_kind::johnson;
    o.type = type;
    try {
      (void)apsp::solve(g, o);
      FAIL() << "no negative_cycle_error for " << apsp::to_string(type);
    } catch (const apsp::negative_cycle_error& e) {
      EXPECT_EQ(e.cycle().size(), 100u) << e.what();
      EXPECT_EQ(e.cycle_weight(), -98 * heavy) << e.what();
    }
  }
}

TEST(Johnson, FloatDistancesAreTheWeightsOfTheirPathsNotOfThePotentials) {
  // Potentials near -1e15 keep nothing of 0.001: reweighting as (w + h(u)) - h(v), and the
  // distance as d' - h(s) + h(t), gave 0 for 2 -> 4 and took the direct arc (0.0031).
  apsp::graph g(4);
  g.add_edge(0, 1, -1e15);
  g.add_edge(1, 2, 0.001);
  g.add_edge(2, 3, 0.002);
  g.add_edge(1, 3, 0.0031);
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  o.algorithm = apsp::algorithm_kind::johnson;
  o.type = apsp::dtype::float64;
  o.paths = true;
  const auto r = apsp::solve(g, o);
  EXPECT_EQ(r.distance(1, 2), 0.001);
  EXPECT_EQ(r.distance(1, 3), 0.001 + 0.002);
  EXPECT_EQ(r.path(1, 3), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(r.distance(0, 3), -1e15 + 0.001 + 0.002);
  apsp::testing::expect_paths_valid(g, r, 1e-9);
}

TEST(AlgorithmChoice, SparseGraphsGetJohnsonAndDenseOnesFloydWarshall) {
  using apsp::detail::choose_algorithm;
  // What the cost model picks with the GPUs' Floyd-Warshall beside the cpu engines.
  const auto on_gpus = [](const apsp::detail::problem_shape& s) {
    return choose_algorithm(s, apsp::backend_kind::cuda).algorithm;
  };
  apsp::detail::problem_shape rome{3353, 8870, apsp::dtype::int32, 2};
  EXPECT_EQ(choose_algorithm(rome, apsp::backend_kind::cpu).algorithm,
            apsp::algorithm_kind::johnson);
  apsp::detail::problem_shape dense{3000, 3000LL * 3000 / 4, apsp::dtype::int32, 2};
  EXPECT_EQ(choose_algorithm(dense, apsp::backend_kind::cpu).algorithm,
            apsp::algorithm_kind::floyd_warshall);
  // A GPU's Floyd-Warshall beats two cores' Johnson on DE.gr (measured: 9.4 s against 74 s)
  // and 16 cores' (14-16 s); 64 cores' Johnson would beat one GPU and two (whose result still
  // has to move to the host), not four.
  apsp::detail::problem_shape delaware{49109, 121024, apsp::dtype::int32, 2};
  EXPECT_EQ(on_gpus(delaware), apsp::algorithm_kind::floyd_warshall);
  delaware.threads = 16;
  EXPECT_EQ(on_gpus(delaware), apsp::algorithm_kind::floyd_warshall);
  delaware.threads = 64;
  const auto c = choose_algorithm(delaware, apsp::backend_kind::cuda);
  EXPECT_EQ(c.algorithm, apsp::algorithm_kind::johnson);
  EXPECT_NE(c.reason.find("Johnson"), std::string::npos);
  delaware.gpus = 2;
  EXPECT_EQ(on_gpus(delaware), apsp::algorithm_kind::johnson);
  delaware.gpus = 4;
  EXPECT_EQ(on_gpus(delaware), apsp::algorithm_kind::floyd_warshall);
  // Metrics reduced on the GPUs move no matrix: two GPUs beat 64 cores again.
  delaware.gpus = 2;
  delaware.host_output = false;
  EXPECT_EQ(on_gpus(delaware), apsp::algorithm_kind::floyd_warshall);
  // The two-H200 run that exposed the linear thread scaling: n = 80,000, 1.6 M arcs, 32
  // threads, two GPUs: Johnson took 41.9 s, two GPU ranks 20 s.
  apsp::detail::problem_shape random80k{80000, 1600000, apsp::dtype::int32, 32, 2};
  EXPECT_EQ(on_gpus(random80k), apsp::algorithm_kind::floyd_warshall);
}

// The auto back end's small-n rule: the cpu where it finishes before a GPU could start (the
// H100 host, 16 threads, whole runs: n = 3,000 0.21 s on the cpu against 0.28 s on the GPU,
// n = 4,000 0.45 s against 0.29 s), the GPU once it has started or where the cpu is slower
// anyway.
TEST(AlgorithmChoice, SmallProblemsRunOnTheCpuBeforeAGpuStarts) {
  using apsp::detail::cpu_beats_gpu_start;
  apsp::detail::problem_shape s{3000, 0, apsp::dtype::int32, 16};
  EXPECT_TRUE(cpu_beats_gpu_start(s, false));
  EXPECT_FALSE(cpu_beats_gpu_start(s, true));
  s.n = 6000;
  EXPECT_FALSE(cpu_beats_gpu_start(s, false));
  s.type = apsp::dtype::float64; // no GPU solves it
  EXPECT_TRUE(cpu_beats_gpu_start(s, false));
  s = {1200, 0, apsp::dtype::float32, 1}; // one thread: 0.09 s
  EXPECT_TRUE(cpu_beats_gpu_start(s, false));
  s.n = 2000; // one thread: 0.4 s
  EXPECT_FALSE(cpu_beats_gpu_start(s, false));

  // Through the public plan: options only a GPU honours keep the cuda back end in the running.
  apsp::solve_options o;
  o.threads = 2;
  if (!apsp::detail::gpu_started()) {
    const auto p = apsp::make_plan(500, o);
    EXPECT_EQ(p.backend, apsp::backend_kind::cpu);
    EXPECT_NE(p.algorithm_reason.find("sooner than a GPU that has to start"), std::string::npos)
        << p.algorithm_reason;
  }
  o.devices = {0};
  EXPECT_EQ(apsp::make_plan(500, o).algorithm_reason.find("sooner than a GPU"), std::string::npos);
  // No GPU solves 8-byte types: the reason says so rather than comparing made-up times.
  o.devices = {};
  o.type = apsp::dtype::float64;
  const auto wide = apsp::make_plan(5000, o);
  EXPECT_EQ(wide.backend, apsp::backend_kind::cpu);
  EXPECT_NE(wide.algorithm_reason.find("int32 and float32 only"), std::string::npos)
      << wide.algorithm_reason;
  // A huge block is one round (n + block - 1 overflowed to "0 rounds").
  o.algorithm = apsp::algorithm_kind::johnson;
  o.block = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(apsp::make_plan(500, o).rounds, 1);
}

TEST(AlgorithmChoice, PlansSayWhichAndWhy) {
  apsp::testing::random_graph_spec spec;
  spec.n = 2000; // m = 8000: a road graph's 4 arcs per vertex
  spec.density = 0.002;
  const auto sparse = apsp::testing::make_random_graph(spec, 5);
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  auto p = apsp::make_plan(sparse, o);
  EXPECT_EQ(p.algorithm, apsp::algorithm_kind::johnson);
  EXPECT_NE(p.algorithm_reason.find("auto"), std::string::npos);
  o.algorithm = apsp::algorithm_kind::floyd_warshall;
  EXPECT_EQ(apsp::make_plan(sparse, o).algorithm, apsp::algorithm_kind::floyd_warshall);
  // Checkpoints are Floyd-Warshall's: auto keeps it, and Johnson is refused.
  o.algorithm = apsp::algorithm_kind::automatic;
  o.checkpoint_dir = "unused_checkpoint_dir";
  const apsp::plan checkpointed = apsp::make_plan(sparse, o);
  EXPECT_EQ(checkpointed.algorithm, apsp::algorithm_kind::floyd_warshall);
  // ... and says what it gave up: Johnson, estimated faster than the Floyd-Warshall that runs.
  ASSERT_TRUE(checkpointed.checkpoint_displaced.has_value()) << checkpointed.algorithm_reason;
  EXPECT_EQ(checkpointed.checkpoint_displaced->algorithm, apsp::algorithm_kind::johnson);
  EXPECT_LT(checkpointed.checkpoint_displaced->seconds,
            checkpointed.checkpoint_displaced->fw_seconds);
  const auto cells = static_cast<std::uint64_t>(checkpointed.n * checkpointed.n);
  EXPECT_GE(apsp::checkpoint_bytes(checkpointed), cells * 4);
  EXPECT_LT(apsp::checkpoint_bytes(checkpointed), cells * 4 + 8192);
  EXPECT_FALSE(p.checkpoint_displaced.has_value());
  EXPECT_EQ(apsp::checkpoint_bytes(p), 0u);
  o.algorithm = apsp::algorithm_kind::johnson;
  EXPECT_THROW((void)apsp::make_plan(sparse, o), apsp::invalid_argument_error);
  o.checkpoint_dir.clear();
  o.backend = apsp::backend_kind::reference;
  EXPECT_THROW((void)apsp::make_plan(sparse, o), apsp::backend_unavailable_error);
  EXPECT_EQ(apsp::parse_algorithm("fw"), apsp::algorithm_kind::floyd_warshall);
  EXPECT_EQ(apsp::parse_algorithm(apsp::to_string(apsp::algorithm_kind::johnson)),
            apsp::algorithm_kind::johnson);
  EXPECT_THROW((void)apsp::parse_algorithm("dijkstra"), apsp::invalid_argument_error);
}

} // namespace
