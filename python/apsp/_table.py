"""apsp.table: the distances from some sources to some targets (a routing engine's "table" or
"matrix" service), never the n x n matrix."""

import operator

import numpy as np

from . import _core, _inputs, _networkx, _progress


def table(graph, sources, targets, *, directed=True, unweighted=False, dtype=None,
          weight="weight", threads=0, return_engine=False, second=None):
    """The ``len(sources) x len(targets)`` table of shortest-path distances.

    ``graph`` is an :class:`apsp.Graph`, a SciPy sparse matrix or a NetworkX graph (whose
    ``sources`` and ``targets`` are nodes); ``sources`` and ``targets`` are sequences of
    vertices, repeats allowed. Entry ``[i, j]`` is the distance from ``sources[i]`` to
    ``targets[j]``: 0 where they are one vertex, inf (or ``apsp.no_path(dtype)`` for integer
    types) where no path leads. ``directed``, ``unweighted``, ``dtype`` and ``weight`` are as in
    :func:`apsp.dijkstra`; ``threads`` sets the CPU threads (0 = all).

    apsp's planner chooses the engine, as for ``apsp solve --sources/--targets``: on road-like
    graphs with integer weights a contraction hierarchy with RPHAST's restricted sweeps or its
    bucket searches (whichever the cost model says is sooner), else Dijkstra from the smaller set, or the whole matrix cut down where that is faster; integer tables are
    exactly Dijkstra's. Negative weights go through Bellman-Ford potentials; a negative cycle
    anywhere raises :class:`apsp.NegativeCycleError`. With ``return_engine=True`` returns
    ``(table, engine)``, the engine in words (for example "contraction hierarchy table
    (RPHAST, default lanes), 2 threads").

    ``second`` asks for a second value per cell, as routing engines give it: along the path
    each distance was found on (of the paths of least weight, the one with the least second
    sum), the sum of a second weight per edge, such as a length beside a travel time. For a
    NetworkX graph it names an edge attribute; for a SciPy sparse (or dense) matrix it is a
    matrix of the same shape whose entries at the graph's edges are the second weights (finite,
    >= 0). ``dtype`` must then be ``"int32"`` or ``"int64"`` (the paths are chosen exactly),
    and the call returns ``(table, sums)``, the sums in float64 (inf where no path leads), or
    ``(table, sums, engine)``.
    """
    if second is not None:
        return _table_along(graph, sources, targets, second, directed=directed,
                            unweighted=unweighted, dtype=dtype, weight=weight, threads=threads,
                            return_engine=return_engine)
    graph, directed, nodes = _networkx.prepare(graph, weight, directed)
    if nodes is not None:
        s = np.atleast_1d(_networkx.source_positions(list(sources), nodes)).tolist()
        t = np.atleast_1d(_networkx.source_positions(list(targets), nodes)).tolist()
    else:
        s, t = _vertex_list(sources, "sources"), _vertex_list(targets, "targets")
    kwargs = dict(directed=bool(directed), unweighted=bool(unweighted),
                  dtype=_inputs.normalize_dtype(dtype), threads=_thread_count(threads))
    with _progress.callback_for(None) as callback:  # Ctrl-C still stops the table
        if isinstance(graph, _core.Graph):
            out, engine = _core.solve_table_graph(graph, s, t, **kwargs, progress=callback)
        else:
            edges = _inputs.edge_list(graph)
            out, engine = _core.solve_table_edges(edges.n, edges.rows, edges.cols, edges.weights,
                                                  s, t, **kwargs, progress=callback)
    return (out, engine) if return_engine else out


def _vertex_list(vertices, what):
    try:
        items = vertices.tolist() if isinstance(vertices, np.ndarray) else list(vertices)
        return [operator.index(v) for v in items]
    except TypeError:
        raise TypeError(f"{what} must be a sequence of integer vertices") from None


def _thread_count(threads):
    try:
        threads = operator.index(threads)
    except TypeError:
        raise TypeError(f"threads must be an integer, not {type(threads).__name__}") from None
    if threads < 0:
        raise ValueError(f"threads must be >= 0 (0 = all), got {threads}")
    return threads


def _table_along(graph, sources, targets, second, *, directed, unweighted, dtype, weight,
                 threads, return_engine):
    if isinstance(graph, _core.Graph):
        raise TypeError("second= needs a NetworkX graph or a matrix; an apsp.Graph holds one "
                        "weight per edge (the command line reads a second CSV column: "
                        "--second-weight)")
    if unweighted:
        raise TypeError("second= and unweighted=True do not go together")
    if _networkx.is_networkx_graph(graph):
        if not isinstance(second, str):
            raise TypeError("for a NetworkX graph, second= names an edge attribute")
        edges, nodes = _networkx.edge_list(graph, weight)
        lengths = _networkx.edge_list(graph, second)[0].weights
        directed = bool(directed) and graph.is_directed()
        s = np.atleast_1d(_networkx.source_positions(list(sources), nodes)).tolist()
        t = np.atleast_1d(_networkx.source_positions(list(targets), nodes)).tolist()
    else:
        edges = _inputs.edge_list(graph)
        sparse = _inputs._sparse_module()
        values = (sparse.csr_matrix(second) if sparse is not None and sparse.issparse(second)
                  else np.asarray(second, dtype=np.float64))
        if values.shape != (edges.n, edges.n):
            raise ValueError(f"second must be a matrix of the graph's shape {(edges.n, edges.n)}, "
                             f"not {values.shape}")
        lengths = np.asarray(values[edges.rows, edges.cols], dtype=np.float64).ravel()
        s, t = _vertex_list(sources, "sources"), _vertex_list(targets, "targets")
    rows, cols = np.asarray(edges.rows), np.asarray(edges.cols)
    weights, lengths = np.asarray(edges.weights), np.asarray(lengths)
    if not directed:  # each edge both ways (a self-loop once), its second weight with it
        back = rows != cols
        rows, cols = np.concatenate([rows, cols[back]]), np.concatenate([cols, rows[back]])
        weights = np.concatenate([weights, weights[back]])
        lengths = np.concatenate([lengths, lengths[back]])
    dtype = _inputs.normalize_dtype("int32" if dtype is None else dtype)
    out, sums, engine = _core.solve_table_along_edges(edges.n, rows, cols, weights, lengths, s, t,
                                                      dtype=dtype, threads=_thread_count(threads))
    return (out, sums, engine) if return_engine else (out, sums)
