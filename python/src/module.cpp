// The apsp._core extension module. The public Python API lives in python/apsp/*.py.

#include <pybind11/stl.h>

#include "apsp/solve.hpp"
#include "apsp/types.hpp"
#include "bindings.hpp"

PYBIND11_MODULE(_core, m) {
  namespace py = pybind11;
  m.doc() = "Compiled core of the apsp package; use the functions of `apsp` instead.";

  apsp_py::register_errors(m);
  apsp_py::bind_result(m);
  apsp_py::bind_graph(m);
  apsp_py::bind_solvers(m);
  apsp_py::bind_source_solvers(m);
  apsp_py::bind_pair_solvers(m);
  apsp_py::bind_table_solvers(m);
  apsp_py::bind_hierarchy(m);
  apsp_py::bind_metrics(m);

  m.def("version", [] { return std::string(apsp::version()); });
  m.def("backends", [] {
    py::list out;
    for (const auto& s : apsp::list_backends()) {
      py::dict d;
      d["name"] = std::string(apsp::to_string(s.kind));
      d["available"] = s.available;
      d["detail"] = s.detail;
      out.append(d);
    }
    return out;
  });
  m.def("release_devices", [] {
    py::gil_scoped_release unlocked;
    apsp::release_devices();
  });
  m.attr("INT32_NO_PATH") = apsp::weight_traits<std::int32_t>::infinity;
  m.attr("INT64_NO_PATH") = apsp::weight_traits<std::int64_t>::infinity;
  m.attr("NO_PREDECESSOR") = apsp::no_predecessor;
}
