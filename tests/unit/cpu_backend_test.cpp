// The cpu back end against the reference back end, bit for bit: every weight type, with and
// without paths, negative weights (clamp mode), sizes around tile edges, every ISA this machine
// has (forced through APSP_CPU_ISA), and 1-3 threads.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/test_graphs.hpp"
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "core/tuning.hpp"
#include "cpu/cpu_isa.hpp"
#include "cpu/tile_ops.hpp"

namespace {

using apsp::any_matrix;
using apsp::dtype;
using apsp::via_matrix;
namespace cpu = apsp::detail::cpu;

/// Forces the tuning record's cpu_isa (APSP_CPU_ISA) for one scope.
struct scoped_isa : apsp::detail::scoped_tuning {
  explicit scoped_isa(const char* name)
      : scoped_tuning([name](apsp::detail::tuning& t) { t.cpu_isa = name; }) {}
};

std::vector<cpu::isa> supported_isas() {
  std::vector<cpu::isa> out;
  for (auto i : {cpu::isa::scalar, cpu::isa::avx2, cpu::isa::avx512}) {
    if (cpu::isa_supported(i))
      out.push_back(i);
  }
  return out;
}

struct solved {
  any_matrix d;
  std::optional<via_matrix> via;
};

/// Runs one back end directly (no post-checks), as solve() would.
solved run_backend(apsp::detail::backend& b, const apsp::graph& g, dtype t, bool paths,
                   std::int64_t block, int threads = 0) {
  apsp::solve_options o;
  o.type = t;
  o.paths = paths;
  o.block = block;
  o.threads = threads;
  const std::int64_t n = g.num_vertices();
  solved s{apsp::visit_dtype(
               t, [n](auto zero) -> any_matrix { return apsp::dense_matrix<decltype(zero)>(n); }),
           std::nullopt};
  apsp::detail::fill_initial(g, s.d);
  if (paths) {
    s.via.emplace(n);
    // Garbage, so a back end that skips an element is caught.
    for (auto& v : s.via->values())
      v = 12345;
  }
  const auto facts = apsp::detail::analyze_weights(g, o.type, false);
  const apsp::plan p = b.make_plan(n, o);
  apsp::detail::run_context ctx(o, n, facts.has_negative);
  b.run(s.d, s.via ? &*s.via : nullptr, p, ctx);
  return s;
}

/// Bitwise comparison, reporting the first differing element.
template <class T>
void expect_identical(const apsp::dense_matrix<T>& want, const apsp::dense_matrix<T>& got,
                      const char* what) {
  ASSERT_EQ(want.n(), got.n());
  for (std::int64_t i = 0; i < want.n(); ++i) {
    if (std::memcmp(want.row(i), got.row(i), static_cast<std::size_t>(want.n()) * sizeof(T)) == 0) {
      continue;
    }
    for (std::int64_t j = 0; j < want.n(); ++j) {
      if (std::memcmp(&want(i, j), &got(i, j), sizeof(T)) != 0) {
        FAIL() << what << " differ first at (" << i << ", " << j << "): reference " << want(i, j)
               << ", cpu " << got(i, j);
      }
    }
  }
}

void expect_same_solution(const solved& want, const solved& got) {
  ASSERT_EQ(want.d.index(), got.d.index());
  std::visit(
      [&](const auto& w) {
        using M = std::decay_t<decltype(w)>;
        expect_identical(w, std::get<M>(got.d), "distances");
      },
      want.d);
  ASSERT_EQ(want.via.has_value(), got.via.has_value());
  if (want.via)
    expect_identical(*want.via, *got.via, "via matrices");
}

struct sweep_case {
  std::int64_t n;
  std::int64_t block;
};

/// n = 0, 1, B-1, B, B+1, kB+r for a small forced block, plus blocks that are and are not
/// multiples of the kernels' strip widths.
std::vector<sweep_case> edge_cases() {
  return {{0, 16},  {1, 16},  {15, 16},  {16, 16}, {17, 16},  {53, 16},
          {64, 64}, {65, 64}, {130, 64}, {67, 20}, {100, 33}, {150, 0}};
}

/// tile_ops::transpose (and transpose_via) of every ISA against an element-by-element copy, on
/// shapes with and without whole blocks (16 x 16 for AVX-512, 8 x 8 for AVX2), between strided
/// buffers whose other elements must stay untouched.
template <class T> void check_transposes(cpu::isa isa) {
  const auto ops = cpu::select_tile_ops<T>(isa, /*negative=*/false, /*paths=*/true);
  const std::pair<int, int> shapes[] = {{1, 1},   {1, 37},  {16, 16}, {17, 16}, {32, 48},
                                        {96, 96}, {40, 96}, {96, 40}, {53, 29}, {8, 24}};
  for (const auto& [rows, cols] : shapes) {
    SCOPED_TRACE("isa=" + std::string(cpu::to_string(isa)) + " rows=" + std::to_string(rows) +
                 " cols=" + std::to_string(cols) + " size=" + std::to_string(sizeof(T)));
    const std::ptrdiff_t lds = cols + 5;
    const std::ptrdiff_t ldd = rows + 11;
    std::vector<T> src(static_cast<std::size_t>(rows * lds));
    std::vector<std::int32_t> vsrc(src.size());
    for (std::size_t e = 0; e < src.size(); ++e) {
      src[e] = static_cast<T>(e * 7 + 3);
      vsrc[e] = static_cast<std::int32_t>(e * 13 + 1);
    }
    std::vector<T> dst(static_cast<std::size_t>(cols * ldd), T(-1));
    std::vector<std::int32_t> vdst(dst.size(), -1);
    ops.transpose(src.data(), lds, dst.data(), ldd, rows, cols);
    ops.transpose_via(vsrc.data(), lds, vdst.data(), ldd, rows, cols);
    for (int x = 0; x < cols; ++x) {
      for (std::ptrdiff_t i = 0; i < ldd; ++i) {
        const auto at = static_cast<std::size_t>(x * ldd + i);
        const bool inside = i < rows;
        ASSERT_EQ(dst[at], inside ? src[static_cast<std::size_t>(i * lds + x)] : T(-1))
            << "x=" << x << " i=" << i;
        ASSERT_EQ(vdst[at], inside ? vsrc[static_cast<std::size_t>(i * lds + x)] : -1)
            << "x=" << x << " i=" << i;
      }
    }
  }
}

TEST(CpuTileOps, TransposesMatchElementByElementCopies) {
  for (auto isa : supported_isas()) {
    check_transposes<std::int32_t>(isa);
    check_transposes<float>(isa);
    check_transposes<std::int64_t>(isa);
    check_transposes<double>(isa);
  }
}

/// tile_ops::product of every ISA against the plain triple loop in pivot order (via = k0 + k on a
/// strict improvement), with and without the next operands to fetch (tile_ops::product's
/// next_a / next_b, read only as cache hints): same results, on whole and partial micro-tiles
/// and pivot counts past one L1 chunk.
template <class T> void check_products(cpu::isa isa) {
  struct shape {
    int rows, cols, kb;
  };
  const shape shapes[] = {{96, 96, 96}, {40, 96, 96},    {96, 40, 40}, {13, 29, 7},
                          {1, 1, 1},    {200, 160, 150}, {64, 64, 300}};
  std::uint64_t state = 12345;
  const auto next_value = [&state](int most) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<T>((state >> 33) % static_cast<std::uint64_t>(most));
  };
  for (const bool paths : {false, true}) {
    const auto ops = cpu::select_tile_ops<T>(isa, /*negative=*/false, paths);
    for (const auto& [rows, cols, kb] : shapes) {
      SCOPED_TRACE("isa=" + std::string(cpu::to_string(isa)) + " rows=" + std::to_string(rows) +
                   " cols=" + std::to_string(cols) + " kb=" + std::to_string(kb) +
                   " paths=" + std::to_string(paths) + " size=" + std::to_string(sizeof(T)));
      const std::ptrdiff_t ld = (std::max(rows, cols) + 63) / 64 * 64 + 16;
      const std::ptrdiff_t ldc = cols + 3;
      const auto operand = [&] {
        std::vector<T> v(static_cast<std::size_t>(kb * ld + 64));
        for (auto& x : v)
          x = next_value(1000);
        return v;
      };
      const std::vector<T> a = operand();
      const std::vector<T> b = operand();
      const std::vector<T> next_a = operand();
      const std::vector<T> next_b = operand();
      std::vector<T> c0(static_cast<std::size_t>(rows * ldc));
      for (auto& x : c0)
        x = next_value(1500);
      const std::vector<std::int32_t> v0(c0.size(), apsp::no_via);
      const std::int32_t k0 = 500;
      std::vector<T> want = c0;
      std::vector<std::int32_t> want_via = v0;
      for (int k = 0; k < kb; ++k) {
        for (int i = 0; i < rows; ++i) {
          for (int j = 0; j < cols; ++j) {
            const T sum =
                a[static_cast<std::size_t>(k * ld + i)] + b[static_cast<std::size_t>(k * ld + j)];
            const auto at = static_cast<std::size_t>(i * ldc + j);
            if (sum < want[at]) {
              want[at] = sum;
              want_via[at] = k0 + k;
            }
          }
        }
      }
      for (int hints = 0; hints < 3; ++hints) {
        std::vector<T> c = c0;
        std::vector<std::int32_t> v = v0;
        const T* na = hints == 0 ? nullptr : next_a.data();
        const T* nb = hints == 2 ? nullptr : next_b.data();
        if (hints == 0)
          nb = nullptr;
        ops.product(a.data(), b.data(), ld, kb, c.data(), paths ? v.data() : nullptr, ldc, rows,
                    cols, k0, na, nb);
        ASSERT_EQ(c, want) << "hints " << hints;
        if (paths)
          ASSERT_EQ(v, want_via) << "hints " << hints;
      }
    }
  }
}

TEST(CpuTileOps, ProductsMatchTheTripleLoopWithAndWithoutNextOperands) {
  for (auto isa : supported_isas()) {
    check_products<std::int32_t>(isa);
    check_products<float>(isa);
    check_products<std::int64_t>(isa);
    check_products<double>(isa);
  }
}

TEST(CpuBackend, MatchesReferenceBitForBit) {
  auto reference = apsp::detail::make_reference_backend();
  auto fast = apsp::detail::make_cpu_backend();
  std::uint64_t seed = 1000;
  for (auto isa : supported_isas()) {
    scoped_isa force(std::string(cpu::to_string(isa)).c_str());
    for (const auto& sc : edge_cases()) {
      for (bool negative : {false, true}) {
        apsp::testing::random_graph_spec spec;
        spec.n = sc.n;
        spec.density = 0.15;
        spec.negative_edges = negative;
        const auto g = apsp::testing::make_random_graph(spec, ++seed);
        for (dtype t : {dtype::int32, dtype::float32, dtype::int64, dtype::float64}) {
          for (bool paths : {false, true}) {
            SCOPED_TRACE("isa=" + std::string(cpu::to_string(isa)) + " n=" + std::to_string(sc.n) +
                         " block=" + std::to_string(sc.block) + " type=" +
                         std::string(apsp::to_string(t)) + " paths=" + std::to_string(paths) +
                         " negative=" + std::to_string(negative) + " seed=" + std::to_string(seed));
            const auto want = run_backend(*reference, g, t, paths, 0);
            const auto got = run_backend(*fast, g, t, paths, sc.block);
            expect_same_solution(want, got);
            if (HasFatalFailure())
              return;
          }
        }
      }
    }
  }
}

TEST(CpuBackend, NonIntegerFloatWeightsAreBitIdentical) {
  auto reference = apsp::detail::make_reference_backend();
  auto fast = apsp::detail::make_cpu_backend();
  for (auto isa : supported_isas()) {
    scoped_isa force(std::string(cpu::to_string(isa)).c_str());
    const std::uint64_t seed = 77;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> w(0.001, 10.0);
    apsp::graph g(90);
    for (int e = 0; e < 1500; ++e) {
      g.add_edge(static_cast<std::int64_t>(rng() % 90), static_cast<std::int64_t>(rng() % 90),
                 w(rng));
    }
    for (dtype t : {dtype::float32, dtype::float64}) {
      SCOPED_TRACE("isa=" + std::string(cpu::to_string(isa)) +
                   " type=" + std::string(apsp::to_string(t)) + " seed=" + std::to_string(seed));
      expect_same_solution(run_backend(*reference, g, t, true, 0),
                           run_backend(*fast, g, t, true, 24));
    }
  }
}

TEST(CpuBackend, ThreadCountDoesNotChangeTheResult) {
  auto fast = apsp::detail::make_cpu_backend();
  apsp::testing::random_graph_spec spec;
  spec.n = 211;
  spec.negative_edges = true;
  const std::uint64_t seed = 4242;
  const auto g = apsp::testing::make_random_graph(spec, seed);
  SCOPED_TRACE("seed=" + std::to_string(seed));
  const auto one = run_backend(*fast, g, dtype::int32, true, 32, 1);
  for (int threads : {2, 3}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    expect_same_solution(one, run_backend(*fast, g, dtype::int32, true, 32, threads));
  }
}

/// With look-ahead in one process, round r's tiles of row and column r + 1 are handed out one
/// at a time and counted, and thread 0 closes round r + 1's pivot tile -- one of them -- only
/// when the count is complete. Many small tiles and more threads than cores give that
/// hand-off every chance to go wrong.
TEST(CpuBackend, ManyThreadsOnSmallTilesMatchOneThread) {
  auto fast = apsp::detail::make_cpu_backend();
  apsp::testing::random_graph_spec spec;
  spec.n = 600;
  const std::uint64_t seed = 777;
  const auto g = apsp::testing::make_random_graph(spec, seed);
  SCOPED_TRACE("seed=" + std::to_string(seed));
  const auto one = run_backend(*fast, g, dtype::int32, true, 16, 1);
  for (int threads : {7, 16, 16, 16, 16, 16, 16, 16, 33, 33}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    expect_same_solution(one, run_backend(*fast, g, dtype::int32, true, 16, threads));
  }
}

/// A negative cycle in clamp mode: sums stop at -infinity instead of wrapping around, the cycle's
/// vertices get negative diagonals, and solve() reports the cycle.
TEST(CpuBackend, NegativeCycleClampsInsteadOfOverflowing) {
  auto fast = apsp::detail::make_cpu_backend();
  for (auto isa : supported_isas()) {
    scoped_isa force(std::string(cpu::to_string(isa)).c_str());
    SCOPED_TRACE("isa=" + std::string(cpu::to_string(isa)));
    // A 3-cycle of weight -3 among 70 vertices, all reachable from it, repeated 70 times by
    // Floyd-Warshall: unclamped, d would pass -2^31 many times over.
    apsp::graph g(70);
    for (std::int64_t v = 0; v + 1 < 70; ++v)
      g.add_edge(v, v + 1, 5);
    g.add_edge(10, 11, -1000000);
    g.add_edge(11, 12, 1);
    g.add_edge(12, 10, 999997);
    for (dtype t : {dtype::int32, dtype::int64}) {
      for (bool paths : {false, true}) {
        const auto s = run_backend(*fast, g, t, paths, 16);
        std::visit(
            [&](const auto& m) {
              using T = typename std::decay_t<decltype(m)>::value_type;
              const T lo = -apsp::weight_traits<T>::infinity;
              const T hi = apsp::weight_traits<T>::infinity;
              for (std::int64_t v : {10, 11, 12})
                EXPECT_LT(m(v, v), T{0}) << "vertex " << v;
              for (std::int64_t i = 0; i < m.n(); ++i) {
                for (std::int64_t j = 0; j < m.n(); ++j) {
                  ASSERT_GE(m(i, j), lo) << "(" << i << ", " << j << ") wrapped";
                  ASSERT_LE(m(i, j), hi) << "(" << i << ", " << j << ")";
                }
              }
            },
            s.d);
        apsp::solve_options o;
        o.backend = apsp::backend_kind::cpu;
        o.type = t;
        o.paths = paths;
        o.block = 16;
        EXPECT_THROW((void)apsp::solve(g, o), apsp::negative_cycle_error);
      }
    }
  }
}

TEST(CpuBackend, ReportsProgressEveryRoundAndCancels) {
  apsp::testing::random_graph_spec spec;
  spec.n = 100;
  const auto g = apsp::testing::make_random_graph(spec, 9);
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  o.block = 16;
  o.paths = true;
  std::vector<std::int64_t> rounds;
  o.progress = [&](const apsp::progress_info& p) {
    rounds.push_back(p.rounds_done);
    EXPECT_EQ(p.rounds_total, 7);
    return true;
  };
  const auto r = apsp::solve(g, o);
  EXPECT_EQ(r.executed_plan().rounds, 7);
  ASSERT_GE(rounds.size(), 7u);
  for (std::int64_t k = 0; k < 7; ++k)
    EXPECT_EQ(rounds[static_cast<std::size_t>(k)], k + 1);

  int calls = 0;
  o.progress = [&](const apsp::progress_info&) { return ++calls < 3; };
  EXPECT_THROW((void)apsp::solve(g, o), apsp::cancelled_error);
  EXPECT_EQ(calls, 3);
}

TEST(CpuBackend, PlanReportsTilesIsaAndMemory) {
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cpu;
  o.block = 64;
  o.threads = 2;
  o.paths = true;
  const auto p = apsp::make_plan(1000, o);
  EXPECT_EQ(p.backend, apsp::backend_kind::cpu);
  EXPECT_EQ(p.block, 64);
  EXPECT_EQ(p.rounds, 16);
  EXPECT_TRUE(p.fits);
  // The two 4 MB matrices, plus two sets of pivot snapshots (2 threads look ahead): 2 x 32
  // tiles x 64 rows x an 80-element padded stride x 4 bytes = 1.31 MB, and 2 scratch tiles.
  EXPECT_GE(p.host_bytes, 1000u * 1000u * 8u + 1310720u);
  EXPECT_LT(p.host_bytes, 1000u * 1000u * 8u + 1500000u);
  EXPECT_NE(p.device.find("2 threads"), std::string::npos) << p.device;
  EXPECT_NE(p.device.find(cpu::to_string(cpu::selected_isa())), std::string::npos) << p.device;

  o.block = 0;
  const auto chosen = apsp::make_plan(4000, o);
  EXPECT_GT(chosen.block, 0);
  EXPECT_EQ(chosen.rounds, (4000 + chosen.block - 1) / chosen.block);

  const auto huge = apsp::make_plan(std::int64_t{1} << 30, o); // 4 EiB of distances
  EXPECT_FALSE(huge.fits);
  EXPECT_NE(huge.reason.find("host memory"), std::string::npos) << huge.reason;

  o.block = -1;
  EXPECT_THROW((void)apsp::make_plan(10, o), apsp::invalid_argument_error);
}

TEST(CpuBackend, IsaOverrideIsCheckedAndReported) {
  {
    scoped_isa force("scalar");
    apsp::solve_options o;
    o.backend = apsp::backend_kind::cpu;
    EXPECT_NE(apsp::make_plan(10, o).device.find("scalar"), std::string::npos);
  }
  {
    scoped_isa force("sse9");
    apsp::solve_options o;
    o.backend = apsp::backend_kind::cpu;
    EXPECT_THROW((void)apsp::make_plan(10, o), apsp::invalid_argument_error);
  }
  if (!cpu::isa_supported(cpu::isa::avx512)) {
    scoped_isa force("avx512");
    apsp::solve_options o;
    o.backend = apsp::backend_kind::cpu;
    EXPECT_THROW((void)apsp::make_plan(10, o), apsp::backend_unavailable_error);
  }
}

// A cancel saves a checkpoint; the resumed solve gives the bytes of an uninterrupted one, the
// path matrix included, also when the cancelled round ran ahead (look-ahead, two threads: the
// next round's pivot and panels were in the tiles already, so the stop is taken one round later
// where nothing runs ahead). Only the cancel saves here (no periodic checkpoints).
TEST(CpuCheckpoint, CancelAfterALookAheadRoundResumesByteIdentical) {
  for (const bool negative : {false, true}) {
    apsp::testing::random_graph_spec spec;
    spec.n = 200;
    spec.density = 0.06;
    spec.negative_edges = negative;
    const apsp::graph g = apsp::testing::make_random_graph(spec, negative ? 61 : 62);
    const auto dir = std::filesystem::temp_directory_path() /
                     ("apsp_cpu_checkpoint_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    apsp::solve_options o;
    o.backend = apsp::backend_kind::cpu;
    o.algorithm = apsp::algorithm_kind::floyd_warshall;
    o.type = dtype::int32;
    o.paths = true;
    o.block = 32;
    o.threads = 2;
    const apsp::result once = apsp::solve(g, o);
    apsp::solve_options cancelled = o;
    cancelled.checkpoint_dir = dir;
    cancelled.checkpoint_every_seconds = 3600;
    int calls = 0;
    cancelled.progress = [&](const apsp::progress_info&) { return ++calls < 3; };
    EXPECT_THROW((void)apsp::solve(g, cancelled), apsp::cancelled_error);
    EXPECT_EQ(calls, 3); // no progress call once the cancel is known
    ASSERT_TRUE(std::filesystem::exists(dir / "manifest"));
    apsp::solve_options resume = o;
    resume.resume_dir = dir;
    const apsp::result resumed = apsp::solve(g, resume);
    std::filesystem::remove_all(dir);
    const auto& a = std::get<apsp::dense_matrix<std::int32_t>>(resumed.distances());
    const auto& b = std::get<apsp::dense_matrix<std::int32_t>>(once.distances());
    EXPECT_TRUE(std::equal(a.data(), a.data() + a.size(), b.data())) << negative;
    EXPECT_TRUE(std::equal(resumed.via().data(), resumed.via().data() + resumed.via().size(),
                           once.via().data()))
        << negative;
  }
}

} // namespace
