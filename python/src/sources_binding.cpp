// solve_sources_csr / solve_sources_edges / solve_sources_graph: apsp::solve_from_sources for
// SciPy's `indices=`, called by apsp/_sparse.py. A CSR matrix's own arrays are handed to the
// library as they are (a csr_view, searched in place when it can be). The rows come back as
// NumPy arrays that own the library's vectors (no copy), |S| x n, never n x n.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/sources.hpp"
#include "edge_input.hpp"
#include "graph_binding.hpp"
#include "numpy_owner.hpp"
#include "progress_bridge.hpp"

namespace apsp_py {
namespace {

struct source_call {
  std::string dtype;
  bool predecessors = false;
  int threads = 0;
  bool whole_graph_cycles = false;
  py::object progress;
};

/// Solves with the GIL released (the progress bridge takes it back for callbacks and Ctrl-C);
/// returns (distances, predecessors or None).
template <class Graph>
py::tuple run(const Graph& g, const int_array& sources, const source_call& c) {
  if (sources.ndim() != 1)
    throw py::value_error("sources must be 1-D");
  if (c.threads < 0)
    throw py::value_error("threads must be >= 0 (0 = all hardware threads)");
  apsp::source_options o;
  o.type = apsp::parse_dtype(c.dtype);
  o.predecessors = c.predecessors;
  o.threads = c.threads;
  o.cycles = c.whole_graph_cycles ? apsp::cycle_scope::whole_graph : apsp::cycle_scope::reachable;
  progress_bridge bridge(c.progress);
  o.progress = bridge.callback();
  const std::span<const std::int64_t> s(sources.data(), static_cast<std::size_t>(sources.size()));
  apsp::source_result r;
  try {
    py::gil_scoped_release release;
    r = apsp::solve_from_sources(g, s, o);
  } catch (const apsp::cancelled_error&) {
    bridge.raise_pending();
    throw;
  }
  const auto rows = static_cast<std::int64_t>(r.sources.size());
  py::array dist = std::visit(
      [&](auto& v) -> py::array {
        return owning_array(std::move(v), {rows, r.n});
      },
      r.distances);
  py::object pred = py::none();
  if (c.predecessors)
    pred = owning_array(std::move(r.predecessors), {rows, r.n});
  return py::make_tuple(dist, pred);
}

template <class T> std::span<const T> span_of(const py::array& a) {
  return {static_cast<const T*>(a.data()), static_cast<std::size_t>(a.size())};
}

template <class T> bool holds(const py::array& a) {
  return a.dtype().is(py::dtype::of<T>()) && a.ndim() == 1 && (a.flags() & py::array::c_style) != 0;
}

/// SciPy's CSR arrays read in place (apsp::csr_view): indptr and indices both int32 or both
/// int64, data float64 or float32, each 1-D and contiguous (apsp/_sparse.py sees to it).
template <class Index>
py::tuple run_csr(std::int64_t n, const py::array& indptr, const py::array& indices,
                  const py::array& data, const int_array& sources, bool directed, bool unweighted,
                  const source_call& c) {
  const auto view = [&](auto weight) {
    using Weight = decltype(weight);
    apsp::csr_view<Index, Weight> g;
    g.n = n;
    g.offsets = span_of<Index>(indptr);
    g.targets = span_of<Index>(indices);
    g.weights = span_of<Weight>(data);
    g.symmetric = !directed;
    g.unit_weights = unweighted;
    return run(g, sources, c);
  };
  if (holds<double>(data))
    return view(double{});
  if (holds<float>(data))
    return view(float{});
  throw py::type_error("data must be a contiguous 1-D float64 or float32 array");
}

} // namespace

void bind_source_solvers(py::module_& m) {
  m.def(
      "solve_sources_edges",
      [](std::int64_t n, const int_array& rows, const int_array& cols, const double_array& weights,
         const int_array& sources, bool directed, bool unweighted, std::string dtype,
         bool predecessors, int threads, bool whole_graph_cycles, py::object progress) {
        const apsp::graph g = graph_from_edge_arrays(n, rows, cols, weights, directed, unweighted);
        return run(
            g, sources,
            {std::move(dtype), predecessors, threads, whole_graph_cycles, std::move(progress)});
      },
      py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("weights"), py::arg("sources"),
      py::kw_only(), py::arg("directed"), py::arg("unweighted"), py::arg("dtype"),
      py::arg("predecessors"), py::arg("threads"), py::arg("whole_graph_cycles"),
      py::arg("progress"));
  m.def(
      "solve_sources_csr",
      [](std::int64_t n, const py::array& indptr, const py::array& indices, const py::array& data,
         const int_array& sources, bool directed, bool unweighted, std::string dtype,
         bool predecessors, int threads, bool whole_graph_cycles, py::object progress) {
        const source_call c{std::move(dtype), predecessors, threads, whole_graph_cycles,
                            std::move(progress)};
        if (holds<std::int32_t>(indptr) && holds<std::int32_t>(indices))
          return run_csr<std::int32_t>(n, indptr, indices, data, sources, directed, unweighted, c);
        if (holds<std::int64_t>(indptr) && holds<std::int64_t>(indices))
          return run_csr<std::int64_t>(n, indptr, indices, data, sources, directed, unweighted, c);
        throw py::type_error("indptr and indices must be contiguous 1-D arrays, both int32 or "
                             "both int64");
      },
      py::arg("n"), py::arg("indptr"), py::arg("indices"), py::arg("data"), py::arg("sources"),
      py::kw_only(), py::arg("directed"), py::arg("unweighted"), py::arg("dtype"),
      py::arg("predecessors"), py::arg("threads"), py::arg("whole_graph_cycles"),
      py::arg("progress"));
  m.def(
      "solve_sources_graph",
      [](const py_graph& graph, const int_array& sources, bool directed, bool unweighted,
         std::string dtype, bool predecessors, int threads, bool whole_graph_cycles,
         py::object progress) {
        const source_call c{std::move(dtype), predecessors, threads, whole_graph_cycles,
                            std::move(progress)};
        if (directed && !unweighted)
          return run(graph.file->g, sources, c);
        return run(transform_graph(graph.file->g, directed, unweighted), sources, c);
      },
      py::arg("graph"), py::arg("sources"), py::kw_only(), py::arg("directed"),
      py::arg("unweighted"), py::arg("dtype"), py::arg("predecessors"), py::arg("threads"),
      py::arg("whole_graph_cycles"), py::arg("progress"));
}

} // namespace apsp_py
