// The one planner (make_plan(graph, options, asked)): what it chooses for the metrics, for a
// block of sources and targets and for one pair is what compute_metrics, the block's run and
// solve_pair then execute, and a plan's backend, narrow and out_of_core follow from its driver.

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <variant>

#include "apsp/apsp.hpp"
#include "core/backend.hpp"

namespace {

using apsp::plan_request;

/// Every vertex with `degree` random out-arcs of weight 1..49: dense enough that Floyd-Warshall
/// beats Dijkstra from most vertices.
apsp::graph dense_graph(std::int64_t n, int degree, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> vertex(0, n - 1);
  std::uniform_int_distribution<int> weight(1, 49);
  apsp::graph g(n);
  for (std::int64_t u = 0; u < n; ++u) {
    for (int k = 0; k < degree; ++k) {
      const std::int64_t v = vertex(rng);
      if (v != u)
        g.add_edge(u, v, weight(rng));
    }
  }
  return g;
}

apsp::graph path_graph(std::int64_t n) {
  apsp::graph g(n);
  for (std::int64_t v = 0; v + 1 < n; ++v)
    g.add_edge(v, v + 1, 1);
  return g;
}

apsp::solve_options options(apsp::backend_kind backend, apsp::algorithm_kind algorithm) {
  apsp::solve_options o;
  o.backend = backend;
  o.algorithm = algorithm;
  o.threads = 2;
  return o;
}

void expect_fields_follow_the_driver(const apsp::plan& p) {
  const bool host = std::holds_alternative<apsp::drivers::cpu_blocked>(p.run) ||
                    std::holds_alternative<apsp::drivers::supernodal>(p.run) ||
                    std::holds_alternative<apsp::drivers::johnson>(p.run) ||
                    std::holds_alternative<apsp::drivers::johnson_rows>(p.run) ||
                    std::holds_alternative<apsp::drivers::phast_rows>(p.run) ||
                    std::holds_alternative<apsp::drivers::block_rows>(p.run) ||
                    std::holds_alternative<apsp::drivers::pair_search>(p.run);
  if (host)
    EXPECT_EQ(p.backend, apsp::backend_kind::cpu) << apsp::to_string(p.run);
  if (std::holds_alternative<apsp::drivers::reference>(p.run))
    EXPECT_EQ(p.backend, apsp::backend_kind::reference);
  EXPECT_EQ(p.narrow, std::holds_alternative<apsp::drivers::cuda_packed16>(p.run));
  EXPECT_EQ(p.out_of_core, std::holds_alternative<apsp::drivers::cuda_out_of_core>(p.run));
}

TEST(Planner, TheMetricsPlanIsWhatComputeMetricsRuns) {
  const apsp::graph dense = dense_graph(60, 20, 1);
  const apsp::graph path = path_graph(3000);
  struct case_ {
    const char* name;
    const apsp::graph* g;
    apsp::solve_options o;
  };
  const auto cpu = apsp::backend_kind::cpu;
  const auto automatic = apsp::algorithm_kind::automatic;
  apsp::solve_options batches = options(cpu, apsp::algorithm_kind::johnson);
  batches.block = 7;
  const case_ cases[] = {
      {"dense, auto", &dense, options(cpu, automatic)},
      {"dense, reference", &dense, options(apsp::backend_kind::reference, automatic)},
      {"dense, johnson rows in batches of 7", &dense, batches},
      {"long path, auto", &path, options(cpu, automatic)},
  };
  for (const case_& c : cases) {
    SCOPED_TRACE(c.name);
    const apsp::plan planned = apsp::make_plan(*c.g, c.o, plan_request::metrics());
    const apsp::graph_metrics ran = apsp::compute_metrics(*c.g, c.o);
    EXPECT_EQ(apsp::to_string(planned.run), apsp::to_string(ran.executed_plan.run));
    EXPECT_EQ(planned.algorithm_reason, ran.executed_plan.algorithm_reason);
    EXPECT_EQ(planned.block, ran.executed_plan.block);
    EXPECT_EQ(planned.backend, ran.executed_plan.backend);
    expect_fields_follow_the_driver(planned);
  }
  // Rows where asked, and where auto's cost model picks Johnson for the matrix; the matrix of
  // a small dense graph.
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::johnson_rows>(
      apsp::make_plan(dense, batches, plan_request::metrics()).run));
  EXPECT_EQ(std::get<apsp::drivers::johnson_rows>(
                apsp::make_plan(dense, batches, plan_request::metrics()).run)
                .batch,
            7);
  EXPECT_EQ(std::holds_alternative<apsp::drivers::johnson_rows>(
                apsp::make_plan(path, options(cpu, automatic), plan_request::metrics()).run),
            apsp::make_plan(path, options(cpu, automatic)).algorithm ==
                apsp::algorithm_kind::johnson);
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::cpu_blocked>(
      apsp::make_plan(dense, options(cpu, automatic), plan_request::metrics()).run));
}

TEST(Planner, MetricsRefuseWhatTheyCannotTake) {
  apsp::solve_options o;
  o.paths = true;
  EXPECT_THROW((void)apsp::make_plan(path_graph(5), o, plan_request::metrics()),
               apsp::invalid_argument_error);
}

TEST(Planner, ABlockIsCutFromTheWholeMatrixWhereThatEndsSooner) {
  const std::int64_t n = 300;
  const apsp::graph g = dense_graph(n, 90, 48);
  const auto cpu = apsp::backend_kind::cpu;
  const auto automatic = apsp::algorithm_kind::automatic;
  // Dijkstra from most vertices of a dense graph: Floyd-Warshall of the whole matrix sooner.
  const apsp::plan many =
      apsp::make_plan(g, options(cpu, automatic), plan_request::block(n - 10, -1));
  EXPECT_FALSE(std::holds_alternative<apsp::drivers::block_rows>(many.run))
      << apsp::to_string(many.run);
  EXPECT_EQ(many.algorithm_reason.rfind("auto: the whole matrix ~", 0), 0u)
      << many.algorithm_reason;
  // From two of them Dijkstra is sooner; the targets alone are searched on the reversed graph.
  const apsp::plan two = apsp::make_plan(g, options(cpu, automatic), plan_request::block(2, -1));
  ASSERT_TRUE(std::holds_alternative<apsp::drivers::block_rows>(two.run));
  EXPECT_FALSE(std::get<apsp::drivers::block_rows>(two.run).from_targets);
  expect_fields_follow_the_driver(two);
  const apsp::plan cols = apsp::make_plan(g, options(cpu, automatic), plan_request::block(-1, 3));
  ASSERT_TRUE(std::holds_alternative<apsp::drivers::block_rows>(cols.run));
  EXPECT_TRUE(std::get<apsp::drivers::block_rows>(cols.run).from_targets);
  const apsp::plan fewer = apsp::make_plan(g, options(cpu, automatic), plan_request::block(5, 2));
  EXPECT_TRUE(std::get<apsp::drivers::block_rows>(fewer.run).from_targets);
  // What the options ask for: Johnson keeps the rows, Floyd-Warshall the whole matrix.
  const apsp::plan rows = apsp::make_plan(g, options(cpu, apsp::algorithm_kind::johnson),
                                          plan_request::block(n - 10, -1));
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::block_rows>(rows.run));
  EXPECT_EQ(rows.algorithm_reason, "requested");
  const apsp::plan fw = apsp::make_plan(g, options(cpu, apsp::algorithm_kind::floyd_warshall),
                                        plan_request::block(1, 1));
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::cpu_blocked>(fw.run));
  EXPECT_EQ(fw.algorithm_reason, "asked for");
}

TEST(Planner, ABlockWithPredecessorsIsSearchedFromItsSources) {
  // Where the whole matrix ends sooner (as above), predecessors still come from Dijkstra's
  // shortest-path trees of the sources (docs/semantics.md), never from the reversed graph.
  const std::int64_t n = 300;
  const apsp::graph g = dense_graph(n, 90, 48);
  apsp::solve_options o = options(apsp::backend_kind::cpu, apsp::algorithm_kind::automatic);
  o.paths = true;
  for (const plan_request asked : {plan_request::block(n - 10, -1), plan_request::block(5, 2)}) {
    const apsp::plan p = apsp::make_plan(g, o, asked);
    ASSERT_TRUE(std::holds_alternative<apsp::drivers::block_rows>(p.run)) << apsp::to_string(p.run);
    EXPECT_FALSE(std::get<apsp::drivers::block_rows>(p.run).from_targets);
    EXPECT_TRUE(p.paths);
    EXPECT_EQ(p.algorithm_reason.rfind("predecessors asked", 0), 0u) << p.algorithm_reason;
  }
  // An all-pairs engine asked for by name keeps its own path matrix.
  o.algorithm = apsp::algorithm_kind::floyd_warshall;
  const apsp::plan fw = apsp::make_plan(g, o, plan_request::block(2, -1));
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::cpu_blocked>(fw.run));
}

TEST(Planner, ASmallBlockIsPlannedFromTheCountsAsFromTheGraph) {
  // make_plan_by_counts decides what make_plan would where the counts suffice (a few searches
  // against writing the n x n matrix), and leaves the rest to it.
  const std::int64_t n = 3000;
  const apsp::graph g = dense_graph(n, 30, 5);
  const auto m = g.num_edges();
  const auto o = options(apsp::backend_kind::cpu, apsp::algorithm_kind::automatic);
  const auto few = apsp::make_plan_by_counts(n, m, o, plan_request::block(1, -1));
  ASSERT_TRUE(few.has_value());
  ASSERT_TRUE(std::holds_alternative<apsp::drivers::block_rows>(few->run));
  EXPECT_EQ(few->algorithm_reason.rfind("auto: Dijkstra from 1 vertices", 0), 0u)
      << few->algorithm_reason;
  const apsp::plan read = apsp::make_plan(g, o, plan_request::block(1, -1));
  EXPECT_EQ(apsp::to_string(read.run), apsp::to_string(few->run));
  EXPECT_EQ(read.algorithm_reason, few->algorithm_reason);
  EXPECT_EQ(read.host_bytes, few->host_bytes);
  // Every source: the graph decides (the whole matrix may end sooner).
  EXPECT_FALSE(apsp::make_plan_by_counts(n, m, o, plan_request::block(-1, -1)).has_value());
  // Predecessors and Johnson by name: rows whatever the counts; an all-pairs engine asked for,
  // or another request: the graph.
  apsp::solve_options paths = o;
  paths.paths = true;
  EXPECT_TRUE(apsp::make_plan_by_counts(n, m, paths, plan_request::block(-1, -1)).has_value());
  const auto johnson = options(apsp::backend_kind::cpu, apsp::algorithm_kind::johnson);
  EXPECT_TRUE(apsp::make_plan_by_counts(n, m, johnson, plan_request::block(-1, 5)).has_value());
  const auto fw = options(apsp::backend_kind::cpu, apsp::algorithm_kind::floyd_warshall);
  EXPECT_FALSE(apsp::make_plan_by_counts(n, m, fw, plan_request::block(1, -1)).has_value());
  EXPECT_FALSE(apsp::make_plan_by_counts(n, m, o, plan_request::metrics()).has_value());
}

TEST(Planner, APlanOfRowsMakesNoMatrix) {
  const apsp::graph g = path_graph(10);
  const apsp::solve_options o = options(apsp::backend_kind::cpu, apsp::algorithm_kind::johnson);
  const apsp::plan rows = apsp::make_plan(g, o, plan_request::metrics());
  EXPECT_THROW((void)apsp::solve(g, rows, o), apsp::invalid_argument_error);
}

TEST(Planner, OnePairIsTheSearchSolvePairRuns) {
  const apsp::graph g = dense_graph(50, 4, 9);
  apsp::graph negative = g;
  negative.add_edge(3, 7, -2);
  const auto automatic = apsp::algorithm_kind::automatic;
  // Whatever all-pairs engine the options name, one pair is one bidirectional search.
  for (const auto& o : {options(apsp::backend_kind::cpu, automatic),
                        options(apsp::backend_kind::reference, apsp::algorithm_kind::floyd_warshall),
                        options(apsp::backend_kind::cpu, apsp::algorithm_kind::johnson)}) {
    for (const apsp::graph* graph : {&g, static_cast<const apsp::graph*>(&negative)}) {
      const apsp::plan planned = apsp::make_plan(*graph, o, plan_request::pair());
      ASSERT_TRUE(std::holds_alternative<apsp::drivers::pair_search>(planned.run))
          << apsp::to_string(planned.run);
      // Potentials exactly where a weight is negative.
      EXPECT_EQ(std::get<apsp::drivers::pair_search>(planned.run).potentials, graph == &negative);
      expect_fields_follow_the_driver(planned);
      EXPECT_EQ(planned.n, 50);
      EXPECT_EQ(planned.host_bytes,
                apsp::solve_pair_host_bytes(50, graph->num_edges(), planned.type));
      EXPECT_TRUE(planned.fits) << planned.reason;
      apsp::pair_options po;
      po.type = o.type;
      const apsp::pair_result ran = apsp::solve_pair(*graph, 0, 49, po);
      EXPECT_EQ(apsp::to_string(ran.ran.run), apsp::to_string(planned.run));
      EXPECT_EQ(ran.ran.algorithm_reason, planned.algorithm_reason);
      // The plan run as it is gives the same answer.
      const apsp::pair_result again = apsp::solve_pair(*graph, 0, 49, planned, po);
      EXPECT_EQ(again.path, ran.path);
      EXPECT_EQ(again.distance, ran.distance);
      // A pair's plan makes no matrix.
      EXPECT_THROW((void)apsp::solve(*graph, planned, o), apsp::invalid_argument_error);
    }
  }
  // solve_pair refuses a plan for something else: another driver, a graph without negative
  // weights, another type.
  const apsp::solve_options o = options(apsp::backend_kind::cpu, automatic);
  apsp::pair_options po;
  po.type = o.type;
  EXPECT_THROW((void)apsp::solve_pair(g, 0, 1, apsp::make_plan(g, o), po),
               apsp::invalid_argument_error);
  EXPECT_THROW((void)apsp::solve_pair(negative, 0, 1, apsp::make_plan(g, o, plan_request::pair()),
                                      po),
               apsp::invalid_argument_error);
  po.type = apsp::dtype::int64;
  EXPECT_THROW((void)apsp::solve_pair(g, 0, 1, apsp::make_plan(g, o, plan_request::pair()), po),
               apsp::invalid_argument_error);
}

TEST(Planner, AMatrixRequestIsTheSolvesPlan) {
  const apsp::graph g = dense_graph(40, 8, 3);
  for (const auto backend : {apsp::backend_kind::cpu, apsp::backend_kind::reference}) {
    const apsp::solve_options o = options(backend, apsp::algorithm_kind::automatic);
    const apsp::plan asked = apsp::make_plan(g, o, plan_request::matrix());
    const apsp::plan plain = apsp::make_plan(g, o);
    EXPECT_EQ(apsp::to_string(asked.run), apsp::to_string(plain.run));
    EXPECT_EQ(asked.algorithm_reason, plain.algorithm_reason);
    expect_fields_follow_the_driver(asked);
    expect_fields_follow_the_driver(apsp::solve(g, asked, o).executed_plan());
  }
}

/// A stand-in GPU for the planner: always available, every plan fits in core on device 0, and
/// it counts how often its planner is entered.
class counting_gpu final : public apsp::detail::backend {
public:
  explicit counting_gpu(int& plans) : plans_(plans) {}
  apsp::backend_kind kind() const noexcept override { return apsp::backend_kind::cuda; }
  apsp::backend_status status() const override {
    return {apsp::backend_kind::cuda, true, "a counting stand-in GPU"};
  }
  apsp::plan make_plan(std::int64_t n, const apsp::solve_options& o) const override {
    ++plans_;
    apsp::plan p;
    p.run = apsp::drivers::cuda_in_core{0};
    p.device = "a counting stand-in GPU";
    p.type = o.type;
    p.n = n;
    p.block = 128;
    p.rounds = (n + 127) / 128;
    p.paths = o.paths;
    return p;
  }
  void run(apsp::any_matrix&, apsp::via_matrix*, const apsp::plan&,
           apsp::detail::run_context&) override {
    throw apsp::internal_error("the counting stand-in GPU only plans");
  }

private:
  int& plans_;
};

/// Installs a counting_gpu as the cuda back end for one test.
class with_counting_gpu {
public:
  with_counting_gpu() {
    apsp::detail::set_cuda_backend_for_tests(
        [this] { return std::make_unique<counting_gpu>(plans); });
  }
  ~with_counting_gpu() { apsp::detail::set_cuda_backend_for_tests({}); }
  with_counting_gpu(const with_counting_gpu&) = delete;
  with_counting_gpu& operator=(const with_counting_gpu&) = delete;
  int plans = 0;
};

TEST(Planner, AutoWithAGpuEntersTheCudaPlannerOncePerPlan) {
  // Large enough that the cpu does not finish before a GPU could start, dense enough that
  // Floyd-Warshall is the engine: the GPU's plan decides whether it fits, gives the device
  // count to the cost model and is the plan returned, all from one call of its planner.
  const apsp::graph dense = dense_graph(6000, 40, 7);
  const apsp::solve_options o =
      options(apsp::backend_kind::automatic, apsp::algorithm_kind::automatic);
  {
    with_counting_gpu gpu;
    const apsp::plan p = apsp::make_plan(dense, o);
    ASSERT_TRUE(std::holds_alternative<apsp::drivers::cuda_in_core>(p.run))
        << apsp::to_string(p.run) << ": " << p.algorithm_reason;
    EXPECT_EQ(p.backend, apsp::backend_kind::cuda);
    EXPECT_EQ(gpu.plans, 1);
  }
  {
    with_counting_gpu gpu; // without the edges: the engine is Floyd-Warshall at once
    const apsp::plan p = apsp::make_plan(std::int64_t{6000}, o);
    ASSERT_TRUE(std::holds_alternative<apsp::drivers::cuda_in_core>(p.run));
    EXPECT_EQ(gpu.plans, 1);
  }
  {
    with_counting_gpu gpu; // asked for by name
    apsp::solve_options on_gpu = o;
    on_gpu.backend = apsp::backend_kind::cuda;
    const apsp::plan p = apsp::make_plan(dense, on_gpu);
    ASSERT_TRUE(std::holds_alternative<apsp::drivers::cuda_in_core>(p.run));
    EXPECT_EQ(gpu.plans, 1);
  }
}

} // namespace
