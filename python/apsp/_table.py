"""apsp.table: the distances from some sources to some targets (a routing engine's "table" or
"matrix" service), never the n x n matrix."""

import operator

import numpy as np

from . import _core, _inputs, _networkx, _progress


def table(graph, sources, targets, *, directed=True, unweighted=False, dtype=None,
          weight="weight", threads=0, return_engine=False):
    """The ``len(sources) x len(targets)`` table of shortest-path distances.

    ``graph`` is an :class:`apsp.Graph`, a SciPy sparse matrix or a NetworkX graph (whose
    ``sources`` and ``targets`` are nodes); ``sources`` and ``targets`` are sequences of
    vertices, repeats allowed. Entry ``[i, j]`` is the distance from ``sources[i]`` to
    ``targets[j]``: 0 where they are one vertex, inf (or ``apsp.no_path(dtype)`` for integer
    types) where no path leads. ``directed``, ``unweighted``, ``dtype`` and ``weight`` are as in
    :func:`apsp.dijkstra`; ``threads`` sets the CPU threads (0 = all).

    apsp's planner chooses the engine, as for ``apsp solve --sources/--targets``: on road-like
    graphs with integer weights a contraction hierarchy and its bucket searches, else Dijkstra
    from the smaller set, or the whole matrix cut down where that is faster; integer tables are
    exactly Dijkstra's. Negative weights go through Bellman-Ford potentials; a negative cycle
    anywhere raises :class:`apsp.NegativeCycleError`. With ``return_engine=True`` returns
    ``(table, engine)``, the engine in words (for example "contraction hierarchy table
    (buckets), 2 threads").
    """
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
