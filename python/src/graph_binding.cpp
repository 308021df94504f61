#include "graph_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <span>
#include <string>

#include "apsp/error.hpp"
#include "edge_input.hpp"
#include "numpy_owner.hpp"

namespace apsp_py {
namespace {

/// Read-only 1-D view of a vector owned by the graph that `self` keeps alive.
template <class T> py::array vector_view(const std::vector<T>& v, const py::object& self) {
  const std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(v.size())};
  const std::vector<py::ssize_t> strides{static_cast<py::ssize_t>(sizeof(T))};
  py::array a = py::array_t<T>(shape, strides, v.data(), self);
  a.attr("flags").attr("writeable") = false;
  return a;
}

/// Vertex ids as int64: integer arrays as they are, float arrays only when every value is a
/// whole number (a cast would truncate 0.7 to vertex 0 without a word), nothing else.
int_array vertex_ids(const py::object& ids, const char* what) {
  const py::array a = py::array::ensure(ids);
  if (!a)
    throw py::type_error(std::string(what) + " must be an array of vertex ids");
  const char kind = a.dtype().kind();
  if (kind == 'f') {
    const py::object np = py::module_::import("numpy");
    if (!np.attr("all")(np.attr("equal")(np.attr("trunc")(a), a)).cast<bool>())
      throw py::value_error(std::string(what) + " holds vertex ids that are not whole numbers");
  } else if (kind != 'i' && kind != 'u') {
    throw py::type_error(std::string(what) + " must hold integer vertex ids, not " +
                         py::str(a.dtype()).cast<std::string>());
  }
  return int_array::ensure(a);
}

/// A file's id as str: bytes that are not UTF-8 become lone surrogates (as os.fsdecode makes
/// them), so every id has a str and turns back into the same bytes in index().
py::str id_text(const std::string& id) {
  PyObject* s =
      PyUnicode_DecodeUTF8(id.data(), static_cast<Py_ssize_t>(id.size()), "surrogateescape");
  if (s == nullptr)
    throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

/// The inverse of id_text.
std::string id_bytes(const py::str& id) {
  const py::bytes b = py::reinterpret_steal<py::bytes>(
      PyUnicode_AsEncodedString(id.ptr(), "utf-8", "surrogateescape"));
  if (!b)
    throw py::error_already_set();
  return b.cast<std::string>();
}

py_graph make_graph(std::int64_t n, const py::object& src_ids, const py::object& dst_ids,
                    const std::optional<double_array>& weight) {
  const int_array src = vertex_ids(src_ids, "src");
  const int_array dst = vertex_ids(dst_ids, "dst");
  if (src.ndim() != 1 || dst.ndim() != 1 || (weight && weight->ndim() != 1)) {
    throw py::value_error("src, dst and weight must be 1-D");
  }
  const auto m = static_cast<std::size_t>(src.size());
  std::vector<double> ones;
  std::span<const double> w;
  if (weight) {
    w = {weight->data(), static_cast<std::size_t>(weight->size())};
  } else {
    ones.assign(m, 1.0);
    w = ones;
  }
  auto file = std::make_shared<apsp::io::graph_file>();
  file->g = graph_from_edges(n, {src.data(), m}, {dst.data(), static_cast<std::size_t>(dst.size())},
                             w, true, false);
  file->labels = apsp::io::vertex_labels::numeric(n, 0);
  return py_graph{std::move(file)};
}

py_graph read(const std::string& path, const std::string& format, const std::string& weight_column,
              bool undirected) {
  apsp::io::read_options o;
  if (!format.empty())
    o.fmt = apsp::io::parse_format(format);
  o.weight_column = weight_column;
  o.undirected = undirected;
  auto file = std::make_shared<apsp::io::graph_file>();
  {
    py::gil_scoped_release release;
    *file = apsp::io::read_graph(path, o);
  }
  return py_graph{std::move(file)};
}

/// A file id given to Graph.index: a str (as .labels has it), bytes, or an int (NumPy's too;
/// not a bool) spelt in decimal, as integer ids are in a file.
std::string id_of(const py::object& id) {
  if (py::isinstance<py::str>(id))
    return id_bytes(id.cast<py::str>());
  if (py::isinstance<py::bytes>(id))
    return id.cast<std::string>();
  if (!py::isinstance<py::bool_>(id) && PyIndex_Check(id.ptr()) != 0) {
    const py::object whole = py::reinterpret_steal<py::object>(PyNumber_Index(id.ptr()));
    if (!whole)
      throw py::error_already_set();
    return py::str(whole).cast<std::string>();
  }
  throw py::type_error("a vertex id is a str (as in Graph.labels) or an int, not " +
                       py::str(py::type::handle_of(id).attr("__name__")).cast<std::string>());
}

} // namespace

apsp::graph graph_from_edge_arrays(std::int64_t n, const int_array& rows, const int_array& cols,
                                   const double_array& weights, bool directed, bool unweighted) {
  if (rows.ndim() != 1 || cols.ndim() != 1 || weights.ndim() != 1)
    throw py::value_error("edge arrays must be 1-D");
  py::gil_scoped_release release;
  return graph_from_edges(n, {rows.data(), static_cast<std::size_t>(rows.size())},
                          {cols.data(), static_cast<std::size_t>(cols.size())},
                          {weights.data(), static_cast<std::size_t>(weights.size())}, directed,
                          unweighted);
}

void bind_graph(py::module_& m) {
  py::class_<py_graph>(m, "Graph",
                       "A directed weighted graph as an edge list, with the vertex ids of the "
                       "file it was read from. Accepted by every solve function (stored edges "
                       "are edges, zero weights included; parallel edges keep the minimum).")
      .def(py::init(&make_graph), py::arg("n"), py::arg("src"), py::arg("dst"),
           py::arg("weight") = py::none(),
           "Graph(n, src, dst, weight=None): edges src[e] -> dst[e] (0-based) of weight "
           "weight[e] (1 when omitted).")
      .def_property_readonly(
          "n", [](const py_graph& g) { return g.file->g.num_vertices(); }, "Number of vertices.")
      .def_property_readonly("num_edges", [](const py_graph& g) { return g.file->g.num_edges(); })
      .def_property_readonly(
          "edges",
          [](const py::object& self) {
            const auto& g = self.cast<const py_graph&>().file->g;
            return py::make_tuple(vector_view(g.sources(), self), vector_view(g.targets(), self),
                                  vector_view(g.weights(), self));
          },
          "(src, dst, weight): read-only int32, int32, float64 arrays, 0-based vertices.")
      .def_property_readonly(
          "labels",
          [](const py_graph& g) {
            const auto& labels = g.file->labels;
            py::list out;
            for (std::int64_t i = 0; i < g.file->g.num_vertices(); ++i) {
              out.append(id_text(labels.size() > i ? labels.label(i) : std::to_string(i)));
            }
            return out;
          },
          "The file's id of every vertex, as strings (index = 0-based vertex).")
      .def(
          "label",
          [](const py_graph& g, std::int64_t i) {
            if (i < 0 || i >= g.file->g.num_vertices())
              throw py::index_error("no such vertex");
            return id_text(g.file->labels.size() > i ? g.file->labels.label(i) : std::to_string(i));
          },
          py::arg("i"), "The file's id of vertex i.")
      .def(
          "index",
          [](const py_graph& g, const py::object& id) {
            auto i = g.file->labels.find(id_of(id));
            if (!i)
              throw py::key_error("no vertex with id " + py::repr(id).cast<std::string>());
            return *i;
          },
          py::arg("id"),
          "The 0-based vertex of the file id `id`: a str as in .labels, or an int for files "
          "with integer ids (a DIMACS file's 1..n, an edge list's numbers); KeyError if none, "
          "TypeError for other types.")
      .def_property_readonly(
          "format",
          [](const py_graph& g) { return std::string(apsp::io::to_string(g.file->source_format)); })
      .def("__repr__", [](const py_graph& g) {
        return "<apsp.Graph n=" + std::to_string(g.file->g.num_vertices()) +
               " edges=" + std::to_string(g.file->g.num_edges()) +
               " format=" + std::string(apsp::io::to_string(g.file->source_format)) + ">";
      });

  m.def("read_graph", &read, py::arg("path"), py::arg("format"), py::arg("weight_column"),
        py::arg("undirected"));
}

} // namespace apsp_py
