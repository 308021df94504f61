"""Path reconstruction from a SciPy-style predecessor matrix or an apsp.Result."""

import operator

import numpy as np

from . import _core


def path(source, i, j):
    """Vertices of a shortest path from ``i`` to ``j``.

    ``source`` is a predecessor matrix as returned by ``floyd_warshall(...,
    return_predecessors=True)`` (``pred[i, j]`` = vertex before ``j``, -9999 for none; SciPy's
    own matrices work too) or a :class:`Result` of :func:`solve`. Returns ``[i, ..., j]``,
    ``[i]`` when ``i == j``, and ``[]`` when ``j`` is unreachable from ``i``.
    """
    try:  # whole numbers only (NumPy integers too), never a float or a string
        i, j = operator.index(i), operator.index(j)
    except TypeError:
        raise TypeError(f"vertices must be integers, not {type(i).__name__} and "
                        f"{type(j).__name__}") from None
    if isinstance(source, _core.Result):
        return source.path(i, j)
    pred = np.asarray(source)
    if pred.ndim != 2 or pred.shape[0] != pred.shape[1]:
        raise ValueError("the predecessor matrix must be square and 2-D")
    if pred.dtype.kind not in "iu":
        raise ValueError(f"a predecessor matrix holds integers, not {pred.dtype}")
    n = pred.shape[0]
    if not (0 <= i < n and 0 <= j < n):
        raise ValueError(f"vertex pair ({i}, {j}) is outside 0..{n - 1}")
    if i == j:
        return [i]
    row = pred[i]
    if row[j] < 0:
        return []
    out = [j]
    k = j
    while k != i:
        k = int(row[k])
        if k < 0 or k >= n or len(out) > n:
            raise ValueError(f"the predecessor matrix has no valid path from {i} to {j}")
        out.append(k)
    out.reverse()
    return out
