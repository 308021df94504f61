"""SciPy's sparse-graph solvers by name: johnson and dijkstra (Johnson's algorithm on every CPU
thread), with SciPy's signatures and semantics."""

import numpy as np

from . import _core, _inputs

NO_PREDECESSOR = -9999


def rows_of(indices, n):
    """Validated row indices in 0..n-1 (a 0-d array for a scalar, so rows come out 1-D).
    Negative ones count from the end and whole-number floats are taken, as SciPy does; an
    empty list selects no rows."""
    rows = np.asarray(indices)
    if rows.size == 0:
        return rows.astype(np.intp)
    if rows.dtype.kind == "f" and np.all(np.isfinite(rows)) and np.all(rows == np.trunc(rows)):
        rows = rows.astype(np.int64)
    if rows.dtype.kind not in "iu":
        raise ValueError("indices must be integers")
    if rows.min() < -n or rows.max() >= n:
        raise ValueError(f"indices must lie in 0..{n - 1} (or -{n}..-1 from the end)")
    rows = rows.astype(np.intp)
    return np.where(rows < 0, rows + n, rows)


def solve_rows(csgraph, *, algorithm, directed, indices, return_predecessors, unweighted, dtype,
               backend="auto", threads=0, progress=None):
    """Distances (and predecessors) for the rows `indices` (None: all). Every source is solved;
    the rows asked for are copied out of the full matrix. Johnson's algorithm stands for
    SciPy's Dijkstra, Johnson and Bellman-Ford, so a masked array's unmasked zeros are edges
    there, as in SciPy."""
    res = _inputs.solve(csgraph, directed=directed, unweighted=unweighted, dtype=dtype,
                        backend=backend, paths=return_predecessors, progress=progress,
                        threads=threads, algorithm=algorithm,
                        masked_zeros_are_edges=algorithm == "johnson")
    ran = res.algorithm
    pred = res._take_predecessors() if return_predecessors else None
    dist = res._take_distances()
    del res
    if indices is not None:
        rows = rows_of(indices, dist.shape[0])
        dist = dist[rows]
        pred = pred[rows] if pred is not None else None
    return dist, pred, ran


def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False,
            *, dtype=None, threads=0):
    """``scipy.sparse.csgraph.johnson``: Bellman-Ford potentials (only when some weight is
    negative), then Dijkstra from every source, on all CPU threads (``threads`` caps them).

    The parameters, the output shapes (a 1-D row for a scalar ``indices``), "no edge" input
    conventions and the predecessor matrix (-9999 for none) are SciPy's; ``dtype`` is as in
    :func:`apsp.floyd_warshall` (None = float64). Raises :class:`apsp.NegativeCycleError`,
    whose ``cycle`` lists one negative cycle in order and ``cycle_weight`` its weight.
    """
    dist, pred, _ = solve_rows(csgraph, algorithm="johnson", directed=directed, indices=indices,
                            return_predecessors=return_predecessors, unweighted=unweighted,
                            dtype=dtype, threads=threads)
    return (dist, pred) if return_predecessors else dist


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False,
                 unweighted=False, *, dtype=None, threads=0):
    """``scipy.sparse.csgraph.bellman_ford``: the same distances and predecessors, computed by
    Johnson's algorithm (Bellman-Ford potentials only when some weight is negative, then
    Dijkstra from every source on all CPU threads), which is much faster than Bellman-Ford from
    every source. Parameters, shapes and errors as in :func:`johnson`."""
    dist, pred, _ = solve_rows(csgraph, algorithm="johnson", directed=directed, indices=indices,
                            return_predecessors=return_predecessors, unweighted=unweighted,
                            dtype=dtype, threads=threads)
    return (dist, pred) if return_predecessors else dist


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False,
             limit=np.inf, min_only=False, *, dtype=None, threads=0):
    """``scipy.sparse.csgraph.dijkstra`` from every source in ``indices`` (None: all), on all
    CPU threads.

    ``limit``: pairs farther apart than ``limit`` are reported unreachable (inf, or
    ``apsp.no_path(dtype)``, predecessor -9999), as in SciPy. ``min_only``: the distance from
    the nearest source in ``indices`` to every vertex; with ``return_predecessors`` also the
    predecessors and the nearest ``sources`` (-9999 where none reaches), as SciPy returns them.

    Unlike SciPy, negative weights give exact distances (the graph is reweighted first, as
    Johnson's algorithm does), and a negative cycle raises :class:`apsp.NegativeCycleError`.
    """
    if not limit >= 0:
        raise ValueError("limit must be >= 0")
    limited = bool(np.isfinite(limit))
    dist, pred, _ = solve_rows(csgraph, algorithm="johnson", directed=directed, indices=indices,
                            return_predecessors=return_predecessors or min_only or limited,
                            unweighted=unweighted, dtype=dtype, threads=threads)
    if limited:
        _cut_beyond(dist, pred, limit)
        if not (return_predecessors or min_only):
            pred = None
    if min_only:
        return _nearest_source(dist, pred, indices, return_predecessors)
    return (dist, pred) if return_predecessors else dist


def _cut_beyond(dist, pred, limit):
    """What a search that stops at `limit` finds: pairs farther than `limit` become unreachable,
    and so (with negative weights) does every vertex whose shortest path runs through one of
    them, so that each kept predecessor chain leads back to its source."""
    d2 = dist.reshape(-1, dist.shape[-1])
    p2 = pred.reshape(-1, pred.shape[-1])
    cut = d2 > limit
    while True:
        through = (p2 >= 0) & ~cut
        through[through] = cut[np.nonzero(through)[0], p2[through]]
        if not through.any():
            break
        cut |= through
    d2[cut] = np.inf if d2.dtype.kind == "f" else _no_path(d2.dtype)
    p2[cut] = NO_PREDECESSOR


def _no_path(dtype):
    return _core.INT32_NO_PATH if dtype == np.int32 else _core.INT64_NO_PATH


def _nearest_source(dist, pred, indices, return_predecessors):
    """SciPy's min_only output from the per-source rows."""
    dist = np.atleast_2d(dist)
    pred = np.atleast_2d(pred)
    sources = np.atleast_1d(rows_of(indices, dist.shape[1])) if indices is not None else \
        np.arange(dist.shape[1])
    nearest = np.argmin(dist, axis=0)
    cols = np.arange(dist.shape[1])
    best = dist[nearest, cols]
    unreached = best >= (np.inf if dist.dtype.kind == "f" else _no_path(dist.dtype))
    src = np.where(unreached, NO_PREDECESSOR, sources[nearest]).astype(np.int32)
    prd = np.where(unreached, NO_PREDECESSOR, pred[nearest, cols]).astype(np.int32)
    if not return_predecessors:
        return best
    return best, prd, src
