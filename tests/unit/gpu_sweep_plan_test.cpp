// The planner's choice of PHAST's sweeps on a GPU for the metrics (core/gpu_sweep_plan.hpp,
// drivers::cuda_phast), with a stand-in GPU (set_cuda_backend_for_tests) so that it runs
// without one: asked for by --backend cuda on a road-like int32 graph; under auto when the
// cost model says the GPU ends sooner and the sweeps need at most 8 GiB of device memory; never
// for float or int64 weights, non-road graphs, the cpu back end, or without a device. And the
// cost model's direction.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <variant>

#include "apsp/apsp.hpp"
#include "common/sparse_graphs.hpp"
#include "core/algorithm_choice.hpp"
#include "core/backend.hpp"
#include "core/gpu_sweep_plan.hpp"
#include "core/tuning.hpp"

namespace {

/// How often the planner asked the stand-in GPU whether it is there.
int status_calls = 0;

/// A stand-in GPU: available, but no matrix fits on it (so that auto's matrix plans stay on
/// the cpu); it runs nothing.
class stand_in_gpu final : public apsp::detail::backend {
public:
  apsp::backend_kind kind() const noexcept override { return apsp::backend_kind::cuda; }
  apsp::backend_status status() const override {
    ++status_calls;
    return {apsp::backend_kind::cuda, true, "a stand-in GPU"};
  }
  apsp::plan make_plan(std::int64_t n, const apsp::solve_options& o) const override {
    apsp::plan p;
    p.run = apsp::drivers::cuda_in_core{0};
    p.type = o.type;
    p.n = n;
    p.fits = false;
    p.driver_fits = false;
    p.reason = "the stand-in GPU holds no matrix";
    return p;
  }
  void run(apsp::any_matrix&, apsp::via_matrix*, const apsp::plan&,
           apsp::detail::run_context&) override {
    throw apsp::internal_error("the stand-in GPU only plans");
  }
};

class with_stand_in_gpu {
public:
  with_stand_in_gpu() {
    apsp::detail::set_cuda_backend_for_tests([] { return std::make_unique<stand_in_gpu>(); });
  }
  ~with_stand_in_gpu() { apsp::detail::set_cuda_backend_for_tests({}); }
  with_stand_in_gpu(const with_stand_in_gpu&) = delete;
  with_stand_in_gpu& operator=(const with_stand_in_gpu&) = delete;
};

apsp::graph road_like(std::int64_t side) {
  apsp::testing::lattice_spec s;
  s.x = side;
  s.y = side;
  return apsp::testing::make_lattice(s, 3);
}

apsp::plan metrics_plan(const apsp::graph& g, apsp::backend_kind b, apsp::dtype t, int threads) {
  apsp::solve_options o;
  o.backend = b;
  o.type = t;
  o.threads = threads;
  return apsp::make_plan(g, o, apsp::plan_request::metrics());
}

bool on_gpu_sweeps(const apsp::plan& p) {
  return std::holds_alternative<apsp::drivers::cuda_phast>(p.run);
}

TEST(GpuSweepPlan, AskedForWithCudaOnARoadGraph) {
  const with_stand_in_gpu gpu;
  const apsp::graph g = road_like(80); // 6,400 vertices: PHAST's size
  const apsp::plan p = metrics_plan(g, apsp::backend_kind::cuda, apsp::dtype::int32, 2);
  ASSERT_TRUE(on_gpu_sweeps(p)) << apsp::to_string(p.run) << ": " << p.algorithm_reason;
  EXPECT_EQ(p.backend, apsp::backend_kind::cuda);
  EXPECT_EQ(p.algorithm, apsp::algorithm_kind::johnson);
  EXPECT_EQ(p.device, "a stand-in GPU");
  EXPECT_NE(p.algorithm_reason.find("requested (cuda)"), std::string::npos);
  const auto& how = std::get<apsp::drivers::cuda_phast>(p.run);
  EXPECT_EQ(how.lanes, apsp::detail::gpu_sweep_default_lanes);
  EXPECT_EQ(how.threads, 2);
  EXPECT_EQ(how.rows_per_reduction % how.lanes, 0);
  EXPECT_GE(how.rows_per_reduction, how.lanes);
  EXPECT_EQ(p.block, how.lanes);
  EXPECT_EQ(p.rounds, (6400 + how.lanes - 1) / how.lanes);
  EXPECT_GT(p.device_bytes, std::uint64_t{6400} * 256 * 4);
  EXPECT_TRUE(p.fits);
  EXPECT_NE(apsp::to_string(p.run).find("cuda phast sweeps"), std::string::npos);
}

TEST(GpuSweepPlan, AutoTakesTheGpuWhenTheCostModelSaysSo) {
  const with_stand_in_gpu gpu;
  const apsp::graph large = road_like(160); // 25,600 vertices
  const apsp::plan p = metrics_plan(large, apsp::backend_kind::automatic, apsp::dtype::int32, 2);
  EXPECT_TRUE(on_gpu_sweeps(p)) << apsp::to_string(p.run) << ": " << p.algorithm_reason;
  EXPECT_NE(p.algorithm_reason.find("auto:"), std::string::npos);
  // A small graph on many threads: the cpu's sweeps end before the GPU has started.
  const apsp::graph small = road_like(75);
  const apsp::plan q = metrics_plan(small, apsp::backend_kind::automatic, apsp::dtype::int32, 64);
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::phast_rows>(q.run)) << apsp::to_string(q.run);
}

TEST(GpuSweepPlan, AutoStaysWithinWhatAnyGpuHolds) {
  const with_stand_in_gpu gpu;
  // 2^20 lanes a sweep: far more device memory than auto plans for; asked for, it is planned.
  const apsp::detail::scoped_tuning wide([](apsp::detail::tuning& t) {
    t.cuda_phast_lanes = 1 << 20;
  });
  const apsp::graph g = road_like(160);
  EXPECT_FALSE(on_gpu_sweeps(metrics_plan(g, apsp::backend_kind::automatic, apsp::dtype::int32, 2)));
  const apsp::plan asked = metrics_plan(g, apsp::backend_kind::cuda, apsp::dtype::int32, 2);
  ASSERT_TRUE(on_gpu_sweeps(asked)) << apsp::to_string(asked.run);
  EXPECT_GT(asked.device_bytes, std::uint64_t{8} << 30);
  EXPECT_EQ(std::get<apsp::drivers::cuda_phast>(asked.run).lanes, 1 << 20);
}

TEST(GpuSweepPlan, NeverForOtherTypesGraphsOrBackEnds) {
  const with_stand_in_gpu gpu;
  const apsp::graph g = road_like(160);
  for (const auto t : {apsp::dtype::float32, apsp::dtype::int64, apsp::dtype::float64})
    EXPECT_FALSE(on_gpu_sweeps(metrics_plan(g, apsp::backend_kind::automatic, t, 2)))
        << apsp::to_string(t);
  EXPECT_FALSE(on_gpu_sweeps(metrics_plan(g, apsp::backend_kind::cpu, apsp::dtype::int32, 2)));
  // Too small for a hierarchy to pay: PHAST's own test says no.
  EXPECT_FALSE(
      on_gpu_sweeps(metrics_plan(road_like(40), apsp::backend_kind::automatic, apsp::dtype::int32, 2)));
}

TEST(GpuSweepPlan, NeverWithoutADevice) {
  apsp::detail::set_cuda_backend_for_tests([] { return apsp::detail::make_cuda_backend(); });
  const bool device = apsp::detail::current_cuda_backend()->status().available;
  apsp::detail::set_cuda_backend_for_tests({});
  if (device)
    GTEST_SKIP() << "this machine has a CUDA device";
  EXPECT_FALSE(on_gpu_sweeps(
      metrics_plan(road_like(160), apsp::backend_kind::automatic, apsp::dtype::int32, 2)));
}

TEST(GpuSweepPlan, CostModelFavoursTheGpuAsTheGraphGrows) {
  const auto cpu_over_gpu = [](std::int64_t n, int threads) {
    return apsp::detail::phast_cpu_seconds(n, threads) /
           apsp::detail::phast_gpu_seconds(n, threads);
  };
  EXPECT_LT(cpu_over_gpu(5000, 64), 1.0);
  EXPECT_GT(cpu_over_gpu(100000, 16), 1.0);
  EXPECT_GT(cpu_over_gpu(500000, 16), cpu_over_gpu(100000, 16));
}

// RPHAST's tables on the GPU (drivers::cuda_table), planned beside the cpu's hierarchy tables.

apsp::plan table_plan(const apsp::graph& g, apsp::backend_kind b, apsp::dtype t, int threads,
                      std::int64_t rows, std::int64_t cols) {
  apsp::solve_options o;
  o.backend = b;
  o.type = t;
  o.threads = threads;
  return apsp::make_plan(g, o, apsp::plan_request::block(rows, cols));
}

bool on_gpu_table(const apsp::plan& p) {
  return std::holds_alternative<apsp::drivers::cuda_table>(p.run);
}

TEST(GpuTablePlan, AskedForWithCudaOnARoadGraph) {
  const with_stand_in_gpu gpu;
  const apsp::plan p =
      table_plan(road_like(80), apsp::backend_kind::cuda, apsp::dtype::int32, 2, 500, 300);
  ASSERT_TRUE(on_gpu_table(p)) << apsp::to_string(p.run) << ": " << p.algorithm_reason;
  EXPECT_EQ(p.backend, apsp::backend_kind::cuda);
  EXPECT_EQ(p.algorithm, apsp::algorithm_kind::johnson);
  EXPECT_EQ(p.device, "a stand-in GPU, RPHAST sweeps");
  EXPECT_NE(p.algorithm_reason.find("requested (cuda)"), std::string::npos);
  const auto& how = std::get<apsp::drivers::cuda_table>(p.run);
  EXPECT_EQ(how.lanes, apsp::detail::gpu_sweep_default_lanes);
  EXPECT_EQ(how.threads, 2);
  EXPECT_EQ(how.device, 0);
  EXPECT_GT(p.device_bytes, std::uint64_t{300} * 256 * 4); // a batch's rows at least
  EXPECT_GT(p.host_bytes, std::uint64_t{500} * 300 * 4);   // the table at least
  EXPECT_TRUE(p.fits);
  EXPECT_FALSE(p.tiled);
  EXPECT_NE(apsp::to_string(p.run).find("cuda rphast table"), std::string::npos);
}

TEST(GpuTablePlan, AutoOnlyWhenTheCostModelSaysSo) {
  const with_stand_in_gpu gpu;
  const apsp::graph g = road_like(160); // 25,600 vertices
  // A table the cpu's hierarchy makes sooner than the GPU with its start: the device is not asked
  // whether it is there (as many questions as with the GPU ruled out by APSP_TABLE_ENGINE).
  status_calls = 0;
  const apsp::plan small =
      table_plan(g, apsp::backend_kind::automatic, apsp::dtype::int32, 2, 4000, 4000);
  const int asked_unforced = status_calls;
  EXPECT_FALSE(on_gpu_table(small)) << apsp::to_string(small.run);
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::rphast_table>(small.run) ||
              std::holds_alternative<apsp::drivers::ch_table>(small.run))
      << apsp::to_string(small.run) << ": " << small.algorithm_reason;
  {
    const apsp::detail::scoped_tuning forced([](apsp::detail::tuning& t) {
      t.table_engine = "rphast";
    });
    status_calls = 0;
    (void)table_plan(g, apsp::backend_kind::automatic, apsp::dtype::int32, 2, 4000, 4000);
    EXPECT_EQ(asked_unforced, status_calls);
  }
  // Every vertex to every vertex on one thread: the model says the GPU (its own estimates).
  const std::int64_t n = g.num_vertices();
  apsp::detail::problem_shape shape;
  shape.n = n;
  shape.m = g.num_edges();
  shape.type = apsp::dtype::int32;
  shape.threads = 1;
  const double cpu = std::min(apsp::detail::rphast_cpu_seconds(shape, n, n),
                              apsp::detail::ch_buckets_cpu_seconds(shape, n, n));
  const double on_gpu = apsp::detail::rphast_gpu_seconds(
      apsp::detail::rphast_closure_size(n, n), n, n, 1, true);
  ASSERT_LT(on_gpu, cpu);
  const apsp::plan large =
      table_plan(g, apsp::backend_kind::automatic, apsp::dtype::int32, 1, n, n);
  EXPECT_TRUE(on_gpu_table(large)) << apsp::to_string(large.run) << ": "
                                   << large.algorithm_reason;
  EXPECT_NE(large.algorithm_reason.find("auto:"), std::string::npos);
}

TEST(GpuTablePlan, NeverForOtherTypesOrTheCpu) {
  const with_stand_in_gpu gpu;
  const apsp::graph g = road_like(160);
  const std::int64_t n = g.num_vertices();
  for (const auto b : {apsp::backend_kind::automatic, apsp::backend_kind::cuda}) {
    for (const auto t : {apsp::dtype::float32, apsp::dtype::int64, apsp::dtype::float64}) {
      EXPECT_FALSE(on_gpu_table(table_plan(g, b, t, 1, n, n)))
          << apsp::to_string(b) << " " << apsp::to_string(t);
    }
  }
  EXPECT_FALSE(on_gpu_table(table_plan(g, apsp::backend_kind::cpu, apsp::dtype::int32, 1, n, n)));
  // Not road-like (too small for a hierarchy): PHAST's test says no, asked or not.
  EXPECT_FALSE(on_gpu_table(
      table_plan(road_like(40), apsp::backend_kind::cuda, apsp::dtype::int32, 2, 100, 100)));
}

TEST(GpuTablePlan, NeverWithoutADevice) {
  apsp::detail::set_cuda_backend_for_tests([] { return apsp::detail::make_cuda_backend(); });
  const bool device = apsp::detail::current_cuda_backend()->status().available;
  if (device) {
    apsp::detail::set_cuda_backend_for_tests({});
    GTEST_SKIP() << "this machine has a CUDA device";
  }
  const apsp::graph g = road_like(160);
  const std::int64_t n = g.num_vertices();
  EXPECT_FALSE(
      on_gpu_table(table_plan(g, apsp::backend_kind::automatic, apsp::dtype::int32, 1, n, n)));
  // Asked for: refused as unavailable (no plan), never the GPU's table.
  try {
    EXPECT_FALSE(
        on_gpu_table(table_plan(g, apsp::backend_kind::cuda, apsp::dtype::int32, 1, 500, 300)));
  } catch (const apsp::backend_unavailable_error&) {
  }
  apsp::detail::set_cuda_backend_for_tests({});
}

} // namespace
