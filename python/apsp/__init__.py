"""apsp: all-pairs shortest paths by blocked Floyd-Warshall on CPUs and GPUs, and by Johnson's
algorithm on all CPU threads for sparse graphs.

A drop-in for ``scipy.sparse.csgraph.floyd_warshall`` / ``shortest_path(method='FW')`` with
smaller dtypes, every apsp back end, progress and cancel, path helpers and file readers.
See docs/python.md.
"""

from ._errors import (BackendUnavailable, Cancelled, DirectedGraphError, NegativeCycleError,
                      NotConnectedError, NullGraphError, OverflowRisk)
from . import _core
from ._core import Graph, Result
from ._api import (backends, floyd_warshall, no_path, read_graph, release_devices,
                   shortest_path, solve)
from ._metrics import Metrics, metrics
from ._networkx_metrics import (average_shortest_path_length, closeness_centrality, diameter,
                                eccentricity, global_efficiency, harmonic_centrality, radius)
from ._path import path
from ._router import Router
from ._table import table
from ._networkx import NodeArray, take_nodes
from ._to_scipy import graph_to_scipy, to_scipy
from ._sparse import bellman_ford, dijkstra, johnson

take_nodes(Result)
Graph.to_scipy = graph_to_scipy
del take_nodes, graph_to_scipy

NO_PREDECESSOR = _core.NO_PREDECESSOR
__version__ = _core.version()

__all__ = [
    "BackendUnavailable", "Cancelled", "DirectedGraphError", "Graph", "Metrics", "NO_PREDECESSOR",
    "NegativeCycleError", "NodeArray", "NotConnectedError", "NullGraphError", "OverflowRisk",
    "Result", "Router",
    "average_shortest_path_length", "backends", "bellman_ford", "closeness_centrality",
    "diameter", "dijkstra", "eccentricity", "floyd_warshall", "global_efficiency",
    "harmonic_centrality", "johnson", "metrics", "no_path", "path", "radius", "read_graph",
    "release_devices", "shortest_path", "solve", "table", "to_scipy",
]
Graph.__module__ = Result.__module__ = NodeArray.__module__ = Metrics.__module__ = "apsp"
Router.__module__ = "apsp"
