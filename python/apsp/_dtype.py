"""dtype=None: the type a solve computes in when the caller names none.

int32 where it is exact: every weight a whole number below int32's no-path value, and the
engine's own overflow check passed (it bounds every path length below that value before any
work, and raises OverflowRisk otherwise); float64 otherwise. apsp.solve returns what it computed
in; the SciPy drop-ins return float64 with inf where no path leads (SciPy's contract), converted
from the int32 distances at the end.
"""

import numpy as np

from . import _core
from ._errors import OverflowRisk

# Weights are checked this many at a time, so the temporaries stay small beside the matrix.
_CHUNK = 1 << 22


def whole_int32(values, unweighted=False):
    """Whether every finite entry of `values` (an array of weights, 1-D or 2-D; inf and NaN are
    "no edge" or refused by the solve) is a whole number of magnitude below int32's no-path
    value. unweighted: every edge weighs 1. Reads a block of rows at a time, and an axis that a
    view repeats (stride 0, np.broadcast_to) once."""
    if unweighted:
        return True
    values = np.asarray(values)
    if values.dtype.kind == "b" or values.size == 0:
        return True
    for axis, stride in enumerate(values.strides):
        if stride == 0 and values.shape[axis] > 1:
            values = values[(slice(None),) * axis + (slice(0, 1),)]
    values = values.reshape(values.shape[0], -1) if values.ndim > 1 else values.reshape(-1, 1)
    limit = _core.INT32_NO_PATH
    # A first block of a few thousand entries, then large ones: fractional weights are
    # usually seen at once.
    start, rows = 0, max(1, 4096 // max(1, values.shape[1]))
    while start < values.shape[0]:
        chunk = values[start:start + rows].ravel()
        start, rows = start + rows, max(1, _CHUNK // max(1, values.shape[1]))
        if values.dtype.kind in "iu":
            if chunk.size and (chunk.max() >= limit or chunk.min() <= -limit):
                return False
            continue
        chunk = chunk[np.isfinite(chunk)]
        if chunk.size and (np.abs(chunk).max() >= limit or np.any(np.trunc(chunk) != chunk)):
            return False
    return True


def solve_in(dtype, run, weights, unweighted=False):
    """run(name) for the dtype `dtype` names; for None, run('int32') when whole_int32(weights())
    and the engine takes int32 for this graph, else run('float64')."""
    from ._inputs import normalize_dtype  # _inputs imports this module
    if dtype is not None:
        return run(normalize_dtype(dtype))
    if whole_int32(weights(), unweighted):
        try:
            return run("int32")
        except OverflowRisk:
            pass  # path lengths could reach int32's no-path value: float64 is exact
    return run("float64")


def as_float64(dist):
    """Integer distances as float64 with inf where no path leads (their no-path value), a
    chunk at a time; float64 distances as they are."""
    if dist is None or dist.dtype == np.float64:
        return dist
    if dist.dtype.kind == "f":
        return dist.astype(np.float64)
    no_path = _core.INT32_NO_PATH if dist.dtype == np.int32 else _core.INT64_NO_PATH
    dist = np.ascontiguousarray(dist)
    out = np.empty(dist.shape, dtype=np.float64)
    src, dst = dist.reshape(-1), out.reshape(-1)
    for start in range(0, src.size, _CHUNK):
        s = src[start:start + _CHUNK]
        d = dst[start:start + _CHUNK]
        d[...] = s
        d[s >= no_path] = np.inf
    return out
