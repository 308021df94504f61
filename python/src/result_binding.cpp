#include "result_binding.hpp"

#include <pybind11/stl.h>

#include <string>
#include <variant>

#include "apsp/error.hpp"
#include "apsp/plan.hpp"
#include "apsp/types.hpp"
#include "numpy_owner.hpp"

namespace apsp_py {
namespace {

void make_read_only(py::array& a) {
  a.attr("flags").attr("writeable") = false;
}

} // namespace

const apsp::result& py_result::get() const {
  if (taken_)
    throw py::value_error("this Result's distances were handed to another owner");
  return result_;
}

py::array py_result::take_distances() {
  (void)get();
  taken_ = true;
  return std::visit([](auto& m) -> py::array { return to_numpy(std::move(m)); },
                    result_.distances());
}

py::array py_result::distances_view(const py::object& self) {
  const auto& r = self.cast<const py_result&>().get();
  py::array a =
      std::visit([&](const auto& m) -> py::array { return view_numpy(m, self); }, r.distances());
  make_read_only(a);
  return a;
}

py::object py_result::predecessors() {
  if (!predecessors_) {
    const auto& r = get();
    apsp::dense_matrix<std::int32_t> pred;
    {
      py::gil_scoped_release release;
      pred = r.predecessors();
    }
    py::array a = to_numpy(std::move(pred));
    make_read_only(a);
    predecessors_ = std::move(a);
  }
  return predecessors_;
}

void bind_result(py::module_& m) {
  // dynamic_attr: apsp.solve() sets `nodes` (a NetworkX graph's nodes, else None).
  py::class_<py_result>(m, "Result",
                        "A finished all-pairs shortest-path solve (returned by apsp.solve).",
                        py::dynamic_attr())
      .def_property_readonly(
          "n", [](const py_result& r) { return r.get().n(); }, "Number of vertices.")
      .def_property_readonly(
          "dtype", [](const py_result& r) { return std::string(apsp::to_string(r.get().type())); },
          "Element type of the distances ('float64', 'float32', 'int64' or 'int32').")
      .def_property_readonly("distances", &py_result::distances_view,
                             "n x n read-only view of the distances (no copy). Float types "
                             "use inf for 'no path', integer types apsp.no_path(dtype).")
      .def_property_readonly("predecessors", &py_result::predecessors,
                             "SciPy-style int32 predecessor matrix (-9999 = none), computed on "
                             "first access. Needs paths=True.")
      .def_property_readonly("has_paths", [](const py_result& r) { return r.get().has_paths(); })
      .def(
          "path",
          [](const py_result& r, std::int64_t i, std::int64_t j) { return r.get().path(i, j); },
          py::arg("i"), py::arg("j"),
          "Vertices of a shortest i -> j path, [i, ..., j]; [i] when i == j; [] when j is "
          "unreachable. Needs paths=True.")
      .def(
          "distance",
          [](const py_result& r, std::int64_t i, std::int64_t j) { return r.get().distance(i, j); },
          py::arg("i"), py::arg("j"), "d[i][j] as a float (inf when unreachable).")
      .def_property_readonly(
          "backend",
          [](const py_result& r) {
            return std::string(apsp::to_string(r.get().executed_plan().backend));
          },
          "The back end that ran ('cpu', 'cuda' or 'reference').")
      .def_property_readonly(
          "algorithm",
          [](const py_result& r) {
            return std::string(apsp::to_string(r.get().executed_plan().algorithm));
          },
          "The algorithm that ran: 'fw' (Floyd-Warshall), 'johnson' or 'supernodal' "
          "(Floyd-Warshall in a nested-dissection order).")
      .def_property_readonly(
          "driver", [](const py_result& r) { return apsp::to_string(r.get().executed_plan().run); },
          "The engine and its driver in words, as `apsp solve --json` says it (e.g. 'cpu "
          "blocked, 2 threads').")
      .def_property_readonly(
          "algorithm_reason",
          [](const py_result& r) { return r.get().executed_plan().algorithm_reason; },
          "Why: 'requested', or the auto cost model's estimates.")
      .def_property_readonly(
          "device", [](const py_result& r) { return r.get().executed_plan().device; },
          "What it ran on, e.g. a CPU description or a GPU name.")
      .def_property_readonly(
          "block", [](const py_result& r) { return r.get().executed_plan().block; },
          "Tile edge used.")
      .def_property_readonly("seconds", &py_result::seconds,
                             "Wall-clock seconds of the whole call (input conversion + solve).")
      .def_property_readonly(
          "timings",
          [](const py_result& r) {
            const auto& t = r.get().timings();
            py::dict d;
            d["setup"] = t.setup_seconds;
            d["solve"] = t.solve_seconds;
            d["finish"] = t.finish_seconds;
            return d;
          },
          "The library's own stage timings in seconds: setup, solve, finish.")
      .def("_take_distances", &py_result::take_distances)
      .def("_take_predecessors",
           [](const py_result& r) {
             const auto& res = r.get();
             apsp::dense_matrix<std::int32_t> pred;
             {
               py::gil_scoped_release release;
               pred = res.predecessors();
             }
             return to_numpy(std::move(pred));
           })
      .def("__repr__", [](const py_result& r) {
        const auto& res = r.get();
        return "<apsp.Result n=" + std::to_string(res.n()) +
               " dtype=" + std::string(apsp::to_string(res.type())) +
               " backend=" + std::string(apsp::to_string(res.executed_plan().backend)) +
               " paths=" + (res.has_paths() ? "True" : "False") +
               " seconds=" + std::to_string(r.seconds()) + ">";
      });
}

} // namespace apsp_py
