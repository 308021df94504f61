// Hierarchy: apsp::hierarchy for apsp.Router (apsp/_router.py): a contraction hierarchy built
// once (or loaded from a file `apsp prepare` or Router.save wrote, checked against the graph)
// with the graph it belongs to, for many tables and paths.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/hierarchy.hpp"
#include "apsp/pair.hpp"
#include "edge_input.hpp"
#include "graph_binding.hpp"
#include "numpy_owner.hpp"

namespace apsp_py {
namespace {

/// A hierarchy and the graph it was built from (paths are searched on the graph).
struct py_hierarchy {
  std::shared_ptr<const apsp::graph> graph;
  std::shared_ptr<const apsp::hierarchy> h;
};

std::shared_ptr<const apsp::graph> kept_graph(const py_graph& graph, bool directed,
                                              bool unweighted) {
  if (directed && !unweighted)
    return {graph.file, &graph.file->g}; // shares the apsp.Graph's own
  return std::make_shared<const apsp::graph>(transform_graph(graph.file->g, directed, unweighted));
}

py_hierarchy built(std::shared_ptr<const apsp::graph> g, const std::string& dtype, int threads) {
  apsp::solve_options o;
  o.type = apsp::parse_dtype(dtype);
  o.threads = threads;
  std::shared_ptr<const apsp::hierarchy> h;
  {
    py::gil_scoped_release release;
    h = std::make_shared<const apsp::hierarchy>(*g, o);
  }
  return {std::move(g), std::move(h)};
}

py_hierarchy loaded(std::shared_ptr<const apsp::graph> g, const std::string& path) {
  std::shared_ptr<const apsp::hierarchy> h;
  {
    py::gil_scoped_release release;
    h = std::make_shared<const apsp::hierarchy>(apsp::hierarchy::load(path, *g));
  }
  return {std::move(g), std::move(h)};
}

} // namespace

void bind_hierarchy(py::module_& m) {
  py::class_<py_hierarchy>(m, "Hierarchy")
      .def_property_readonly(
          "dtype", [](const py_hierarchy& s) { return std::string(apsp::to_string(s.h->type())); })
      .def_property_readonly("n", [](const py_hierarchy& s) { return s.h->num_vertices(); })
      .def_property_readonly("shortcuts", [](const py_hierarchy& s) { return s.h->shortcuts(); })
      .def_property_readonly("levels", [](const py_hierarchy& s) { return s.h->levels(); })
      .def_property_readonly("fingerprint",
                             [](const py_hierarchy& s) {
                               const auto& f = s.h->fingerprint();
                               return py::make_tuple(f.vertices, f.edges, f.hash);
                             })
      .def(
          "table",
          [](const py_hierarchy& s, std::vector<std::int64_t> sources,
             std::vector<std::int64_t> targets, int threads) {
            apsp::table_result r;
            {
              py::gil_scoped_release release;
              r = s.h->table(std::span<const std::int64_t>(sources),
                             std::span<const std::int64_t>(targets), threads);
            }
            return std::visit(
                [&](auto& v) -> py::array {
                  return owning_array(std::move(v), {r.rows, r.cols});
                },
                r.distances);
          },
          py::arg("sources"), py::arg("targets"), py::arg("threads"))
      .def(
          "pair",
          [](const py_hierarchy& s, std::int64_t source, std::int64_t target) {
            apsp::pair_options o;
            o.type = s.h->type();
            apsp::pair_result r;
            {
              py::gil_scoped_release release;
              r = apsp::solve_pair(*s.graph, source, target, o);
            }
            py::object d = std::visit([](auto v) -> py::object { return py::cast(v); }, r.distance);
            return py::make_tuple(d, py::cast(r.path));
          },
          py::arg("source"), py::arg("target"))
      .def(
          "save",
          [](const py_hierarchy& s, const std::string& path) {
            py::gil_scoped_release release;
            s.h->save(path);
          },
          py::arg("path"));
  m.def(
      "hierarchy_edges",
      [](std::int64_t n, const int_array& rows, const int_array& cols, const double_array& weights,
         bool directed, bool unweighted, std::string dtype, int threads, std::string load) {
        auto g = std::make_shared<const apsp::graph>(
            graph_from_edge_arrays(n, rows, cols, weights, directed, unweighted));
        return load.empty() ? built(std::move(g), dtype, threads) : loaded(std::move(g), load);
      },
      py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("weights"), py::kw_only(),
      py::arg("directed"), py::arg("unweighted"), py::arg("dtype"), py::arg("threads"),
      py::arg("load"));
  m.def(
      "hierarchy_graph",
      [](const py_graph& graph, bool directed, bool unweighted, std::string dtype, int threads,
         std::string load) {
        auto g = kept_graph(graph, directed, unweighted);
        return load.empty() ? built(std::move(g), dtype, threads) : loaded(std::move(g), load);
      },
      py::arg("graph"), py::kw_only(), py::arg("directed"), py::arg("unweighted"), py::arg("dtype"),
      py::arg("threads"), py::arg("load"));
}

} // namespace apsp_py
