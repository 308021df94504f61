#pragma once
// apsp._core.Graph: an edge list with the ids of the file it came from.

#include <pybind11/numpy.h>

#include <cstdint>
#include <memory>

#include "apsp/io.hpp"
#include "bindings.hpp"

namespace apsp_py {

struct py_graph {
  std::shared_ptr<const apsp::io::graph_file> file;
};

using int_array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using double_array = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// graph_from_edges on the arrays of the `*_edges` entry points (1-D, else ValueError), with
/// the GIL released while the graph is built.
[[nodiscard]] apsp::graph graph_from_edge_arrays(std::int64_t n, const int_array& rows,
                                                 const int_array& cols, const double_array& weights,
                                                 bool directed, bool unweighted);

} // namespace apsp_py
