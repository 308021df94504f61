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


class Cancelled(RuntimeError):
    """The progress callback returned False; no result is returned."""


class BackendUnavailable(RuntimeError):
    """The requested back end was not built into this apsp, or has no device here."""
