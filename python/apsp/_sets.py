"""apsp.solve(..., sources=, targets=): the |S| x |T| block of distances, never the n x n matrix.

Rows come from apsp::solve_from_sources (Dijkstra from each source, after Bellman-Ford
potentials where a weight is negative). For targets alone, and for fewer targets than sources,
the graph is reversed (its CSR transposed, or its edges swapped) and searched from the targets:
a column of distances to t is a row of distances from t in the reversed graph.
"""

import numpy as np

from . import _core, _dtype, _inputs, _networkx, _progress
from ._networkx import EdgeList
from ._sparse import rows_of


class _Forward:
    """The graph in a form solve_sources_* reads: an apsp.Graph, SciPy CSR arrays or an
    EdgeList (a dense matrix's edges under its "no edge" rule: 0, inf, NaN and masked entries
    off the diagonal)."""

    def __init__(self, csgraph):
        self.graph = self.csr = self.edges = None
        if isinstance(csgraph, _core.Graph):
            self.graph, self.n = csgraph, csgraph.n
            return
        csr = _inputs.csr_arrays(csgraph)
        if csr is not None:
            self.csr, self.n = csr, csr[0]
            return
        kind, g = _inputs.classify(csgraph)
        self.edges = _inputs.dense_edges(*g) if kind == "dense" else g
        self.n = self.edges.n

    def reversed(self):
        """The same graph with every arc turned round."""
        out = _Forward.__new__(_Forward)
        out.graph = out.csr = out.edges = None
        out.n = self.n
        if self.csr is not None:
            n, indptr, indices, data = self.csr
            import scipy.sparse  # csr_arrays found a SciPy matrix, so SciPy is here
            transposed = scipy.sparse.csr_matrix((data, indices, indptr), shape=(n, n)).T
            out.csr = _inputs.csr_arrays(transposed.tocsr())
        elif self.graph is not None:
            src, dst, weight = self.graph.edges
            out.edges = EdgeList(self.n, dst.astype(np.int64), src.astype(np.int64), weight)
        else:
            e = self.edges
            out.edges = EdgeList(e.n, e.cols, e.rows, e.weights)
        return out

    def rows(self, sources, **kwargs):
        """|sources| x n distances from apsp::solve_from_sources."""
        if self.graph is not None:
            dist, _, _ = _core.solve_sources_graph(self.graph, sources, **kwargs)
        elif self.csr is not None:
            dist, _, _ = _core.solve_sources_csr(*self.csr, sources, **kwargs)
        else:
            e = self.edges
            dist, _, _ = _core.solve_sources_edges(e.n, e.rows, e.cols, e.weights, sources,
                                                   **kwargs)
        return dist

    def weights(self):
        """The weights, an array (for dtype=None's choice)."""
        if self.graph is not None:
            return self.graph.edges[2]
        return self.csr[3] if self.csr is not None else self.edges.weights


def _positions(vertices, n, nodes):
    if vertices is None:
        return None
    if nodes is not None:
        return np.atleast_1d(_networkx.source_positions(vertices, nodes))
    return np.atleast_1d(rows_of(vertices, n))


def solve_block(csgraph, sources, targets, *, directed, unweighted, dtype, threads, progress,
                nodes):
    """Distances from `sources` (rows) to `targets` (columns), each None for every vertex, as a
    2-D array; a NetworkX graph's `nodes` label the columns. A negative cycle anywhere raises,
    as the full solve does."""
    forward = _Forward(csgraph)
    s = _positions(sources, forward.n, nodes)
    t = _positions(targets, forward.n, nodes)
    # Search from the smaller side: a column of distances to t is a row from t in the
    # reversed graph (the graph itself when undirected).
    from_targets = s is None or (t is not None and len(t) < len(s))
    searched = forward.reversed() if from_targets and directed else forward
    kwargs = dict(directed=bool(directed), unweighted=bool(unweighted),
                  threads=_inputs.normalize_threads(threads), predecessors=False,
                  whole_graph_cycles=True)
    with _progress.callback_for(progress) as callback:
        if from_targets:
            block = _dtype.solve_in(
                dtype, lambda name: searched.rows(t, **kwargs, dtype=name, progress=callback),
                forward.weights, unweighted)
            block = np.ascontiguousarray((block if s is None else block[:, s]).T)
        else:
            block = _dtype.solve_in(
                dtype, lambda name: searched.rows(s, **kwargs, dtype=name, progress=callback),
                forward.weights, unweighted)
            block = block if t is None else np.ascontiguousarray(block[:, t])
    column_nodes = None
    if nodes is not None:
        column_nodes = nodes if targets is None else [nodes[k] for k in t]
    return _networkx.labelled(block, column_nodes)
