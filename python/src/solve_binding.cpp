// The solve entry points called by apsp/_api.py. Inputs are converted and solved with the GIL
// released; the progress bridge takes it back once per round for callbacks and Ctrl-C.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "dense_input.hpp"
#include "edge_input.hpp"
#include "graph_binding.hpp"
#include "progress_bridge.hpp"
#include "result_binding.hpp"

namespace apsp_py {
namespace {

/// Keyword arguments shared by every entry point.
struct call_options {
  std::string dtype;
  std::string backend;
  bool paths = false;
  py::object progress;
  int threads = 0;
  /// CUDA devices; empty = device 0, {-1} = all (apsp::solve_options::devices).
  std::vector<int> devices;
  /// Device memory cap in bytes per device; 0 = none.
  std::uint64_t gpu_memory = 0;
  /// "auto", "fw", "johnson" or "supernodal" (apsp::parse_algorithm).
  std::string algorithm = "auto";
};

template <class Solve> py_result run(const call_options& c, Solve&& solve) {
  apsp::solve_options o;
  o.type = apsp::parse_dtype(c.dtype);
  o.backend = apsp::parse_backend(c.backend);
  o.algorithm = apsp::parse_algorithm(c.algorithm);
  o.paths = c.paths;
  o.threads = c.threads;
  o.devices = c.devices;
  o.device_memory_limit = c.gpu_memory;
  progress_bridge bridge(c.progress);
  o.progress = bridge.callback();
  const auto t0 = std::chrono::steady_clock::now();
  try {
    py::gil_scoped_release release;
    apsp::result r = solve(o);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return py_result(std::move(r), seconds);
  } catch (const apsp::cancelled_error&) {
    bridge.raise_pending();
    throw;
  }
}

py_result solve_dense(const py::array& values, const py::object& mask, bool directed,
                      bool unweighted, const call_options& c) {
  // The builder checks shape and dtype here, with the GIL, and reads the arrays later without.
  const matrix_builder build =
      dense_builder(values, mask, apsp::parse_dtype(c.dtype), directed, unweighted);
  const std::int64_t n = values.shape(0);
  return run(c, [&](const apsp::solve_options& o) {
    // Plan first, so an impossible request fails before the n x n allocation.
    const apsp::plan p = apsp::make_plan(n, o);
    if (!p.fits)
      throw apsp::out_of_memory_error(std::string("the solve does not fit: ").append(p.reason));
    return apsp::solve_dense(build(), o);
  });
}

py_result solve_edges(std::int64_t n, const int_array& rows, const int_array& cols,
                      const double_array& weights, bool directed, bool unweighted,
                      const call_options& c) {
  if (rows.ndim() != 1 || cols.ndim() != 1 || weights.ndim() != 1) {
    throw py::value_error("edge arrays must be 1-D");
  }
  const std::span<const std::int64_t> r(rows.data(), static_cast<std::size_t>(rows.size()));
  const std::span<const std::int64_t> k(cols.data(), static_cast<std::size_t>(cols.size()));
  const std::span<const double> w(weights.data(), static_cast<std::size_t>(weights.size()));
  return run(c, [&](const apsp::solve_options& o) {
    return apsp::solve(graph_from_edges(n, r, k, w, directed, unweighted), o);
  });
}

py_result solve_graph(const py_graph& g, bool directed, bool unweighted, const call_options& c) {
  return run(c, [&](const apsp::solve_options& o) {
    if (directed && !unweighted)
      return apsp::solve(g.file->g, o);
    return apsp::solve(transform_graph(g.file->g, directed, unweighted), o);
  });
}

call_options options(std::string dtype, std::string backend, bool paths, py::object progress,
                     int threads, std::vector<int> devices, std::uint64_t gpu_memory,
                     std::string algorithm) {
  if (!progress.is_none() && !PyCallable_Check(progress.ptr())) {
    throw py::type_error("progress must be callable or None");
  }
  if (threads < 0)
    throw py::value_error("threads must be >= 0 (0 = all hardware threads)");
  // apsp/_inputs.py checks these too; here only the form solve_options expects is let through.
  const bool all_devices = devices.size() == 1 && devices.front() == -1;
  for (std::size_t i = 0; i < devices.size() && !all_devices; ++i) {
    if (devices[i] < 0)
      throw py::value_error("CUDA device indices must be >= 0");
    for (std::size_t j = 0; j < i; ++j) {
      if (devices[j] == devices[i])
        throw py::value_error("CUDA device " + std::to_string(devices[i]) + " is listed twice");
    }
  }
  return {.dtype = std::move(dtype),
          .backend = std::move(backend),
          .paths = paths,
          .progress = std::move(progress),
          .threads = threads,
          .devices = std::move(devices),
          .gpu_memory = gpu_memory,
          .algorithm = std::move(algorithm)};
}

} // namespace

void bind_solvers(py::module_& m) {
  m.def(
      "solve_dense",
      [](const py::array& values, const py::object& mask, bool directed, bool unweighted,
         std::string dtype, std::string backend, bool paths, py::object progress, int threads,
         std::vector<int> devices, std::uint64_t gpu_memory, std::string algorithm) {
        return solve_dense(values, mask, directed, unweighted,
                           options(std::move(dtype), std::move(backend), paths, std::move(progress),
                                   threads, std::move(devices), gpu_memory, std::move(algorithm)));
      },
      py::arg("values"), py::arg("mask"), py::kw_only(), py::arg("directed"), py::arg("unweighted"),
      py::arg("dtype"), py::arg("backend"), py::arg("paths"), py::arg("progress"),
      py::arg("threads"), py::arg("devices"), py::arg("gpu_memory"), py::arg("algorithm") = "auto");
  m.def(
      "solve_edges",
      [](std::int64_t n, const int_array& rows, const int_array& cols, const double_array& weights,
         bool directed, bool unweighted, std::string dtype, std::string backend, bool paths,
         py::object progress, int threads, std::vector<int> devices, std::uint64_t gpu_memory,
         std::string algorithm) {
        return solve_edges(n, rows, cols, weights, directed, unweighted,
                           options(std::move(dtype), std::move(backend), paths, std::move(progress),
                                   threads, std::move(devices), gpu_memory, std::move(algorithm)));
      },
      py::arg("n"), py::arg("rows"), py::arg("cols"), py::arg("weights"), py::kw_only(),
      py::arg("directed"), py::arg("unweighted"), py::arg("dtype"), py::arg("backend"),
      py::arg("paths"), py::arg("progress"), py::arg("threads"), py::arg("devices"),
      py::arg("gpu_memory"), py::arg("algorithm") = "auto");
  m.def(
      "solve_graph",
      [](const py_graph& g, bool directed, bool unweighted, std::string dtype, std::string backend,
         bool paths, py::object progress, int threads, std::vector<int> devices,
         std::uint64_t gpu_memory, std::string algorithm) {
        return solve_graph(g, directed, unweighted,
                           options(std::move(dtype), std::move(backend), paths, std::move(progress),
                                   threads, std::move(devices), gpu_memory, std::move(algorithm)));
      },
      py::arg("graph"), py::kw_only(), py::arg("directed"), py::arg("unweighted"), py::arg("dtype"),
      py::arg("backend"), py::arg("paths"), py::arg("progress"), py::arg("threads"),
      py::arg("devices"), py::arg("gpu_memory"), py::arg("algorithm") = "auto");
}

} // namespace apsp_py
