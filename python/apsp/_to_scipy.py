"""A graph's edges as a SciPy sparse matrix that keeps what apsp solves: of parallel edges the
lightest, where ``scipy.sparse.csr_matrix((w, (src, dst)))`` adds them up (rome99.gr has
parallel arcs, and such a sum changes tens of thousands of its distances)."""

import numpy as np

from . import _core, _inputs, _networkx


def to_scipy(graph, *, weight="weight", directed=True):
    """``graph`` (an :class:`apsp.Graph`, a NetworkX or an igraph graph) as an n x n
    ``scipy.sparse.csr_matrix``: entry ``[u, v]`` is the least weight of the edges u -> v, a
    zero weight stored as an explicit zero (SciPy's csgraph routines read stored entries as
    edges), so that SciPy's shortest paths on it equal apsp's on ``graph``. An undirected graph
    (a NetworkX or igraph one, or ``directed=False``) gives both directions. Vertex k is
    position k (a NetworkX graph's ``list(G)[k]``). ``weight`` names a NetworkX or igraph edge
    attribute (None: every edge weighs 1)."""
    sparse = _inputs._sparse_module()
    if sparse is None:
        raise ImportError("apsp.to_scipy needs SciPy (Debian: python3-scipy)")
    if isinstance(graph, _core.Graph):
        if weight != "weight":
            raise TypeError("weight= names an edge attribute of a NetworkX or igraph graph")
        src, dst, w = graph.edges
        n = graph.n
    else:
        edges, directed, _ = _networkx.prepare(graph, weight, directed)
        if not isinstance(edges, _networkx.EdgeList):
            raise TypeError(f"apsp.to_scipy takes an apsp.Graph, a NetworkX or an igraph graph, "
                            f"not a {type(graph).__name__}")
        src, dst, w, n = edges.rows, edges.cols, edges.weights, edges.n
    src, dst, w = (np.asarray(a) for a in (src, dst, w))
    if not directed:
        src, dst, w = np.concatenate([src, dst]), np.concatenate([dst, src]), np.tile(w, 2)
    # Sorted by (src, dst, weight): the first of each (src, dst) run is its lightest edge.
    order = np.lexsort((w, dst, src))
    src, dst, w = src[order], dst[order], w[order]
    first = np.ones(len(src), dtype=bool)
    first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    return sparse.csr_matrix((w[first], (src[first], dst[first])), shape=(n, n))


def graph_to_scipy(self):
    """The graph as a scipy.sparse.csr_matrix, parallel edges keeping the least weight (see
    apsp.to_scipy)."""
    return to_scipy(self)
