"""Exception classes raised by apsp (the compiled core raises them too)."""

try:
    from scipy.sparse.csgraph import NegativeCycleError as _NegativeCycleBase
except ImportError:  # SciPy is optional
    _NegativeCycleBase = ValueError


class NegativeCycleError(_NegativeCycleBase):
    """The graph has a negative cycle, so some distances are minus infinity.

    A subclass of ``scipy.sparse.csgraph.NegativeCycleError`` when SciPy is installed (so code
    written for SciPy catches it), else of ``ValueError``. ``vertices`` lists 0-based vertices
    lying on negative cycles (at most 64). ``cycle`` is one negative cycle in order (an edge
    from each vertex to the next and from the last to the first; every algorithm names one for
    sparse and Graph input, none for dense input, where it is empty) and ``cycle_weight`` its
    total weight (None when ``cycle`` is empty), as NetworkX's ``find_negative_cycle`` would
    report it.
    """

    def __init__(self, message="", vertices=(), cycle=(), cycle_weight=None):
        super().__init__(message)
        self.vertices = list(vertices)
        self.cycle = list(cycle)
        self.cycle_weight = cycle_weight


class OverflowRisk(ValueError):
    """An integer dtype could overflow on this graph (path lengths could reach its no-path
    value); the message names a wider dtype. A ValueError, as before it had a class of its own;
    a solve with dtype=None catches it and computes in float64 instead."""


class Cancelled(RuntimeError):
    """The progress callback returned False; no result is returned."""


class BackendUnavailable(RuntimeError):
    """The requested back end was not built into this apsp, or has no device here."""


class NotConnectedError(ValueError):
    """A function that NetworkX defines only on (strongly) connected graphs (eccentricity,
    diameter, radius, average_shortest_path_length) was given one that is not.

    The instance raised is also a ``networkx.NetworkXError`` when networkx is importable, so
    code written for NetworkX catches it; ``apsp.metrics`` gives the values over the pairs
    that are reachable instead of raising.
    """


class NullGraphError(ValueError):
    """The graph has no vertices, where NetworkX raises NetworkXPointlessConcept (also one of
    those when networkx is importable)."""


class DirectedGraphError(TypeError):
    """A function that NetworkX implements for undirected graphs only (global_efficiency) was
    given a directed NetworkX graph (also a networkx.NetworkXNotImplemented when networkx is
    importable)."""


_NETWORKX_TWINS = {}


def networkx_compatible(error_class, networkx_name, message):
    """An `error_class` instance that is also networkx's `networkx_name` exception when networkx
    can be imported (imported here only, when an error is raised)."""
    try:
        import networkx
    except ImportError:
        return error_class(message)
    twin = _NETWORKX_TWINS.get(error_class)
    if twin is None:
        twin = type(error_class.__name__, (error_class, getattr(networkx, networkx_name)),
                    {"__module__": "apsp", "__doc__": error_class.__doc__})
        _NETWORKX_TWINS[error_class] = twin
    return twin(message)
