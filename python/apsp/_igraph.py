"""python-igraph graphs as input: vertex k is igraph's vertex k, ``weight`` names the edge
attribute (missing: every edge weighs 1; ``weight=None``: hop counts), an undirected graph's
edges go both ways, and of parallel edges the lightest counts (igraph's own
``get_adjacency_sparse`` would add them up). igraph is never imported here: a graph can only
come from a program that imported it already."""

import sys

import numpy as np

from ._networkx import EdgeList, _is_number


def is_igraph_graph(obj):
    ig = sys.modules.get("igraph")
    return ig is not None and isinstance(obj, ig.Graph)


def edge_list(graph, weight):
    """An EdgeList (positions are igraph's vertex ids) for an igraph graph."""
    if weight is not None and not isinstance(weight, str):
        raise TypeError("weight must be the name of an edge attribute (a string) or None")
    pairs = np.asarray(graph.get_edgelist(), dtype=np.int64).reshape(-1, 2)
    if weight is None or weight not in graph.es.attributes():
        weights = np.ones(len(pairs), dtype=np.float64)
    else:
        values = graph.es[weight]
        try:
            weights = np.asarray(values, dtype=np.float64).reshape(len(pairs))
        except (TypeError, ValueError):
            k = next(k for k, w in enumerate(values) if not _is_number(w))
            raise TypeError(f"edge {pairs[k].tolist()} has {weight}={values[k]!r}, which is not "
                            "a number") from None
    return EdgeList(graph.vcount(), pairs[:, 0].copy(), pairs[:, 1].copy(), weights)

