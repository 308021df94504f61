// solve_sources_csr / solve_sources_edges / solve_sources_graph: SciPy's `indices=` (apsp.dijkstra,
// johnson, bellman_ford, shortest_path), called by apsp/_sparse.py. The engine is the planner's,
// as for `apsp solve --sources`: make_plan(g, options, plan_request::block(|S|, every vertex))
// says Dijkstra from the sources (always when predecessors are asked: their tie rule), a
// contraction hierarchy's table or the whole matrix cut to the rows. Dijkstra's rows come from
// apsp::solve_from_sources with SciPy's cycle scope; a CSR matrix's own arrays are searched in
// place there (the planner reads an edge-list copy, freed before the rows are made). The rows
// come back as NumPy arrays that own the library's vectors (no copy), |S| x n.

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "apsp/sources.hpp"
#include "apsp/table.hpp"
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

/// Rows for the sources and the engine that made them, in words (apsp::to_string of the plan's
/// driver, with why where it is not the plan's).
struct planned_rows {
  apsp::source_result rows;
  std::string engine;
};

/// The options of the plan for the sources' rows.
apsp::solve_options plan_options(const apsp::source_options& o) {
  apsp::solve_options so;
  so.type = o.type;
  so.threads = o.threads;
  so.paths = o.predecessors;
  return so;
}

/// The plan for `count` sources of `g` (every vertex a target), as `apsp solve --sources` plans.
apsp::plan plan_rows(const apsp::graph& g, std::size_t count, const apsp::source_options& o) {
  return apsp::make_plan(g, plan_options(o),
                         apsp::plan_request::block(static_cast<std::int64_t>(count), -1));
}

/// Runs `p`: Dijkstra's rows by `search(options)` (drivers::block_rows), else the table or the
/// whole matrix by apsp::solve_table_into, the rows cut to every vertex. Under SciPy's
/// dijkstra/bellman_ford scope (a negative cycle counts only where a source reaches it), a
/// negative cycle that refuses those engines sends the call to Dijkstra's rows, which raise only
/// for a reachable one.
template <class Search>
planned_rows run_plan(const apsp::graph* g, const apsp::plan& p,
                      std::span<const std::int64_t> sources, const apsp::source_options& o,
                      Search&& search) {
  planned_rows out;
  out.engine = apsp::to_string(p.run);
  if (g == nullptr || std::holds_alternative<apsp::drivers::block_rows>(p.run)) {
    out.rows = search(sources, o);
    return out;
  }
  // Predecessors are planned as Dijkstra's trees (plan_request::block with paths).
  APSP_EXPECTS(!o.predecessors, apsp::invalid_argument_error,
               "predecessor rows need Dijkstra from the sources, not " + out.engine);
  apsp::solve_options so;
  so.type = o.type;
  so.threads = o.threads;
  so.progress = o.progress;
  std::vector<std::int64_t> every(static_cast<std::size_t>(g->num_vertices()));
  std::iota(every.begin(), every.end(), std::int64_t{0});
  try {
    const apsp::plan ran = apsp::solve_table_into(*g, sources, every, p, so, out.rows.distances);
    out.engine = apsp::to_string(ran.run);
  } catch (const apsp::negative_cycle_error&) {
    if (o.cycles == apsp::cycle_scope::whole_graph)
      throw;
    out.rows = search(sources, o);
    out.engine = "dijkstra from the sources (a negative cycle refused " + out.engine + ")";
    return out;
  }
  out.rows.n = g->num_vertices();
  out.rows.sources.assign(sources.begin(), sources.end());
  return out;
}

apsp::source_options options_of(const source_call& c) {
  if (c.threads < 0)
    throw py::value_error("threads must be >= 0 (0 = all hardware threads)");
  apsp::source_options o;
  o.type = apsp::parse_dtype(c.dtype);
  o.predecessors = c.predecessors;
  o.threads = c.threads;
  o.cycles = c.whole_graph_cycles ? apsp::cycle_scope::whole_graph : apsp::cycle_scope::reachable;
  return o;
}

std::span<const std::int64_t> sources_of(const int_array& sources) {
  if (sources.ndim() != 1)
    throw py::value_error("sources must be 1-D");
  return {sources.data(), static_cast<std::size_t>(sources.size())};
}

/// Plans and solves with the GIL released (the progress bridge takes it back for callbacks and
/// Ctrl-C); returns (distances, predecessors or None, engine). A graph of `n` vertices and `m`
/// arcs: where those counts decide the plan (apsp::make_plan_by_counts: a small block is
/// Dijkstra's rows) no graph is made; else `make_graph()` gives the graph the planner reads
/// (and the table or the whole matrix runs on). `search(sources, options)`: Dijkstra's rows.
template <class MakeGraph, class Search>
py::tuple solve(const int_array& sources, const source_call& c, std::int64_t n, std::int64_t m,
                MakeGraph&& make_graph, Search&& search) {
  apsp::source_options o = options_of(c);
  const std::span<const std::int64_t> s = sources_of(sources);
  progress_bridge bridge(c.progress);
  o.progress = bridge.callback();
  planned_rows r;
  try {
    py::gil_scoped_release release;
    const auto count = static_cast<std::int64_t>(s.size());
    if (std::optional<apsp::plan> p =
            apsp::make_plan_by_counts(n, m, plan_options(o), apsp::plan_request::block(count, -1));
        p && std::holds_alternative<apsp::drivers::block_rows>(p->run)) {
      r = run_plan(nullptr, *p, s, o, search);
    } else {
      std::optional<apsp::graph> planned_on;
      const apsp::graph& g = make_graph(planned_on);
      const apsp::plan q = plan_rows(g, s.size(), o);
      const bool rows = std::holds_alternative<apsp::drivers::block_rows>(q.run);
      if (rows)
        planned_on.reset(); // a copy made for the planner only: freed before the rows are made
      r = run_plan(rows ? nullptr : &g, q, s, o, search);
    }
  } catch (const apsp::cancelled_error&) {
    bridge.raise_pending();
    throw;
  }
  const auto count = static_cast<std::int64_t>(r.rows.sources.size());
  py::array dist = std::visit(
      [&](auto& v) -> py::array {
        return owning_array(std::move(v), {count, r.rows.n});
      },
      r.rows.distances);
  py::object pred = py::none();
  if (c.predecessors)
    pred = owning_array(std::move(r.rows.predecessors), {count, r.rows.n});
  return py::make_tuple(dist, pred, r.engine);
}

/// solve() on an apsp::graph held by the caller.
py::tuple solve_on(const apsp::graph& g, const int_array& sources, const source_call& c) {
  return solve(
      sources, c, g.num_vertices(), g.num_edges(),
      [&](std::optional<apsp::graph>&) -> const apsp::graph& { return g; },
      [&](std::span<const std::int64_t> s, const apsp::source_options& o) {
        return apsp::solve_from_sources(g, s, o);
      });
}

template <class T> std::span<const T> span_of(const py::array& a) {
  return {static_cast<const T*>(a.data()), static_cast<std::size_t>(a.size())};
}

template <class T> bool holds(const py::array& a) {
  return a.dtype().is(py::dtype::of<T>()) && a.ndim() == 1 && (a.flags() & py::array::c_style) != 0;
}

/// SciPy's CSR arrays (apsp::csr_view): indptr and indices both int32 or both int64, data
/// float64 or float32, each 1-D and contiguous (apsp/_inputs.py sees to it). Dijkstra's rows
/// read them in place; the planner, the table and the whole matrix read an edge-list copy.
template <class Index>
py::tuple solve_csr(std::int64_t n, const py::array& indptr, const py::array& indices,
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
    // The arcs the graph's copy would hold: both ways of every stored entry when symmetric.
    const auto arcs = static_cast<std::int64_t>(g.targets.size()) * (directed ? 1 : 2);
    return solve(
        sources, c, n, arcs,
        [&](std::optional<apsp::graph>& copy) -> const apsp::graph& {
          return copy.emplace(apsp::graph_of(g));
        },
        [&](std::span<const std::int64_t> s, const apsp::source_options& o) {
          return apsp::solve_from_sources(g, s, o);
        });
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
        return solve_on(
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
          return solve_csr<std::int32_t>(n, indptr, indices, data, sources, directed, unweighted,
                                         c);
        if (holds<std::int64_t>(indptr) && holds<std::int64_t>(indices))
          return solve_csr<std::int64_t>(n, indptr, indices, data, sources, directed, unweighted,
                                         c);
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
          return solve_on(graph.file->g, sources, c);
        return solve_on(transform_graph(graph.file->g, directed, unweighted), sources, c);
      },
      py::arg("graph"), py::arg("sources"), py::kw_only(), py::arg("directed"),
      py::arg("unweighted"), py::arg("dtype"), py::arg("predecessors"), py::arg("threads"),
      py::arg("whole_graph_cycles"), py::arg("progress"));
}

} // namespace apsp_py
