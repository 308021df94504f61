#pragma once
// Pieces of the apsp._core extension, one per source file, assembled in module.cpp.

#include <pybind11/pybind11.h>

namespace apsp_py {

namespace py = pybind11;

/// Translates apsp's exception types into the Python classes of apsp._errors.
void register_errors(py::module_& m);
/// Result: a finished solve (distances, paths, timings).
void bind_result(py::module_& m);
/// Graph and read_graph.
void bind_graph(py::module_& m);
/// solve_dense, solve_edges, solve_graph: the entry points the Python layer calls.
void bind_solvers(py::module_& m);
/// solve_sources_edges, solve_sources_graph: distances from some sources (SciPy's indices=).
void bind_source_solvers(py::module_& m);
/// solve_pair_edges, solve_pair_graph: one pair by one search (apsp.path on a graph).
void bind_pair_solvers(py::module_& m);
/// solve_table_edges, solve_table_graph: a sources x targets table (apsp.table).
void bind_table_solvers(py::module_& m);
void bind_hierarchy(py::module_& m);
/// metrics_edges, metrics_graph, metrics_dense: apsp::compute_metrics (apsp.metrics).
void bind_metrics(py::module_& m);

} // namespace apsp_py
