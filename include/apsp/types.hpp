#pragma once
/// @file types.hpp
/// Weight types, their "no path" values, and back-end names.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

namespace apsp {

/// Element type of the distance matrix.
enum class dtype { int32, float32, int64, float64 };

/// Which solver runs. `automatic` picks cuda when a device is present and the plan fits, else cpu.
enum class backend_kind { automatic, reference, cpu, cuda };

/// Which algorithm solves: Floyd-Warshall (dense, O(n^3), every back end) or Johnson's
/// (Bellman-Ford potentials when weights are negative, then Dijkstra from every source:
/// O(n m log n), the cpu back end) or the supernodal Floyd-Warshall (a nested-dissection order
/// and one dense block step per supernode: Floyd-Warshall's answers with far fewer updates on
/// graphs with small separators such as road networks; the cpu back end). `automatic` picks per
/// graph from a cost model (docs/sparse.md).
enum class algorithm_kind { automatic, floyd_warshall, johnson, supernodal };

/// "No path" and limits for each weight type.
template <class T> struct weight_traits;

template <> struct weight_traits<std::int32_t> {
  /// 2^30 - 1, as in the course format: INF + INF still fits in int32.
  static constexpr std::int32_t infinity = 1073741823;
  static constexpr dtype type = dtype::int32;
};
template <> struct weight_traits<std::int64_t> {
  /// 2^62 - 1: INF + INF still fits in int64.
  static constexpr std::int64_t infinity = (std::int64_t{1} << 62) - 1;
  static constexpr dtype type = dtype::int64;
};
template <> struct weight_traits<float> {
  static constexpr float infinity = std::numeric_limits<float>::infinity();
  static constexpr dtype type = dtype::float32;
};
template <> struct weight_traits<double> {
  static constexpr double infinity = std::numeric_limits<double>::infinity();
  static constexpr dtype type = dtype::float64;
};

/// Bytes per element of `t`.
[[nodiscard]] constexpr std::size_t size_of(dtype t) noexcept {
  return (t == dtype::int32 || t == dtype::float32) ? 4 : 8;
}
[[nodiscard]] constexpr bool is_integral(dtype t) noexcept {
  return t == dtype::int32 || t == dtype::int64;
}

/// "int32", "float32", "int64", "float64".
[[nodiscard]] std::string_view to_string(dtype t) noexcept;
/// Parses the names above (and "float"/"double"/"int"); throws invalid_argument_error otherwise.
[[nodiscard]] dtype parse_dtype(std::string_view name);

/// "auto", "reference", "cpu", "cuda".
[[nodiscard]] std::string_view to_string(backend_kind b) noexcept;
/// Parses the names above; throws invalid_argument_error otherwise.
[[nodiscard]] backend_kind parse_backend(std::string_view name);

/// "auto", "fw", "johnson", "supernodal".
[[nodiscard]] std::string_view to_string(algorithm_kind a) noexcept;
/// Parses the names above (and "floyd-warshall", "floyd_warshall"); throws
/// invalid_argument_error otherwise.
[[nodiscard]] algorithm_kind parse_algorithm(std::string_view name);

/// Calls `f(T{})` with T the C++ type of `t` (std::int32_t, float, std::int64_t, double).
template <class F> decltype(auto) visit_dtype(dtype t, F&& f) {
  switch (t) {
  case dtype::int32:
    return f(std::int32_t{});
  case dtype::float32:
    return f(float{});
  case dtype::int64:
    return f(std::int64_t{});
  case dtype::float64:
    break;
  }
  return f(double{});
}

} // namespace apsp
