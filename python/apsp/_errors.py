"""Exception classes raised by apsp (the compiled core raises them too)."""

try:
    from scipy.sparse.csgraph import NegativeCycleError as _NegativeCycleBase
except ImportError:  # SciPy is optional
    _NegativeCycleBase = ValueError


class NegativeCycleError(_NegativeCycleBase):
    """The graph has a negative cycle, so some distances are minus infinity.

    A subclass of ``scipy.sparse.csgraph.NegativeCycleError`` when SciPy is installed (so code
    written for SciPy catches it), else of ``ValueError``. ``vertices`` lists 0-based vertices
    lying on negative cycles (at most 64).
    """

    def __init__(self, message="", vertices=()):
        super().__init__(message)
        self.vertices = list(vertices)


class Cancelled(RuntimeError):
    """The progress callback returned False; no result is returned."""


class BackendUnavailable(RuntimeError):
    """The requested back end was not built into this apsp, or has no device here."""
