// metrics_edges / metrics_graph / metrics_dense: apsp::compute_metrics for apsp/_metrics.py.
// Graphs (edge lists, apsp.Graph) go to compute_metrics, which never keeps the n x n matrix;
// a dense matrix is already n x n, so it is solved in place of its initial matrix and reduced
// with apsp::metrics_of. Each call returns a dict of NumPy arrays and numbers.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/metrics.hpp"
#include "apsp/solve.hpp"
#include "apsp/types.hpp"
#include "dense_input.hpp"
#include "edge_input.hpp"
#include "graph_binding.hpp"
#include "numpy_owner.hpp"
#include "progress_bridge.hpp"

namespace apsp_py {
namespace {

/// The keyword arguments every entry point shares (apsp/_metrics.py normalises them).
struct metrics_call {
  std::string which; ///< apsp::parse_metrics's list, or "all"
  bool wf_improved = true;
  int histogram_bins = 32;
  std::string dtype;
  std::string backend;
  std::string algorithm;
  int threads = 0;
  py::object progress;

  [[nodiscard]] apsp::solve_options solve_options() const {
    apsp::solve_options o;
    o.type = apsp::parse_dtype(dtype);
    o.backend = apsp::parse_backend(backend);
    o.algorithm = apsp::parse_algorithm(algorithm);
    o.paths = false;
    o.threads = threads;
    return o;
  }
  [[nodiscard]] apsp::metrics_options metrics_options() const {
    apsp::metrics_options mo;
    mo.which = apsp::parse_metrics(which);
    mo.wf_improved = wf_improved;
    mo.histogram_bins = histogram_bins;
    return mo;
  }
};

template <class T> py::object per_vertex(std::vector<T>&& values, bool computed) {
  if (!computed)
    return py::none();
  const auto n = static_cast<py::ssize_t>(values.size());
  return owning_array(std::move(values), {n});
}

py::dict to_dict(apsp::graph_metrics&& gm, const apsp::plan& ran, double seconds) {
  using apsp::metric;
  const auto has = [&](metric m) { return apsp::contains(gm.computed, m); };
  py::dict d;
  d["n"] = gm.n;
  py::list names;
  for (const metric m : apsp::metric_list()) {
    if (has(m))
      names.append(std::string(apsp::to_string(m)));
  }
  d["metrics"] = names;
  d["out_eccentricity"] = per_vertex(std::move(gm.out_eccentricity), has(metric::out_eccentricity));
  d["in_eccentricity"] = per_vertex(std::move(gm.in_eccentricity), has(metric::in_eccentricity));
  d["closeness"] = per_vertex(std::move(gm.closeness), has(metric::closeness));
  d["harmonic"] = per_vertex(std::move(gm.harmonic), has(metric::harmonic));
  d["reach_out"] = per_vertex(std::move(gm.reach_out), has(metric::reachable));
  d["reach_in"] = per_vertex(std::move(gm.reach_in), has(metric::reachable));
  const auto scalar = [&](metric m, auto value) -> py::object {
    return has(m) ? py::cast(value) : py::none();
  };
  d["diameter"] = scalar(metric::diameter, gm.diameter);
  d["radius"] = scalar(metric::radius, gm.radius);
  d["average_path_length"] = scalar(metric::average_path_length, gm.average_path_length);
  d["global_efficiency"] = scalar(metric::global_efficiency, gm.global_efficiency);
  d["reachable_pairs"] = scalar(metric::reachable_pairs, gm.reachable_pairs);
  if (has(metric::histogram)) {
    const auto bins = static_cast<py::ssize_t>(gm.histogram.counts.size());
    d["histogram_edges"] = owning_array(gm.histogram.edges(), {bins + 1});
    d["histogram_counts"] = owning_array(std::move(gm.histogram.counts), {bins});
    d["histogram_width"] = gm.histogram.width;
    d["histogram_negative"] = gm.histogram.negative;
  } else {
    for (const char* key :
         {"histogram_edges", "histogram_counts", "histogram_width", "histogram_negative"})
      d[key] = py::none();
  }
  d["dtype"] = std::string(apsp::to_string(ran.type));
  d["backend"] = std::string(apsp::to_string(ran.backend));
  d["device"] = ran.device;
  d["driver"] = apsp::to_string(ran.run);
  d["algorithm"] = std::string(apsp::to_string(ran.algorithm));
  d["algorithm_reason"] = ran.algorithm_reason;
  d["seconds"] = seconds;
  return d;
}

/// Runs `compute` (which returns graph_metrics and sets the plan that ran) with the GIL
/// released; the progress bridge takes it back for callbacks and Ctrl-C.
template <class Compute> py::dict run(const metrics_call& c, Compute&& compute) {
  if (c.threads < 0)
    throw py::value_error("threads must be >= 0 (0 = all hardware threads)");
  if (!c.progress.is_none() && !PyCallable_Check(c.progress.ptr()))
    throw py::type_error("progress must be callable or None");
  apsp::solve_options o = c.solve_options();
  const apsp::metrics_options mo = c.metrics_options();
  progress_bridge bridge(c.progress);
  o.progress = bridge.callback();
  apsp::graph_metrics gm;
  apsp::plan ran;
  double seconds = 0;
  try {
    py::gil_scoped_release release;
    const auto t0 = std::chrono::steady_clock::now();
    gm = compute(o, mo, ran);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } catch (const apsp::cancelled_error&) {
    bridge.raise_pending();
    throw;
  }
  return to_dict(std::move(gm), ran, seconds);
}

/// compute_metrics on a graph; its executed_plan is what ran.
auto on_graph(const apsp::graph& g) {
  return [&g](const apsp::solve_options& o, const apsp::metrics_options& mo, apsp::plan& ran) {
    apsp::graph_metrics gm = apsp::compute_metrics(g, o, mo);
    ran = gm.executed_plan;
    return gm;
  };
}

} // namespace

void bind_metrics(py::module_& m) {
  m.def(
      "metrics_edges",
      [](std::int64_t n, const int_array& rows, const int_array& cols, const double_array& weights,
         bool directed, bool unweighted, std::string which, bool wf_improved, int histogram_bins,
         std::string dtype, std::string backend, std::string algorithm, int threads,
         py::object progress) {
        const apsp::graph g = graph_from_edge_arrays(n, rows, cols, weights, directed, unweighted);
        return run({std::move(which), wf_improved, histogram_bins, std::move(dtype),
                    std::move(backend), std::move(algorithm), threads, std::move(progress)},
                   on_graph(g));
      },
      py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("weights"), py::kw_only(),
      py::arg("directed"), py::arg("unweighted"), py::arg("which"), py::arg("wf_improved"),
      py::arg("histogram_bins"), py::arg("dtype"), py::arg("backend"), py::arg("algorithm"),
      py::arg("threads"), py::arg("progress"));
  m.def(
      "metrics_graph",
      [](const py_graph& graph, bool directed, bool unweighted, std::string which, bool wf_improved,
         int histogram_bins, std::string dtype, std::string backend, std::string algorithm,
         int threads, py::object progress) {
        const metrics_call c{std::move(which), wf_improved,        histogram_bins,
                             std::move(dtype), std::move(backend), std::move(algorithm),
                             threads,          std::move(progress)};
        if (directed && !unweighted)
          return run(c, on_graph(graph.file->g));
        const apsp::graph g = transform_graph(graph.file->g, directed, unweighted);
        return run(c, on_graph(g));
      },
      py::arg("graph"), py::kw_only(), py::arg("directed"), py::arg("unweighted"), py::arg("which"),
      py::arg("wf_improved"), py::arg("histogram_bins"), py::arg("dtype"), py::arg("backend"),
      py::arg("algorithm"), py::arg("threads"), py::arg("progress"));
  m.def(
      "metrics_dense",
      [](const py::array& values, const py::object& mask, bool directed, bool unweighted,
         std::string which, bool wf_improved, int histogram_bins, std::string dtype,
         std::string backend, std::string algorithm, int threads, py::object progress) {
        // The builder checks shape and dtype here, with the GIL, and reads the arrays later.
        const matrix_builder build =
            dense_builder(values, mask, apsp::parse_dtype(dtype), directed, unweighted);
        const std::int64_t n = values.shape(0);
        return run(
            {std::move(which), wf_improved, histogram_bins, std::move(dtype), std::move(backend),
             std::move(algorithm), threads, std::move(progress)},
            [&](const apsp::solve_options& o, const apsp::metrics_options& mo, apsp::plan& ran) {
              // Plan first, so an impossible request fails before the n x n allocation.
              const apsp::plan p = apsp::make_plan(n, o);
              if (!p.fits)
                throw apsp::out_of_memory_error("the solve does not fit: " + p.reason);
              apsp::result r = apsp::solve_dense(build(), o);
              ran = r.executed_plan();
              return apsp::metrics_of(r.distances(), mo);
            });
      },
      py::arg("values"), py::arg("mask"), py::kw_only(), py::arg("directed"), py::arg("unweighted"),
      py::arg("which"), py::arg("wf_improved"), py::arg("histogram_bins"), py::arg("dtype"),
      py::arg("backend"), py::arg("algorithm"), py::arg("threads"), py::arg("progress"));
}

} // namespace apsp_py
