// The supernodal Floyd-Warshall on one GPU (drivers::cuda_supernodal): bit for bit the cpu
// blocked solver's int32 distances on lattices whose steps span several slices and levels, with
// one-way arcs and negative weights, parts unreachable; float32 within rounding; valid paths;
// the planner's choices (the real graphs' checksums: real_data_cuda_supernodal; the oracle:
// conformance_cuda_supernodal). By rows (several devices, or out of core): the same bits
// through a forced small device and a device listed twice, and the split's invariants. Skips
// without a device (and, where the order matters, without METIS).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/sparse_graphs.hpp"
#include "common/test_graphs.hpp"
#include "core/tuning.hpp"
#include "cpu/elimination.hpp"
#include "cuda/supernodal_rows.hpp"
#include "cuda/supernodal_schedule.hpp"
#include "gpu_skip.hpp"

namespace {

using apsp::testing::lattice_spec;
using apsp::testing::make_lattice;

apsp::solve_options on_gpu(apsp::dtype t, bool paths) {
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cuda;
  o.algorithm = apsp::algorithm_kind::supernodal;
  o.type = t;
  o.paths = paths;
  return o;
}

apsp::result on_cpu(const apsp::graph& g, apsp::dtype t) {
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  o.algorithm = apsp::algorithm_kind::floyd_warshall;
  o.type = t;
  return apsp::solve(g, o);
}

/// Cells where two int32 results differ.
std::int64_t cells_differing(const apsp::result& a, const apsp::result& b) {
  const auto& x = std::get<apsp::dense_matrix<std::int32_t>>(a.distances());
  const auto& y = std::get<apsp::dense_matrix<std::int32_t>>(b.distances());
  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < x.n(); ++i)
    for (std::int64_t j = 0; j < x.n(); ++j)
      differ += x(i, j) != y(i, j);
  return differ;
}

/// Cells where a float32 result is not within rounding (1e-5 relative) of the reference's.
std::int64_t cells_beyond_rounding(const apsp::result& got, const apsp::result& want) {
  const auto& x = std::get<apsp::dense_matrix<float>>(got.distances());
  const auto& y = std::get<apsp::dense_matrix<float>>(want.distances());
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < x.n(); ++i)
    for (std::int64_t j = 0; j < x.n(); ++j) {
      const float a = x(i, j), b = y(i, j);
      bad += !(std::isinf(a) ? std::isinf(b) : std::fabs(a - b) <= 1e-5f * std::max(1.f, b));
    }
  return bad;
}

struct lattice_case {
  const char* name;
  lattice_spec spec;
};

/// Shapes whose supernodes are wider than a slice (128 pivots) and whose trees have many
/// levels; one-way lattices have no cycle, so negative weights are safe there.
const lattice_case cases[] = {
    {"2d_31x29", {31, 29, 1, 1, 1000, true, 0}},
    {"2d_one_way_negative", {30, 30, 1, -5, 40, false, 0}},
    {"3d_13", {13, 13, 13, 1, 100, true, 0}},
    {"3d_one_way_sparse", {9, 10, 11, -3, 20, false, 20}},
    {"2d_holes", {40, 25, 1, 0, 9, true, 35}},
};

TEST(CudaSupernodal, Int32BitIdenticalToCpuFloydWarshall) {
  APSP_SKIP_WITHOUT_GPU();
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto g = make_lattice(c.spec, 42);
    const auto want = on_cpu(g, apsp::dtype::int32);
    for (const bool paths : {false, true}) {
      if (paths && c.spec.lo <= 0)
        continue; // path matrices of the supernodal order need positive weights (zero cycles)
      const auto r = apsp::solve(g, on_gpu(apsp::dtype::int32, paths));
      ASSERT_TRUE(std::holds_alternative<apsp::drivers::cuda_supernodal>(r.executed_plan().run))
          << apsp::to_string(r.executed_plan().run);
      EXPECT_EQ(cells_differing(r, want), 0) << (paths ? "with paths" : "distances only");
      if (paths)
        apsp::testing::expect_paths_valid(g, r);
    }
  }
}

TEST(CudaSupernodal, FusedSlicesBitIdenticalToCpuFloydWarshall) {
  // int32 without paths fuses a step's slices into outer products of up to sn_fused_pivots:
  // a top separator of about 23 x 23 pivots (five slices: two groups), and negative weights.
  APSP_SKIP_WITHOUT_GPU();
  for (const auto& spec :
       {lattice_spec{23, 23, 23, 1, 100, true, 0}, lattice_spec{13, 13, 13, -4, 30, false, 0}}) {
    const auto g = make_lattice(spec, 11);
    const auto want = on_cpu(g, apsp::dtype::int32);
    const auto r = apsp::solve(g, on_gpu(apsp::dtype::int32, false));
    ASSERT_TRUE(std::holds_alternative<apsp::drivers::cuda_supernodal>(r.executed_plan().run));
    EXPECT_EQ(cells_differing(r, want), 0) << g.num_vertices() << " vertices";
  }
}

TEST(CudaSupernodal, Float32WithinRoundingOfCpu) {
  APSP_SKIP_WITHOUT_GPU();
  lattice_spec s{17, 16, 15, 1, 100, true, 10};
  auto g = make_lattice(s, 7);
  const auto want = on_cpu(g, apsp::dtype::float32);
  const auto r = apsp::solve(g, on_gpu(apsp::dtype::float32, true));
  EXPECT_EQ(cells_beyond_rounding(r, want), 0);
  apsp::testing::expect_paths_valid(g, r, 1e-5);
}

TEST(CudaSupernodal, NegativeCycleIsReported) {
  APSP_SKIP_WITHOUT_GPU();
  auto g = make_lattice({12, 12, 1, 1, 9, true, 0}, 3);
  g.add_edge(70, 71, -50); // with 71 -> 70 (weight <= 9): a cycle of weight < 0
  EXPECT_THROW((void)apsp::solve(g, on_gpu(apsp::dtype::int32, false)), apsp::negative_cycle_error);
}

TEST(CudaSupernodal, PlannerTakesItUnderBackendCuda) {
  APSP_SKIP_WITHOUT_GPU();
  const auto g = make_lattice({30, 30, 30, 1, 100, true, 0}, 5);
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cuda;
  const auto p = apsp::make_plan(g, o);
  EXPECT_EQ(p.algorithm, apsp::algorithm_kind::supernodal) << p.algorithm_reason;
  EXPECT_TRUE(std::holds_alternative<apsp::drivers::cuda_supernodal>(p.run)) << p.algorithm_reason;
  EXPECT_NE(p.algorithm_reason.find("supernodal FW on cuda"), std::string::npos)
      << p.algorithm_reason;
  // Checkpoints are Floyd-Warshall's.
  auto c = on_gpu(apsp::dtype::int32, false);
  c.checkpoint_dir = "unused_checkpoint_dir";
  EXPECT_THROW((void)apsp::make_plan(g, c), apsp::invalid_argument_error);
}

/// The result of `o` on `g` with the device capped at `cap` bytes (the by-rows plan taken),
/// and, when `twice`, device 0 listed twice.
apsp::result by_rows(const apsp::graph& g, apsp::solve_options o, std::uint64_t cap, bool twice) {
  const apsp::detail::scoped_tuning forced([cap, twice](apsp::detail::tuning& t) {
    if (cap != 0)
      t.cuda_force_out_of_core_bytes = cap;
    t.cuda_force_multi_gpu = twice;
  });
  if (twice)
    o.devices = {0, 0};
  return apsp::solve(g, o);
}

TEST(CudaSupernodalByRows, Int32BitIdenticalToCpuFloydWarshall) {
  APSP_SKIP_WITHOUT_GPU();
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto g = make_lattice(c.spec, 42);
    const auto want = on_cpu(g, apsp::dtype::int32);
    const auto n = static_cast<std::uint64_t>(g.num_vertices());
    for (const bool twice : {false, true}) {
      for (const bool paths : {false, true}) {
        if (paths && c.spec.lo <= 0)
          continue;
        // Two thirds of the matrix (with paths: of both): by rows, in several groups.
        const std::uint64_t cap = twice ? 0 : n * n * (paths ? 8 : 4) * 2 / 3;
        const auto r = by_rows(g, on_gpu(apsp::dtype::int32, paths), cap, twice);
        const auto& p = r.executed_plan();
        const auto* how = std::get_if<apsp::drivers::cuda_supernodal>(&p.run);
        ASSERT_NE(how, nullptr) << apsp::to_string(p.run);
        EXPECT_EQ(how->devices.size(), twice ? 2u : 1u) << p.device;
        EXPECT_NE(p.device.find("by rows"), std::string::npos) << p.device;
        EXPECT_EQ(cells_differing(r, want), 0)
            << (paths ? "with paths" : "distances only") << ", " << p.device;
        if (paths)
          apsp::testing::expect_paths_valid(g, r);
      }
    }
  }
}

TEST(CudaSupernodalByRows, Float32WithinRoundingOfCpu) {
  APSP_SKIP_WITHOUT_GPU();
  auto g = make_lattice({17, 16, 15, 1, 100, true, 10}, 7);
  const auto n = static_cast<std::uint64_t>(g.num_vertices());
  const auto want = on_cpu(g, apsp::dtype::float32);
  const auto r = by_rows(g, on_gpu(apsp::dtype::float32, true), n * n * 8 * 2 / 3, false);
  EXPECT_EQ(cells_beyond_rounding(r, want), 0);
  apsp::testing::expect_paths_valid(g, r, 1e-5);
}

TEST(CudaSupernodalByRows, NegativeCycleIsReported) {
  APSP_SKIP_WITHOUT_GPU();
  auto g = make_lattice({12, 12, 1, 1, 9, true, 0}, 3);
  g.add_edge(70, 71, -50);
  EXPECT_THROW((void)by_rows(g, on_gpu(apsp::dtype::int32, false), 0, true),
               apsp::negative_cycle_error);
}

TEST(CudaSupernodalByRows, SplitCoversEveryRowOnceAndStepsStayInTheirRows) {
  // Host code only: the split's invariants (supernodal_rows.hpp) for 1 to 3 devices.
  const auto g = make_lattice({20, 20, 20, 1, 100, true, 0}, 11);
  const auto n = g.num_vertices();
  const auto ep = apsp::cpu::plan_elimination(n, g.sources(), g.targets(), std::int64_t{1} << 40);
  for (const int devices : {1, 2, 3}) {
    SCOPED_TRACE(devices);
    const std::uint64_t usable = static_cast<std::uint64_t>(n) * n * 4 / (devices == 1 ? 2 : 1);
    const auto split = apsp::cuda::split_rows(ep, devices, usable, 4, false);
    ASSERT_FALSE(split.groups.empty());
    if (devices == 1)
      EXPECT_GT(split.groups.size(), 1u);
    std::vector<int> owner(static_cast<std::size_t>(n), -1); // -2: the strip
    for (const std::int32_t l : split.strip)
      owner[static_cast<std::size_t>(l)] = -2;
    std::vector<int> per_device(static_cast<std::size_t>(devices), 0);
    for (std::size_t gr = 0; gr < split.groups.size(); ++gr) {
      ASSERT_GE(split.groups[gr].device, 0);
      ASSERT_LT(split.groups[gr].device, devices);
      ++per_device[static_cast<std::size_t>(split.groups[gr].device)];
      EXPECT_LE(static_cast<std::int64_t>(split.groups[gr].labels.size()), split.block_rows);
      for (const std::int32_t l : split.groups[gr].labels) {
        ASSERT_EQ(owner[static_cast<std::size_t>(l)], -1) << "label " << l << " held twice";
        owner[static_cast<std::size_t>(l)] = static_cast<int>(gr);
      }
    }
    EXPECT_EQ(std::count(owner.begin(), owner.end(), -1), 0) << "rows nobody holds";
    for (const int k : per_device)
      EXPECT_GE(k, 1) << "a device without rows";
    // A group's steps touch only its rows and the strip; the top steps pivot the strip.
    for (std::size_t gr = 0; gr < split.groups.size(); ++gr) {
      for (const std::int64_t s : split.groups[gr].steps) {
        const auto& st = ep.steps[static_cast<std::size_t>(s)];
        for (std::int32_t l = st.first; l <= st.top(); ++l)
          EXPECT_EQ(owner[static_cast<std::size_t>(l)], static_cast<int>(gr));
        for (std::int64_t a = st.ancestors_begin; a < st.ancestors_end; ++a) {
          const int o = owner[static_cast<std::size_t>(ep.ancestors[static_cast<std::size_t>(a)])];
          EXPECT_TRUE(o == static_cast<int>(gr) || o == -2);
        }
      }
    }
    std::size_t scheduled = 0;
    for (const auto& gr : split.groups)
      scheduled += gr.steps.size();
    EXPECT_EQ(scheduled + split.top_steps.size(), ep.steps.size());
    for (const std::int64_t s : split.top_steps)
      for (const std::int32_t m : ep.steps[static_cast<std::size_t>(s)].members)
        EXPECT_EQ(owner[static_cast<std::size_t>(m)], -2);
  }
}

TEST(CudaSupernodalSchedule, PathLaunchesShareNoAncestorAndCoverEverySliceOnce) {
  // Host code only: with paths (disjoint_ancestors) the tasks of a launch share no ancestor;
  // with or without, every slice of every step is scheduled once, levels in order.
  const auto g = make_lattice({40, 40, 1, 1, 100, true, 0}, 13);
  const auto ep = apsp::cpu::plan_elimination(g.num_vertices(), g.sources(), g.targets(),
                                              std::int64_t{1} << 40);
  const auto heights = apsp::cuda::step_heights(ep);
  for (const bool disjoint : {false, true}) {
    SCOPED_TRACE(disjoint);
    const auto sched = apsp::cuda::schedule_steps(ep, heights, apsp::cuda::all_steps(ep),
                                                  {.disjoint_ancestors = disjoint});
    std::int64_t pivots = 0;
    std::size_t launches_with_several = 0;
    for (const auto& l : sched.launches) {
      launches_with_several += l.count > 1;
      std::vector<std::int32_t> seen;
      for (int k = 0; k < l.count; ++k) {
        const auto& t = sched.tasks[l.first + static_cast<std::size_t>(k)];
        pivots += t.np;
        if (!disjoint)
          continue;
        for (std::int32_t a = 0; a < t.na; ++a)
          seen.push_back(ep.ancestors[static_cast<std::size_t>(t.ancestors + a)]);
      }
      std::sort(seen.begin(), seen.end());
      EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end())
          << "two tasks of a path launch share an ancestor";
    }
    EXPECT_EQ(pivots, g.num_vertices()) << "every pivot once";
    EXPECT_GT(launches_with_several, 0u) << "steps batched into launches";
    EXPECT_EQ(sched.level_end.size(),
              static_cast<std::size_t>(*std::max_element(heights.begin(), heights.end()) + 1));
  }
}

TEST(CudaSupernodalSchedule, FusedSlicesCloseEveryPivotOnceAndTakeItInOneOuterProduct) {
  // Host code only: with fuse_slices every pivot is closed once (slice by slice) and enters
  // exactly one full outer product, of at most sn_fused_pivots pivots; the restricted products
  // between a group's slices cover only that group's later pivots.
  const auto g = make_lattice({23, 23, 23, 1, 100, true, 0}, 5);
  const auto ep = apsp::cpu::plan_elimination(g.num_vertices(), g.sources(), g.targets(),
                                              std::int64_t{1} << 40);
  const auto sched = apsp::cuda::schedule_steps(ep, apsp::cuda::step_heights(ep),
                                                apsp::cuda::all_steps(ep), {.fuse_slices = true});
  std::vector<int> closed(static_cast<std::size_t>(g.num_vertices()), 0);
  std::vector<int> outer(closed.size(), 0);
  int widest = 0;
  std::size_t restricted = 0;
  for (const auto& l : sched.launches) {
    for (int k = 0; k < l.count; ++k) {
      const auto& t = sched.tasks[l.first + static_cast<std::size_t>(k)];
      ASSERT_LE(t.np, apsp::cuda::sn_fused_pivots);
      const auto* p = sched.pivots.data() + t.pivots;
      if (!l.outer_only) {
        ASSERT_LE(t.np, apsp::cuda::sn_slice_pivots);
        for (int q = 0; q < t.np; ++q) {
          ++closed[static_cast<std::size_t>(p[q])];
          if (l.whole || !l.skip_outer) // a whole step, or a slice with its own outer product
            ++outer[static_cast<std::size_t>(p[q])];
        }
        continue;
      }
      if (t.row_list >= 0 || t.col_list >= 0) {
        ++restricted;
        // The lines come after this slice's pivots in the same step.
        const std::int64_t list = t.row_list >= 0 ? t.row_list : t.col_list;
        const std::int32_t count = t.row_list >= 0 ? t.nrows : t.ncols;
        for (std::int32_t q = 0; q < count; ++q)
          EXPECT_EQ(std::count(p, p + t.np, sched.row_lists[static_cast<std::size_t>(list + q)]),
                    0);
        continue;
      }
      widest = std::max(widest, t.np);
      for (int q = 0; q < t.np; ++q)
        ++outer[static_cast<std::size_t>(p[q])];
    }
  }
  EXPECT_EQ(std::count(closed.begin(), closed.end(), 1), g.num_vertices()) << "closed once";
  EXPECT_EQ(std::count(outer.begin(), outer.end(), 1), g.num_vertices()) << "one outer product";
  EXPECT_GT(widest, apsp::cuda::sn_slice_pivots) << "slices fused";
  EXPECT_GT(ep.widest, apsp::cuda::sn_fused_pivots) << "the lattice needs two groups";
  EXPECT_GT(restricted, 0u);
}

} // namespace
