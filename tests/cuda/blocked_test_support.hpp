#pragma once
// Shared by the out-of-core and multi-GPU tests: device checks, graphs with integer or
// fractional weights, and exact / within-rounding comparisons.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "apsp/apsp.hpp"
#include "common/test_graphs.hpp"

namespace apsp::cuda_test {

inline bool have_gpu() {
  for (const auto& s : apsp::list_backends()) {
    if (s.kind == apsp::backend_kind::cuda)
      return s.available;
  }
  return false;
}

#define APSP_SKIP_WITHOUT_GPU()                                                                    \
  if (!::apsp::cuda_test::have_gpu())                                                              \
  GTEST_SKIP() << "no usable CUDA device: the cuda back end is unavailable"

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
/// panels, the pivot block and three tiles, plus via buffers with paths).
inline std::uint64_t out_of_core_bytes(std::int64_t n, std::int64_t bo, std::size_t elem,
                                       bool paths) {
  const auto ldp = static_cast<std::uint64_t>((n + bo - 1) / bo * bo);
  const auto b = static_cast<std::uint64_t>(bo);
  return (2 * b * ldp + 4 * b * b) * (elem + (paths ? 4 : 0)) + (paths ? 4 * b * b : 0);
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
