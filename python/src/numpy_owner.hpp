#pragma once
// NumPy arrays over apsp matrices without copying.

#include <pybind11/numpy.h>

#include <utility>
#include <vector>

#include "apsp/matrix.hpp"
#include "bindings.hpp"

namespace apsp_py {

inline std::vector<py::ssize_t> square_shape(py::ssize_t n) {
  return {n, n};
}

template <class T> std::vector<py::ssize_t> square_strides(py::ssize_t n) {
  constexpr auto size = static_cast<py::ssize_t>(sizeof(T));
  return {n * size, size};
}

/// Moves `m` to the heap and returns an n x n array that owns it through a capsule.
template <class T> py::array_t<T> to_numpy(apsp::dense_matrix<T>&& m) {
  const auto n = static_cast<py::ssize_t>(m.n());
  if (n == 0)
    return py::array_t<T>(std::vector<py::ssize_t>{0, 0});
  auto* owned = new apsp::dense_matrix<T>(std::move(m));
  py::capsule owner(owned, [](void* p) { delete static_cast<apsp::dense_matrix<T>*>(p); });
  return py::array_t<T>(square_shape(n), square_strides<T>(n), owned->data(), owner);
}

/// Moves `values` to the heap and returns an array of `shape` (its sizes multiply to
/// values.size()) that owns them through a capsule.
template <class T>
py::array_t<T> owning_array(std::vector<T>&& values, std::vector<py::ssize_t> shape) {
  auto* owned = new std::vector<T>(std::move(values));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(std::move(shape), owned->data(), owner);
}

/// An n x n array viewing `m`, which `base` keeps alive.
template <class T>
py::array_t<T> view_numpy(const apsp::dense_matrix<T>& m, const py::object& base) {
  const auto n = static_cast<py::ssize_t>(m.n());
  if (n == 0)
    return py::array_t<T>(std::vector<py::ssize_t>{0, 0});
  return py::array_t<T>(square_shape(n), square_strides<T>(n), m.data(), base);
}

} // namespace apsp_py
