"""apsp: all-pairs shortest paths by blocked Floyd-Warshall on CPUs and GPUs, and by Johnson's
algorithm on all CPU threads for sparse graphs.

A drop-in for ``scipy.sparse.csgraph.floyd_warshall`` / ``shortest_path(method='FW')`` with
smaller dtypes, every apsp back end, progress and cancel, path helpers and file readers.
See docs/python.md.
"""

from ._errors import BackendUnavailable, Cancelled, NegativeCycleError
from . import _core
from ._core import Graph, Result
from ._api import (backends, floyd_warshall, no_path, read_graph, release_devices,
                   shortest_path, solve)
from ._path import path
from ._networkx import NodeArray
from ._sparse import bellman_ford, dijkstra, johnson

NO_PREDECESSOR = _core.NO_PREDECESSOR
__version__ = _core.version()

__all__ = [
    "BackendUnavailable", "Cancelled", "Graph", "NO_PREDECESSOR", "NegativeCycleError", "NodeArray",
    "Result", "backends", "bellman_ford", "dijkstra", "floyd_warshall", "johnson", "no_path", "path",
    "read_graph", "release_devices", "shortest_path", "solve",
]
Graph.__module__ = Result.__module__ = NodeArray.__module__ = "apsp"
