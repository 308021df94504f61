#pragma once
// apsp._core.Result: a finished solve, as returned by apsp.solve().

#include <pybind11/numpy.h>

#include <optional>

#include "apsp/result.hpp"
#include "bindings.hpp"

namespace apsp_py {

class py_result {
public:
  py_result(apsp::result r, double seconds) : result_(std::move(r)), seconds_(seconds) {}

  [[nodiscard]] const apsp::result& get() const;
  /// Moves the distances out into a NumPy array that owns them (for floyd_warshall, which then
  /// drops this object); afterwards `distances` raises.
  [[nodiscard]] py::array take_distances();
  /// NumPy view of the distances that keeps `self` alive (no copy).
  [[nodiscard]] static py::array distances_view(const py::object& self);
  /// SciPy predecessor matrix, computed once (O(n^2)) and cached.
  [[nodiscard]] py::object predecessors();
  [[nodiscard]] double seconds() const noexcept { return seconds_; }

private:
  apsp::result result_;
  bool taken_ = false;
  double seconds_ = 0;
  py::object predecessors_;
};

} // namespace apsp_py
