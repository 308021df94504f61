"""apsp.Router: a graph's contraction hierarchy built once (or loaded from a file) and kept,
for the many distance tables and paths a routing service asks of one road graph."""

import os

import numpy as np

from . import _core, _inputs, _networkx
from ._table import _thread_count as _threads, _vertex_list

_INTEGER_DTYPES = ("int32", "int64")


class Router:
    """A contraction hierarchy of ``graph``, built once, for many tables and paths.

    ``graph`` is an :class:`apsp.Graph`, a SciPy sparse matrix or a NetworkX graph (whose
    vertices are then its nodes); ``directed`` and ``weight`` are as in :func:`apsp.table`.
    Weights must be whole numbers (round travel times to seconds or tenths first): the tables
    are then exactly Dijkstra's, in ``dtype`` (``"int32"``, the default, or ``"int64"``),
    ``apsp.no_path(dtype)`` where no path leads. Negative weights go through Bellman-Ford
    potentials kept with the hierarchy; a negative cycle raises
    :class:`apsp.NegativeCycleError`, a graph without small separators (the hierarchy outgrows
    its budget) ``ValueError``. ``threads`` sets the CPU threads (0 = all).

    ``save(path)`` writes the hierarchy with the graph's fingerprint (the file ``apsp prepare``
    writes); ``Router.load(path, graph)`` reads it back and raises ``ValueError`` when it
    belongs to another graph or to this one before it changed, is of another format version,
    or is damaged.
    """

    def __init__(self, graph, *, directed=True, dtype="int32", weight="weight", threads=0,
                 _load=None):
        graph, directed, self._nodes = _networkx.prepare(graph, weight, directed)
        dtype = _inputs.normalize_dtype(dtype)
        if dtype not in _INTEGER_DTYPES:
            raise ValueError(f"a Router computes in int32 or int64, not {dtype}")
        self._threads = _threads(threads)
        load = "" if _load is None else os.fspath(_load)
        kwargs = dict(directed=bool(directed), unweighted=False, dtype=dtype,
                      threads=self._threads, load=load)
        if isinstance(graph, _core.Graph):
            self._h = _core.hierarchy_graph(graph, **kwargs)
        else:
            edges = _inputs.edge_list(graph)
            self._h = _core.hierarchy_edges(edges.n, edges.rows, edges.cols, edges.weights,
                                            **kwargs)

    @classmethod
    def load(cls, path, graph, *, directed=True, weight="weight", threads=0):
        """The Router of ``graph`` from the hierarchy file at ``path`` (written by
        :meth:`save` or ``apsp prepare``), checked against ``graph``: ``ValueError`` when it
        does not belong to it (the graph must be given as it was, same ``directed`` and
        ``weight``), is of another format version, or is damaged."""
        return cls(graph, directed=directed, weight=weight, threads=threads, _load=path)

    @property
    def dtype(self):
        """The tables' dtype (a NumPy dtype)."""
        return np.dtype(self._h.dtype)

    @property
    def n(self):
        """Vertices of the graph."""
        return self._h.n

    @property
    def shortcuts(self):
        """Arcs the contraction added."""
        return self._h.shortcuts

    def save(self, path):
        """Writes the hierarchy and the graph's fingerprint to ``path`` (replaced whole)."""
        self._h.save(os.fspath(path))

    def table(self, sources, targets, *, threads=None):
        """The ``len(sources) x len(targets)`` distances (repeats allowed) from the hierarchy's
        bucket searches: exactly Dijkstra's, 0 where a source is its target."""
        s, t = self._positions(sources, "sources"), self._positions(targets, "targets")
        return self._h.table(s, t, self._threads if threads is None else _threads(threads))

    def path(self, source, target, *, return_distance=False):
        """Vertices of a shortest path ``[source, ..., target]`` (``[]`` when unreachable),
        found by one bidirectional Dijkstra search on the graph the Router keeps; with
        ``return_distance=True``, ``(distance, path)``, the distance as :meth:`table` gives
        it."""
        s, t = self._positions([source, target], "vertices")
        distance, found = self._h.pair(s, t)
        if self._nodes is not None:
            found = [self._nodes[k] for k in found]
        return (distance, found) if return_distance else found

    def _positions(self, vertices, what):
        if self._nodes is not None:
            return np.atleast_1d(_networkx.source_positions(list(vertices), self._nodes)).tolist()
        return _vertex_list(vertices, what)

    def __repr__(self):
        return f"<apsp.Router n={self.n} dtype={self._h.dtype} shortcuts={self.shortcuts}>"

