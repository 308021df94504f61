#pragma once
// Shared by the out-of-core and multi-GPU tests: device checks, graphs with integer or
// fractional weights, and exact / within-rounding comparisons.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "apsp/apsp.hpp"
#include "common/test_graphs.hpp"
#include "core/tuning.hpp"
#include "gpu_skip.hpp"

namespace apsp::cuda_test {

/// Integer weights (negative ones without negative cycles when `negative`); `fractional`
/// divides every weight by 7 so float32 rounding shows.
inline apsp::graph test_graph(std::int64_t n, bool negative, std::uint64_t seed,
                              bool fractional = false) {
  apsp::testing::random_graph_spec spec;
  spec.n = n;
  spec.density = n > 1000 ? 0.01 : 0.03;
  spec.negative_edges = negative;
  spec.max_weight = 1000;
  apsp::graph g = apsp::testing::make_random_graph(spec, seed);
  if (!fractional)
    return g;
  apsp::graph f(n);
  for (std::size_t e = 0; e < g.sources().size(); ++e)
    f.add_edge(g.sources()[e], g.targets()[e], g.weights()[e] / 7.0);
  return f;
}

inline apsp::solve_options cuda_options(apsp::dtype t, bool paths) {
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cuda;
  o.type = t;
  o.paths = paths;
  return o;
}

/// Device bytes the out-of-core plan needs for outer block bo (its documented layout: two
/// panels, the pivot block and three tiles, plus via buffers with paths and the tagged slices:
/// 128 x ldp twice for the panel products, 128 x bo twice per tile slot, a flag per k slice).
inline std::uint64_t out_of_core_bytes(std::int64_t n, std::int64_t bo, std::size_t elem,
                                       bool paths) {
  const auto ldp = static_cast<std::uint64_t>((n + bo - 1) / bo * bo);
  const auto b = static_cast<std::uint64_t>(bo);
  const std::uint64_t tags =
      paths ? 4 * (128 * 2 * ldp + b / 128 + 3 * (128 * 2 * b + b / 128)) : 0;
  return (2 * b * ldp + 4 * b * b) * (elem + (paths ? 4 : 0)) + (paths ? 4 * b * b : 0) + tags;
}

/// 768 vertices in two components: 0..383 with random weights 1..20, and 384..767, a cycle
/// with weights of about 2^20 plus a few random chords, whose distances of four hops and more
/// (up to 2^28) are too large for tagged slices (kernels/min_plus_tagged.cuh), so products that
/// touch them must fall back to the rescan; an edge from the first component into the second
/// makes mixed paths too. With `negative`, the first component's weights are shifted by vertex
/// potentials (-20..40, no negative cycle), so its rounds take the signed range and the mixed
/// ones hold values outside both ranges; the cycle's weights are then about 2^19 (distances of
/// five hops and more outside the signed range), as with negative weights int32 solves refuse
/// path lengths beyond a third of infinity.
inline apsp::graph mixed_range_graph(bool negative = false) {
  constexpr std::int64_t half = 384;
  apsp::graph g(2 * half);
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<std::int64_t> vertex(0, half - 1);
  std::uniform_int_distribution<int> small(1, 20);
  const int big = negative ? 1 << 19 : 1 << 20;
  std::uniform_int_distribution<int> large(big, big + 1000);
  std::vector<int> potential(static_cast<std::size_t>(half), 0);
  if (negative) {
    std::uniform_int_distribution<int> p(0, 20);
    for (auto& x : potential)
      x = p(rng);
  }
  for (int e = 0; e < 8 * half; ++e) {
    const std::int64_t u = vertex(rng);
    const std::int64_t v = vertex(rng);
    g.add_edge(u, v,
               small(rng) + potential[static_cast<std::size_t>(u)] -
                   potential[static_cast<std::size_t>(v)]);
  }
  for (std::int64_t v = 0; v < half; ++v)
    g.add_edge(half + v, half + (v + 1) % half, large(rng));
  for (int e = 0; e < 20; ++e)
    g.add_edge(half + vertex(rng), half + vertex(rng), large(rng));
  g.add_edge(7, half + 11, 3);
  return g;
}

/// Paths run from tagged slices where the values allow it (int32, or float32 whole numbers) and
/// by rescanning where not; APSP_CUDA_TAGGED_PATHS=0 forces the rescan everywhere. Both keep the
/// first pivot reaching the minimum, so solve() must give the same distances (of type T) and
/// bit-identical path matrices both ways, with some intermediate vertices recorded. Returns the
/// tagged result.
template <class T = std::int32_t, class Solve>
apsp::result expect_tagged_matches_rescan(Solve&& solve) {
  apsp::result tagged = solve();
  const apsp::result rescan = [&] {
    const apsp::detail::scoped_tuning untagged(
        [](apsp::detail::tuning& t) { t.cuda_tagged_paths = false; });
    return solve();
  }();
  const auto& a = tagged.distances_as<T>();
  const auto& b = rescan.distances_as<T>();
  EXPECT_EQ(a.n(), b.n());
  std::int64_t mismatches = 0;
  std::int64_t via_mismatches = 0;
  std::int64_t via_set = 0;
  for (std::size_t e = 0; e < a.size() && a.size() == b.size(); ++e) {
    mismatches += a.data()[e] != b.data()[e];
    via_mismatches += tagged.via().data()[e] != rescan.via().data()[e];
    via_set += tagged.via().data()[e] != apsp::no_via;
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(via_mismatches, 0);
  EXPECT_GT(via_set, 0);
  return tagged;
}

template <class T> void expect_bit_identical(const apsp::result& got, const apsp::result& want) {
  const auto& a = got.distances_as<T>();
  const auto& b = want.distances_as<T>();
  ASSERT_EQ(a.n(), b.n());
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < a.n(); ++i) {
    for (std::int64_t j = 0; j < a.n(); ++j) {
      if (a(i, j) != b(i, j) && ++bad <= 5)
        ADD_FAILURE() << "d[" << i << "][" << j << "] = " << a(i, j) << ", want " << b(i, j);
    }
  }
  EXPECT_EQ(bad, 0);
}

/// Both results have path matrices and they agree element for element.
inline void expect_same_vias(const apsp::result& got, const apsp::result& want) {
  ASSERT_TRUE(got.has_paths());
  ASSERT_TRUE(want.has_paths());
  ASSERT_EQ(got.via().size(), want.via().size());
  std::int64_t differ = 0;
  for (std::size_t e = 0; e < got.via().size(); ++e)
    differ += got.via().data()[e] != want.via().data()[e];
  EXPECT_EQ(differ, 0);
}

/// |got - want| <= rel * max(scale, |want|): `scale` is the magnitude of the summed terms.
inline void expect_close(const apsp::result& got, const apsp::result& want, double rel,
                         double scale = 1.0) {
  ASSERT_EQ(got.n(), want.n());
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < got.n(); ++i) {
    for (std::int64_t j = 0; j < got.n(); ++j) {
      const double a = got.distance(i, j);
      const double b = want.distance(i, j);
      if (std::isinf(a) || std::isinf(b)) {
        if (a != b && ++bad <= 5)
          ADD_FAILURE() << "d[" << i << "][" << j << "] = " << a << ", want " << b;
        continue;
      }
      if (std::fabs(a - b) > rel * std::max(scale, std::fabs(b)) && ++bad <= 5)
        ADD_FAILURE() << "d[" << i << "][" << j << "] = " << a << ", want " << b;
    }
  }
  EXPECT_EQ(bad, 0);
}

} // namespace apsp::cuda_test
