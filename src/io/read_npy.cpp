// .npy graphs: a square matrix of weights; "no edge" is +inf/NaN for floats and >= 2^30-1 for
// integers; zero diagonal entries are dropped, other diagonal entries are self-loops.

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "io/diagnostics.hpp"
#include "io/limits.hpp"
#include "io/npy_header.hpp"
#include "io/readers.hpp"

namespace apsp::io::detail {
namespace {

template <class T> T load(const char* at) noexcept {
  T v;
  std::memcpy(&v, at, sizeof v);
  return v;
}

// kind: 0 = no edge, 1 = edge, 2 = invalid value.
template <class T> int classify(T v, bool diagonal) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(v) || v == std::numeric_limits<T>::infinity())
      return 0;
    if (!is_valid_weight(static_cast<double>(v)))
      return 2;
  } else {
    if (v >= course_infinity)
      return 0;
    // Compared as integers: as a double, -(2^53 + 1) would round to -2^53 and pass (found by
    // fuzz_npy's exactness check).
    if (static_cast<std::int64_t>(v) < -static_cast<std::int64_t>(max_abs_weight))
      return 2;
  }
  return (diagonal && v == 0) ? 0 : 1;
}

template <class T>
graph_file to_graph(const std::filesystem::path& p, std::string_view bytes, const npy_header& h) {
  const std::int64_t n = h.rows;
  const char* data = bytes.data() + h.data_offset;
  // Element (i, j) of the logical matrix; Fortran order stores columns contiguously.
  const auto at = [&](std::int64_t i, std::int64_t j) {
    const std::int64_t k = h.fortran_order ? j * n + i : i * n + j;
    return data + static_cast<std::size_t>(k) * sizeof(T);
  };
  std::vector<std::int64_t> row_edges(static_cast<std::size_t>(n) + 1, 0);
  std::int64_t first_bad = n * n;
#pragma omp parallel for schedule(dynamic, 16) reduction(min : first_bad)
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t count = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      const int kind = classify(load<T>(at(i, j)), i == j);
      count += kind == 1;
      if (kind == 2) {
        const std::int64_t k = h.fortran_order ? j * n + i : i * n + j;
        first_bad = k < first_bad ? k : first_bad;
      }
    }
    row_edges[static_cast<std::size_t>(i) + 1] = count;
  }
  if (first_bad < n * n) {
    const std::int64_t i = h.fortran_order ? first_bad % n : first_bad / n;
    const std::int64_t j = h.fortran_order ? first_bad / n : first_bad % n;
    fail_byte(p, static_cast<std::int64_t>(h.data_offset) + first_bad * std::int64_t{sizeof(T)},
              "entry (" + std::to_string(i) + ", " + std::to_string(j) +
                  ") is not a usable weight (-inf, or |w| > 2^53)");
  }
  for (std::size_t i = 1; i < row_edges.size(); ++i)
    row_edges[i] += row_edges[i - 1];
  const auto m = static_cast<std::size_t>(row_edges.back());
  std::vector<std::int32_t> src(m);
  std::vector<std::int32_t> dst(m);
  std::vector<double> weight(m);
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t i = 0; i < n; ++i) {
    auto e = static_cast<std::size_t>(row_edges[static_cast<std::size_t>(i)]);
    for (std::int64_t j = 0; j < n; ++j) {
      const T v = load<T>(at(i, j));
      if (classify(v, i == j) != 1)
        continue;
      src[e] = static_cast<std::int32_t>(i);
      dst[e] = static_cast<std::int32_t>(j);
      weight[e] = static_cast<double>(v);
      ++e;
    }
  }
  graph_file out{graph(n), vertex_labels::numeric(n, 0), format::npy, {}};
  out.g.assign(std::move(src), std::move(dst), std::move(weight));
  return out;
}

} // namespace

graph_file read_npy_graph(const std::filesystem::path& p, std::string_view bytes) {
  const npy_header h = parse_npy_header(bytes, bytes.size(), p);
  return visit_dtype(h.type, [&](auto t) { return to_graph<decltype(t)>(p, bytes, h); });
}

} // namespace apsp::io::detail
