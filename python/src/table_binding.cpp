// solve_table_graph / solve_table_edges: apsp::solve_table for apsp.table, called by
// apsp/_table.py. The |S| x |T| block only, by the engine the planner chooses (a contraction
// hierarchy on road-like integer graphs, Dijkstra from the smaller set, or the whole matrix).

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/table.hpp"
#include "edge_input.hpp"
#include "graph_binding.hpp"
#include "numpy_owner.hpp"
#include "progress_bridge.hpp"

namespace apsp_py {
namespace {

/// The table with the GIL released (the bridge takes it back for Ctrl-C); returns (distances,
/// driver): a rows x cols array of the dtype and the words of the driver that ran.
py::tuple run(const apsp::graph& g, const std::vector<std::int64_t>& sources,
              const std::vector<std::int64_t>& targets, const std::string& dtype, int threads,
              py::object progress) {
  apsp::solve_options o;
  o.type = apsp::parse_dtype(dtype);
  o.threads = threads;
  progress_bridge bridge(std::move(progress));
  o.progress = bridge.callback();
  apsp::table_result r;
  try {
    py::gil_scoped_release release;
    r = apsp::solve_table(g, std::span<const std::int64_t>(sources),
                          std::span<const std::int64_t>(targets), o);
  } catch (const apsp::cancelled_error&) {
    bridge.raise_pending();
    throw;
  }
  py::array dist = std::visit(
      [&](auto& v) -> py::array {
        return owning_array(std::move(v), {r.rows, r.cols});
      },
      r.distances);
  return py::make_tuple(dist, apsp::to_string(r.ran.run));
}

} // namespace

void bind_table_solvers(py::module_& m) {
  m.def(
      "solve_table_along_edges",
      [](std::int64_t n, const int_array& rows, const int_array& cols, const double_array& weights,
         const double_array& second, std::vector<std::int64_t> sources,
         std::vector<std::int64_t> targets, std::string dtype, int threads) {
        const apsp::graph g = graph_from_edge_arrays(n, rows, cols, weights, true, false);
        if (second.ndim() != 1 || second.shape(0) != g.num_edges())
          throw py::value_error("second must hold one value per edge");
        apsp::solve_options o;
        o.type = apsp::parse_dtype(dtype);
        o.threads = threads;
        apsp::table_result r;
        {
          py::gil_scoped_release release;
          r = apsp::solve_table_along(
              g, std::span<const double>(second.data(), static_cast<std::size_t>(second.shape(0))),
              std::span<const std::int64_t>(sources), std::span<const std::int64_t>(targets), o);
        }
        py::array dist = std::visit(
            [&](auto& v) -> py::array {
              return owning_array(std::move(v), {r.rows, r.cols});
            },
            r.distances);
        py::array sums = owning_array(std::move(r.second), {r.rows, r.cols});
        return py::make_tuple(dist, sums, apsp::to_string(r.ran.run));
      },
      py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("weights"), py::arg("second"),
      py::arg("sources"), py::arg("targets"), py::kw_only(), py::arg("dtype"), py::arg("threads"));
  m.def(
      "solve_table_edges",
      [](std::int64_t n, const int_array& rows, const int_array& cols, const double_array& weights,
         std::vector<std::int64_t> sources, std::vector<std::int64_t> targets, bool directed,
         bool unweighted, std::string dtype, int threads, py::object progress) {
        const apsp::graph g = graph_from_edge_arrays(n, rows, cols, weights, directed, unweighted);
        return run(g, sources, targets, dtype, threads, std::move(progress));
      },
      py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("weights"), py::arg("sources"),
      py::arg("targets"), py::kw_only(), py::arg("directed"), py::arg("unweighted"),
      py::arg("dtype"), py::arg("threads"), py::arg("progress"));
  m.def(
      "solve_table_graph",
      [](const py_graph& graph, std::vector<std::int64_t> sources,
         std::vector<std::int64_t> targets, bool directed, bool unweighted, std::string dtype,
         int threads, py::object progress) {
        if (directed && !unweighted)
          return run(graph.file->g, sources, targets, dtype, threads, std::move(progress));
        return run(transform_graph(graph.file->g, directed, unweighted), sources, targets, dtype,
                   threads, std::move(progress));
      },
      py::arg("graph"), py::arg("sources"), py::arg("targets"), py::kw_only(), py::arg("directed"),
      py::arg("unweighted"), py::arg("dtype"), py::arg("threads"), py::arg("progress"));
}

} // namespace apsp_py
