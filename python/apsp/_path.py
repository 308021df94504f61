"""Path reconstruction from a SciPy-style predecessor matrix or an apsp.Result, and one
pair's shortest path on a graph by one search."""

import operator

import numpy as np

from . import _core, _inputs, _networkx, _progress


def path(source, i, j, *, indices=None, directed=True, unweighted=False, dtype=None,
         weight="weight", return_distance=False):
    """Vertices of a shortest path from ``i`` to ``j``.

    ``source`` is one of:

    * a graph (an :class:`apsp.Graph`, a SciPy sparse matrix or a NetworkX graph): one
      bidirectional Dijkstra search for the pair (Bellman-Ford potentials first when a weight
      is negative), in memory O(n + m) whatever n; of the shortest paths, one with the fewest
      edges. ``directed``, ``unweighted``, ``dtype`` and ``weight`` are as in
      :func:`apsp.dijkstra`; a NetworkX graph takes and returns nodes. Raises
      :class:`apsp.NegativeCycleError` for a negative cycle anywhere in the graph. With
      ``return_distance=True`` returns ``(distance, path)``, the distance in ``dtype`` (inf, or
      ``apsp.no_path(dtype)`` for integer types, when ``j`` is unreachable);
    * a predecessor matrix as returned by ``floyd_warshall(..., return_predecessors=True)``
      (``pred[i, j]`` = vertex before ``j``, -9999 for none; SciPy's own matrices work too), or
      the predecessor rows that ``dijkstra(..., indices=S, return_predecessors=True)`` returns
      (of apsp or SciPy), with ``indices=S`` as given there: row k is vertex ``S[k]``'s, and
      ``i`` must be one of ``S`` (a 1-D row for a single ``S``);
    * a :class:`Result` of :func:`solve`.

    Returns ``[i, ..., j]``, ``[i]`` when ``i == j``, and ``[]`` when ``j`` is unreachable from
    ``i``.
    """
    if indices is not None and (_is_graph(source) or isinstance(source, _core.Result)):
        raise TypeError("indices= names the sources of predecessor rows (as given to "
                        "dijkstra(indices=...)); a graph or a Result takes none")
    if _is_graph(source):
        return _searched_path(source, i, j, directed=directed, unweighted=unweighted,
                              dtype=dtype, weight=weight, return_distance=return_distance)
    if not (directed is True and unweighted is False and dtype is None and weight == "weight"
            and return_distance is False):
        raise TypeError("directed, unweighted, dtype, weight and return_distance apply to a "
                        "graph (apsp.Graph, SciPy sparse, NetworkX, igraph), not to a "
                        "predecessor matrix or a Result")
    try:  # whole numbers only (NumPy integers too), never a float or a string
        i, j = operator.index(i), operator.index(j)
    except TypeError:
        raise TypeError(f"vertices must be integers, not {type(i).__name__} and "
                        f"{type(j).__name__}") from None
    if isinstance(source, _core.Result):
        return source.path(i, j)
    pred = np.asarray(source)
    if pred.dtype.kind not in "iu":
        raise ValueError(f"a predecessor matrix holds integers, not {pred.dtype}")
    row = _predecessor_row(pred, i, indices)
    n = row.shape[0]
    if not (0 <= i < n and 0 <= j < n):
        raise ValueError(f"vertex pair ({i}, {j}) is outside 0..{n - 1}")
    if i == j:
        return [i]
    if row[j] < 0:
        return []
    out = [j]
    k = j
    while k != i:
        k = int(row[k])
        if k < 0 or k >= n or len(out) > n:
            raise ValueError(f"the predecessor matrix has no valid path from {i} to {j}")
        out.append(k)
    out.reverse()
    return out


def _predecessor_row(pred, i, indices):
    """Vertex i's row of predecessors: pred[i] of an n x n matrix, or the row of i among the
    rows of dijkstra(indices=...)."""
    if indices is None:
        if pred.ndim != 2 or pred.shape[0] != pred.shape[1]:
            raise ValueError(f"the predecessor matrix must be square and 2-D, not of shape "
                             f"{pred.shape}; for the rows of dijkstra(indices=S, "
                             "return_predecessors=True) pass indices=S")
        return pred[i]
    sources = np.asarray(indices)
    if sources.dtype.kind not in "iu":
        raise TypeError(f"indices must be vertex numbers, not {sources.dtype}")
    rows = pred.reshape(1, -1) if sources.ndim == 0 and pred.ndim == 1 else pred
    sources = sources.reshape(-1)
    if rows.ndim != 2 or rows.shape[0] != len(sources):
        raise ValueError(f"{len(sources)} indices but predecessor rows of shape {pred.shape}: "
                         "pass the indices given to dijkstra with its predecessors")
    at = np.flatnonzero(sources == i)
    if len(at) == 0:
        raise ValueError(f"vertex {i} is not among the indices whose predecessor rows these "
                         "are; a path from it needs its own row")
    return rows[at[0]]


def _is_graph(source):
    if isinstance(source, _core.Graph) or _networkx.is_networkx_graph(source):
        return True
    from . import _igraph

    if _igraph.is_igraph_graph(source):
        return True
    sparse = _inputs._sparse_module()
    return sparse is not None and sparse.issparse(source)


def _searched_path(source, i, j, *, directed, unweighted, dtype, weight, return_distance):
    graph, directed, nodes = _networkx.prepare(source, weight, directed)
    if nodes is not None:
        s, t = _networkx.source_positions([i, j], nodes).tolist()
    else:
        try:  # whole numbers only (NumPy integers too), never a float or a string
            s, t = operator.index(i), operator.index(j)
        except TypeError:
            raise TypeError(f"vertices must be integers, not {type(i).__name__} and "
                            f"{type(j).__name__}") from None
    kwargs = dict(directed=bool(directed), unweighted=bool(unweighted),
                  dtype=_inputs.normalize_dtype(dtype))
    with _progress.callback_for(None) as callback:  # Ctrl-C still stops the search
        if isinstance(graph, _core.Graph):
            distance, found = _core.solve_pair_graph(graph, s, t, **kwargs, progress=callback)
        else:
            edges = _inputs.edge_list(graph)
            distance, found = _core.solve_pair_edges(edges.n, edges.rows, edges.cols,
                                                     edges.weights, s, t, **kwargs,
                                                     progress=callback)
    if nodes is not None:
        found = [nodes[k] for k in found]
    return (distance, found) if return_distance else found
