"""NetworkX's distance measures by NetworkX's names, defaults and result shapes, computed by
apsp.metrics.

For a NetworkX graph these return what NetworkX 2.8 returns: dicts keyed by node for the
per-vertex values, numbers otherwise. ``distance=None`` / ``weight=None`` (the default) means
every edge weighs 1; a string names the edge attribute (an edge without it weighs 1). Where
NetworkX raises (eccentricity, diameter and radius on a graph that is not strongly connected,
average_shortest_path_length on one that is not weakly connected, global_efficiency on a
directed graph) these raise too, with exceptions that are also NetworkX's classes when networkx
is importable. For a NumPy or SciPy matrix (or an apsp.Graph) they return NumPy arrays indexed
by vertex; ``distance``/``weight`` None then means hop counts too, and any string uses the
matrix's values. Keyword options (``threads``, ``backend``, ``algorithm``, ``dtype``,
``progress``, and ``directed`` for a matrix) go to :func:`apsp.metrics`.
"""

import numpy as np

from . import _errors, _inputs, _networkx
from ._api import no_path, solve
from ._metrics import metrics as _metrics

_PATH_METHODS = ("unweighted", "dijkstra", "bellman-ford", "floyd-warshall",
                 "floyd-warshall-numpy")


def _run(G, weight, names, **options):
    """apsp.metrics of G with NetworkX's weight rule."""
    if _networkx.is_networkx_graph(G):
        return _metrics(G, weight=weight, metrics=names, **options)
    return _metrics(G, unweighted=weight is None, metrics=names, **options)


def _is_directed(G, options):
    if _networkx.is_networkx_graph(G):
        return G.is_directed()
    return bool(options.get("directed", True))


def _not_connected(G, options):
    what = "digraph is not strongly" if _is_directed(G, options) else "graph is not"
    return _errors.networkx_compatible(
        _errors.NotConnectedError, "NetworkXError",
        f"Found infinite path length because the {what} connected")


def _whole(value, weight):
    """Hop counts as ints, as NetworkX gives them."""
    return int(value) if weight is None else value


def closeness_centrality(G, u=None, distance=None, wf_improved=True, **options):
    """``networkx.closeness_centrality``: (r / S) * (r / (n - 1)) from the distances TO each
    vertex (inward on a directed graph), r the vertices that reach it, S their distance sum;
    0 where none reaches. A dict by node (an array for a matrix), or the value of ``u``."""
    values = _run(G, distance, ["closeness"], wf_improved=wf_improved, **options).closeness
    return values if u is None else values[u]


def harmonic_centrality(G, nbunch=None, distance=None, sources=None, **options):
    """``networkx.harmonic_centrality``: the sum of 1 / d(u, v) over the u (in ``sources``,
    default all) that reach v at a distance > 0, for each v (in ``nbunch``, default all)."""
    nx_graph = _networkx.is_networkx_graph(G)
    if sources is None:
        values = _run(G, distance, ["harmonic"], **options).harmonic
    else:
        values = _harmonic_from(G, sources, distance, nx_graph, options)
    if nbunch is None:
        return values
    if nx_graph:
        return {v: values[v] for v in G.nbunch_iter(nbunch)}
    return values[rows_in(nbunch)]


def _harmonic_from(G, sources, distance, nx_graph, options):
    """Harmonic centrality counting the given sources only: their rows, never n x n."""
    if nx_graph:
        chosen = list(dict.fromkeys(G.nbunch_iter(sources)))
        block = solve(G, sources=chosen, weight=distance, **options)
    else:
        chosen = np.unique(rows_in(sources))
        block = solve(G, sources=chosen, unweighted=distance is None, **options)
    d = np.asarray(block, dtype=np.float64)
    if block.dtype.kind in "iu":
        d[np.asarray(block) == no_path(block.dtype)] = np.inf
    inverse = np.zeros_like(d)
    positive = np.isfinite(d) & (d > 0)
    inverse[positive] = 1.0 / d[positive]
    values = inverse.sum(axis=0)
    return dict(zip(list(G), values.tolist())) if nx_graph else values


def rows_in(vertices):
    return np.atleast_1d(np.asarray(vertices, dtype=np.intp))


def eccentricity(G, v=None, weight=None, **options):
    """``networkx.eccentricity``: the largest distance from v to any vertex. Raises
    NotConnectedError (networkx.NetworkXError) when an asked vertex does not reach every
    other. A dict by node (an array for a matrix), or the value of a single ``v``."""
    m = _run(G, weight, ["out-eccentricity", "reachable"], **options)
    if _networkx.is_networkx_graph(G):
        single = v is not None and v in G
        asked = [v] if single else list(G if v is None else G.nbunch_iter(v))
        if any(m.reach_out[u] != m.n - 1 for u in asked):
            raise _not_connected(G, options)
        ecc = {u: _whole(m.out_eccentricity[u], weight) for u in asked}
        return ecc[v] if single else ecc
    asked = np.arange(m.n) if v is None else rows_in(v)
    if np.any(m.reach_out[asked] != m.n - 1):
        raise _not_connected(G, options)
    ecc = m.out_eccentricity[asked]
    return ecc[0] if v is not None and np.ndim(v) == 0 else ecc


def _extreme(G, e, weight, name, options):
    """diameter (name 'diameter') or radius ('radius') of a strongly connected graph."""
    if e is not None:
        values = list(e.values()) if isinstance(e, dict) else np.asarray(e).tolist()
        return max(values) if name == "diameter" else min(values)
    m = _run(G, weight, [name, "reachable-pairs"], **options)
    if m.n == 0:
        raise _errors.networkx_compatible(_errors.NullGraphError, "NetworkXPointlessConcept",
                                          f"the null graph has no {name}")
    if m.reachable_pairs != m.n * (m.n - 1):
        raise _not_connected(G, options)
    return _whole(m[name], weight)


def diameter(G, e=None, usebounds=False, weight=None, **options):
    """``networkx.diameter``: the largest eccentricity; raises NotConnectedError
    (networkx.NetworkXError) unless the graph is strongly connected. ``e``: eccentricities
    computed already. ``usebounds`` is accepted; the value is the same without it."""
    del usebounds
    return _extreme(G, e, weight, "diameter", options)


def radius(G, e=None, usebounds=False, weight=None, **options):
    """``networkx.radius``: the smallest eccentricity (see :func:`diameter`)."""
    del usebounds
    return _extreme(G, e, weight, "radius", options)


def average_shortest_path_length(G, weight=None, method=None, **options):
    """``networkx.average_shortest_path_length``: the sum of d(u, v) over ordered pairs with a
    path, divided by n (n - 1). As in NetworkX it raises for a null graph
    (NetworkXPointlessConcept), a directed graph that is not weakly connected or an undirected
    one that is not connected (NotConnectedError, a networkx.NetworkXError); a directed graph
    that is weakly but not strongly connected gets that sum over its reachable pairs, as
    NetworkX computes it. ``method='unweighted'`` counts hops whatever ``weight`` says."""
    if method is None:
        method = "unweighted" if weight is None else "dijkstra"
    if method not in _PATH_METHODS:
        raise ValueError(f"method not supported: {method}")
    if method == "unweighted":
        weight = None
    n = _vertex_count(G)
    if n == 0:
        raise _errors.networkx_compatible(
            _errors.NullGraphError, "NetworkXPointlessConcept",
            "the null graph has no paths, thus there is no average shortest path length")
    if n == 1:
        return 0
    directed = _is_directed(G, options)
    if not _weakly_connected(G, options):
        what = "weakly connected" if directed else "connected"
        raise _errors.networkx_compatible(_errors.NotConnectedError, "NetworkXError",
                                          f"Graph is not {what}.")
    m = _run(G, weight, ["average-path-length", "reachable-pairs"], **options)
    return m.average_path_length * m.reachable_pairs / (n * (n - 1))


def global_efficiency(G, **options):
    """``networkx.global_efficiency``: the mean of 1 / d(u, v) over ordered pairs u != v, in
    hops (unreachable pairs count 0). NetworkX implements it for undirected graphs only: a
    directed NetworkX graph raises DirectedGraphError (networkx.NetworkXNotImplemented). A
    matrix is read as a directed graph unless ``directed=False``."""
    if _networkx.is_networkx_graph(G) and G.is_directed():
        raise _errors.networkx_compatible(_errors.DirectedGraphError, "NetworkXNotImplemented",
                                          "not implemented for directed type")
    return _run(G, None, ["global-efficiency"], **options).global_efficiency


def _vertex_count(G):
    if _networkx.is_networkx_graph(G):
        return len(G)
    kind, g = _inputs.classify(G)
    return g[0].shape[0] if kind == "dense" else g.n


def _weakly_connected(G, options):
    """Whether G is connected when every edge is read both ways."""
    if _networkx.is_networkx_graph(G):
        import networkx
        return (networkx.is_weakly_connected(G) if G.is_directed()
                else networkx.is_connected(G))
    n, rows, cols = _edge_ends(G)
    label = np.arange(n)
    while True:
        low = np.minimum(label[rows], label[cols])
        merged = label.copy()
        np.minimum.at(merged, rows, low)
        np.minimum.at(merged, cols, low)
        merged = merged[merged]  # each vertex jumps to its label's label
        if np.array_equal(merged, label):
            return bool(np.all(label == label[0]))
        label = merged


def _edge_ends(G):
    """(n, tails, heads) of a matrix or apsp.Graph, with the "no edge" rules of floyd_warshall."""
    kind, g = _inputs.classify(G)
    if kind == "graph":
        src, dst, _ = g.edges
        return g.n, src.astype(np.intp), dst.astype(np.intp)
    if kind == "dense":
        g = _inputs.dense_edges(*g)
    arcs = ~np.isposinf(np.asarray(g.weights, dtype=np.float64))  # stored +inf is no edge
    return g.n, np.asarray(g.rows, np.intp)[arcs], np.asarray(g.cols, np.intp)[arcs]
