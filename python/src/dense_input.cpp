#include "dense_input.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <new>
#include <optional>
#include <string>
#include <type_traits>

#include "apsp/error.hpp"

namespace apsp_py {
namespace {

template <class In> bool is_edge_value(In v) {
  if constexpr (std::is_floating_point_v<In>) {
    return v != 0 && std::isfinite(v);
  } else {
    return v != 0;
  }
}

/// Converts one weight; false when Out cannot hold it exactly below its no-path value.
template <class Out, class In> bool convert_weight(In v, Out& out) {
  if constexpr (std::is_floating_point_v<Out>) {
    out = static_cast<Out>(v);
    return std::isfinite(out); // float64 -> float32 can overflow to inf ("no edge")
  } else {
    constexpr auto limit = apsp::weight_traits<Out>::infinity;
    if constexpr (std::is_floating_point_v<In>) {
      if (std::trunc(v) != v || std::fabs(static_cast<double>(v)) >= static_cast<double>(limit)) {
        return false;
      }
    } else {
      const auto wide = static_cast<std::int64_t>(v);
      if (wide >= std::int64_t{limit} || wide <= -std::int64_t{limit})
        return false;
    }
    out = static_cast<Out>(v);
    return true;
  }
}

/// The first entry that could not be converted, reported after the parallel fill.
struct bad_entry {
  std::atomic<bool> found{false};
  std::int64_t i = 0;
  std::int64_t j = 0;
  double value = 0;
};

/// printf-style rather than iostreams: some Python hosts load an older libstdc++ whose locale
/// facets crash this module's ostream code.
std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

[[noreturn]] void throw_bad_entry(const bad_entry& bad, apsp::dtype out) {
  std::string msg = "csgraph[" + std::to_string(bad.i) + ", " + std::to_string(bad.j) +
                    "] = " + format_number(bad.value) + " cannot be stored in " +
                    std::string(apsp::to_string(out));
  if (apsp::is_integral(out)) {
    msg += " (integer dtypes need whole weights of magnitude below the no-path value)";
  } else {
    msg += " (out of range)";
  }
  msg += "; use dtype=float64";
  throw apsp::invalid_input_error(msg);
}

template <class Out, class In>
void fill(apsp::dense_matrix<Out>& d, const py::detail::unchecked_reference<In, 2>& a,
          const std::optional<py::detail::unchecked_reference<bool, 2>>& mask, bool unweighted,
          bad_entry& bad) {
  const std::int64_t n = d.n();
  constexpr Out inf = apsp::weight_traits<Out>::infinity;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    Out* row = d.row(i);
    for (std::int64_t j = 0; j < n; ++j) {
      const In v = a(i, j);
      const bool edge = is_edge_value(v) && !(mask && (*mask)(i, j));
      if (i == j) {
        // SciPy ignores the diagonal; apsp keeps a negative self-loop, a negative cycle.
        row[j] = Out{0};
        if (edge && !unweighted && v < 0 && !convert_weight(v, row[j]) &&
            !bad.found.exchange(true)) {
          bad.i = i, bad.j = j, bad.value = static_cast<double>(v);
        }
      } else if (!edge) {
        row[j] = inf;
      } else if (unweighted) {
        row[j] = Out{1};
      } else if (!convert_weight(v, row[j])) {
        row[j] = inf;
        if (!bad.found.exchange(true))
          bad.i = i, bad.j = j, bad.value = static_cast<double>(v);
      }
    }
  }
}

/// d[i][j] = d[j][i] = min of the two, tile by tile so both accesses stay in cache.
template <class T> void symmetrize_min(apsp::dense_matrix<T>& d) {
  constexpr std::int64_t tile = 64;
  const std::int64_t n = d.n();
  const std::int64_t tiles = (n + tile - 1) / tile;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t bi = 0; bi < tiles; ++bi) {
    for (std::int64_t bj = bi; bj < tiles; ++bj) {
      const std::int64_t i_end = std::min(n, (bi + 1) * tile);
      const std::int64_t j_end = std::min(n, (bj + 1) * tile);
      for (std::int64_t i = bi * tile; i < i_end; ++i) {
        for (std::int64_t j = std::max(i + 1, bj * tile); j < j_end; ++j) {
          const T m = std::min(d(i, j), d(j, i));
          d(i, j) = m;
          d(j, i) = m;
        }
      }
    }
  }
}

template <class In>
matrix_builder typed_builder(const py::array& values, const py::object& mask, apsp::dtype out,
                             bool directed, bool unweighted) {
  const auto view = values.unchecked<In, 2>();
  std::optional<py::detail::unchecked_reference<bool, 2>> mask_view;
  if (!mask.is_none())
    mask_view.emplace(mask.cast<py::array>().unchecked<bool, 2>());
  return [view, mask_view, out, directed, unweighted]() -> apsp::any_matrix {
    const std::int64_t n = view.shape(0);
    return apsp::visit_dtype(out, [&](auto zero) -> apsp::any_matrix {
      using Out = decltype(zero);
      std::optional<apsp::dense_matrix<Out>> d;
      try {
        d.emplace(n);
      } catch (const std::bad_alloc&) {
        throw apsp::out_of_memory_error("cannot allocate the " + std::to_string(n) + " x " +
                                        std::to_string(n) + " " +
                                        std::string(apsp::to_string(out)) + " distance matrix");
      }
      bad_entry bad;
      fill(*d, view, mask_view, unweighted, bad);
      if (bad.found)
        throw_bad_entry(bad, out);
      if (!directed)
        symmetrize_min(*d);
      return std::move(*d);
    });
  };
}

} // namespace

matrix_builder dense_builder(const py::array& values, const py::object& mask, apsp::dtype out,
                             bool directed, bool unweighted) {
  if (values.ndim() != 2 || values.shape(0) != values.shape(1)) {
    throw py::value_error("csgraph must be a square 2-D matrix");
  }
  if (!mask.is_none()) {
    auto m = mask.cast<py::array>();
    if (!py::isinstance<py::array_t<bool>>(m) || m.ndim() != 2 || m.shape(0) != values.shape(0) ||
        m.shape(1) != values.shape(1)) {
      throw py::value_error("the mask must be a bool array of the matrix's shape");
    }
  }
  if (py::isinstance<py::array_t<double>>(values)) {
    return typed_builder<double>(values, mask, out, directed, unweighted);
  }
  if (py::isinstance<py::array_t<float>>(values)) {
    return typed_builder<float>(values, mask, out, directed, unweighted);
  }
  if (py::isinstance<py::array_t<std::int32_t>>(values)) {
    return typed_builder<std::int32_t>(values, mask, out, directed, unweighted);
  }
  if (py::isinstance<py::array_t<std::int64_t>>(values)) {
    return typed_builder<std::int64_t>(values, mask, out, directed, unweighted);
  }
  throw py::type_error("csgraph must hold float64, float32, int32 or int64 values");
}

} // namespace apsp_py
