// solve_pair_graph / solve_pair_edges: apsp::solve_pair for apsp.path on a graph, called by
// apsp/_path.py. One bidirectional search for the pair: memory O(n + m), never a row of n.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

#include "apsp/error.hpp"
#include "apsp/pair.hpp"
#include "edge_input.hpp"
#include "graph_binding.hpp"
#include "progress_bridge.hpp"

namespace apsp_py {
namespace {

/// Searches with the GIL released (the bridge takes it back for Ctrl-C); returns (distance,
/// path): the distance as a Python int or float (the dtype's no-path value when unreachable).
py::tuple run(const apsp::graph& g, std::int64_t source, std::int64_t target,
              const std::string& dtype, py::object progress) {
  apsp::pair_options o;
  o.type = apsp::parse_dtype(dtype);
  progress_bridge bridge(std::move(progress));
  o.progress = bridge.callback();
  apsp::pair_result r;
  try {
    py::gil_scoped_release release;
    r = apsp::solve_pair(g, source, target, o);
  } catch (const apsp::cancelled_error&) {
    bridge.raise_pending();
    throw;
  }
  py::object distance = std::visit([](auto d) -> py::object { return py::cast(d); }, r.distance);
  return py::make_tuple(distance, py::cast(r.path));
}

} // namespace

void bind_pair_solvers(py::module_& m) {
  m.def(
      "solve_pair_edges",
      [](std::int64_t n, const int_array& rows, const int_array& cols, const double_array& weights,
         std::int64_t source, std::int64_t target, bool directed, bool unweighted,
         std::string dtype, py::object progress) {
        const apsp::graph g = graph_from_edge_arrays(n, rows, cols, weights, directed, unweighted);
        return run(g, source, target, dtype, std::move(progress));
      },
      py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("weights"), py::arg("source"),
      py::arg("target"), py::kw_only(), py::arg("directed"), py::arg("unweighted"),
      py::arg("dtype"), py::arg("progress"));
  m.def(
      "solve_pair_graph",
      [](const py_graph& graph, std::int64_t source, std::int64_t target, bool directed,
         bool unweighted, std::string dtype, py::object progress) {
        if (directed && !unweighted)
          return run(graph.file->g, source, target, dtype, std::move(progress));
        return run(transform_graph(graph.file->g, directed, unweighted), source, target, dtype,
                   std::move(progress));
      },
      py::arg("graph"), py::arg("source"), py::arg("target"), py::kw_only(), py::arg("directed"),
      py::arg("unweighted"), py::arg("dtype"), py::arg("progress"));
}

} // namespace apsp_py
