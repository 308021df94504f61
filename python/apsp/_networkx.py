"""NetworkX graphs as input, and the node labels carried to the result.

A graph is read as NetworkX reads it for its own shortest paths: vertex k is ``list(G)[k]`` (G's
node order), ``weight`` names the edge attribute (a missing attribute weighs 1, and
``weight=None`` makes every edge weigh 1), an undirected graph's edges go both ways, and of
parallel edges (MultiGraph, MultiDiGraph) the lightest counts. NetworkX is never imported here:
a graph can only come from a program that imported it already.
"""

import sys

import numpy as np


class EdgeList:
    """A graph already in apsp's edge form: parallel edges keep the least weight."""

    __slots__ = ("n", "rows", "cols", "weights")

    def __init__(self, n, rows, cols, weights):
        self.n, self.rows, self.cols, self.weights = n, rows, cols, weights


class NodeArray(np.ndarray):
    """The distances (or predecessors) of a NetworkX graph: a NumPy array with ``nodes``, the
    graph's nodes in column order (``nodes[k]`` labels column k; predecessor values are column
    numbers). Arrays derived from it (slices, arithmetic) are plain in meaning: ``nodes`` is
    None there, as their columns may no longer be the graph's."""

    nodes = None

    def __array_finalize__(self, obj):
        self.nodes = None


def labelled(array, nodes):
    """`array` as a NodeArray carrying `nodes` (the array itself when nodes is None)."""
    if nodes is None or array is None:
        return array
    out = array.view(NodeArray)
    out.nodes = nodes
    return out


def is_networkx_graph(obj):
    nx = sys.modules.get("networkx")
    return nx is not None and isinstance(obj, nx.Graph)


def edge_list(graph, weight):
    """(EdgeList, nodes) for a NetworkX graph."""
    if weight is not None and not isinstance(weight, str):
        raise TypeError("weight must be the name of an edge attribute (a string) or None; for a "
                        "weight function, set an attribute first: "
                        "nx.set_edge_attributes(G, {e: f(*e) for e in G.edges}, 'w')")
    nodes = list(graph)
    index = {node: k for k, node in enumerate(nodes)}
    if weight is None:
        edges = [(u, v, 1.0) for u, v in graph.edges()]
    else:
        edges = list(graph.edges(data=weight, default=1))
    m = len(edges)
    rows = np.fromiter((index[e[0]] for e in edges), dtype=np.int64, count=m)
    cols = np.fromiter((index[e[1]] for e in edges), dtype=np.int64, count=m)
    try:
        weights = np.array([e[2] for e in edges], dtype=np.float64)
    except (TypeError, ValueError):
        bad = next(e for e in edges if not _is_number(e[2]))
        raise TypeError(f"edge ({bad[0]!r}, {bad[1]!r}) has {weight}={bad[2]!r}, which is not a "
                        "number") from None
    return EdgeList(len(nodes), rows, cols, weights.reshape(m)), nodes


def _is_number(value):
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def prepare(csgraph, weight, directed):
    """(input for the solver, directed, nodes): a NetworkX graph becomes an EdgeList (undirected
    when G is), its nodes kept; an igraph graph an EdgeList (undirected when it is) whose
    vertices are igraph's ids (nodes None); anything else passes through with nodes None."""
    if is_networkx_graph(csgraph):
        edges, nodes = edge_list(csgraph, weight)
        return edges, bool(directed) and csgraph.is_directed(), nodes
    from . import _igraph  # here: _igraph imports this module's EdgeList

    if _igraph.is_igraph_graph(csgraph):
        return _igraph.edge_list(csgraph, weight), bool(directed) and csgraph.is_directed(), None
    if weight != "weight":
        raise TypeError("weight= names an edge attribute of a NetworkX graph; for a matrix, "
                        "use unweighted=True for hop counts")
    return csgraph, directed, None


def source_positions(indices, nodes):
    """A NetworkX graph's `indices` (a node, or a sequence of nodes) as positions in `nodes`:
    a 0-d array for a single node, else 1-D, as rows_of gives them."""
    index = {node: k for k, node in enumerate(nodes)}
    try:
        if indices in index:
            return np.asarray(index[indices], dtype=np.intp)
    except TypeError:  # unhashable: a list or an array of nodes
        pass
    try:
        items = indices.tolist() if isinstance(indices, np.ndarray) else list(indices)
    except TypeError:
        raise ValueError(f"indices: node {indices!r} is not in the graph") from None
    missing = [node for node in items if node not in index]
    if missing:
        raise ValueError(f"indices name nodes that are not in the graph: {missing[:5]!r}")
    return np.array([index[node] for node in items], dtype=np.intp)


def take_nodes(result_class):
    """Makes ``path`` and ``distance`` of a Result of a NetworkX graph (whose ``nodes`` are set)
    take nodes, and ``path`` return them; other Results keep vertex numbers."""
    by_position = {name: getattr(result_class, name) for name in ("path", "distance")}

    def path(self, i, j):
        nodes = getattr(self, "nodes", None)
        if nodes is None:
            return by_position["path"](self, i, j)
        s, t = source_positions([i, j], nodes).tolist()
        return [nodes[k] for k in by_position["path"](self, s, t)]

    def distance(self, i, j):
        nodes = getattr(self, "nodes", None)
        if nodes is None:
            return by_position["distance"](self, i, j)
        s, t = source_positions([i, j], nodes).tolist()
        return by_position["distance"](self, s, t)

    for name, method in (("path", path), ("distance", distance)):
        method.__doc__ = by_position[name].__doc__ + (
            " For a Result of a NetworkX graph (its .nodes set), i and j are nodes"
            + (" and so are the path's vertices." if name == "path" else "."))
        setattr(result_class, name, method)

