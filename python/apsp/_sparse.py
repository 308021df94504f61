"""SciPy's sparse-graph solvers by name: johnson, bellman_ford and dijkstra (Johnson's algorithm
on every CPU thread, from the asked sources only), with SciPy's signatures and semantics."""

import numpy as np

from . import _core, _dtype, _inputs, _networkx, _progress

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
               backend="auto", threads=0, progress=None, weight="weight",
               whole_graph_cycles=True):
    """Distances (and predecessors) for the rows `indices` (None: all), the algorithm that ran,
    the NetworkX graph's nodes (None for other inputs) and the engine in words (the plan's
    driver).

    With `indices` and Johnson's algorithm (or 'auto') on the cpu, apsp's planner chooses how
    the rows are made, as for `apsp solve --sources` (rows_engine): Dijkstra from the sources
    (|S| x n values, never n x n; always with predecessors), a contraction hierarchy's table, or
    the whole matrix where it fits and ends sooner. Floyd-Warshall, and back ends other than the
    cpu, solve every source and keep the asked rows. Johnson's algorithm stands for SciPy's
    Dijkstra, Johnson and Bellman-Ford, so a masked array's unmasked zeros are edges there, as
    in SciPy. `whole_graph_cycles`: a negative cycle anywhere refuses the solve (SciPy's
    johnson); else only one that a source reaches does (its bellman_ford, dijkstra).

    dtype None computes in int32 where that is exact (_dtype.py) and returns float64 with inf
    for "no path", SciPy's output."""
    csgraph, directed, nodes = _networkx.prepare(csgraph, weight, directed)
    if indices is not None and algorithm in ("johnson", "auto") and \
            _inputs.normalize_backend(backend) in ("auto", "cpu"):
        dist, pred, engine = _solve_sources(csgraph, indices, nodes, directed=directed,
                                            unweighted=unweighted, dtype=dtype, threads=threads,
                                            predecessors=return_predecessors, progress=progress,
                                            whole_graph_cycles=whole_graph_cycles)
        if dtype is None:
            dist = _dtype.as_float64(dist)
        return dist, pred, "johnson", nodes, engine
    res = _inputs.solve(csgraph, directed=directed, unweighted=unweighted, dtype=dtype,
                        backend=backend, paths=return_predecessors, progress=progress,
                        threads=threads, algorithm=algorithm,
                        masked_zeros_are_edges=algorithm == "johnson")
    ran, engine = res.algorithm, res.driver
    pred = res._take_predecessors() if return_predecessors else None
    dist = res._take_distances()
    del res
    if indices is not None:
        rows = _source_rows(indices, dist.shape[0], nodes)
        dist = dist[rows]
        pred = pred[rows] if pred is not None else None
    if dtype is None:
        dist = _dtype.as_float64(dist)
    return dist, pred, ran, nodes, engine


def _source_rows(indices, n, nodes):
    return _networkx.source_positions(indices, nodes) if nodes is not None else \
        rows_of(indices, n)


def _solve_sources(csgraph, indices, nodes, *, directed, unweighted, dtype, threads,
                   predecessors, progress, whole_graph_cycles):
    """Rows for `indices` by the engine apsp's planner chooses (python/src/sources_binding.cpp)
    and that engine in words; a 1-D row for a scalar index. dtype None: int32 where exact."""
    kwargs = dict(directed=bool(directed), unweighted=bool(unweighted),
                  threads=_inputs.normalize_threads(threads), predecessors=bool(predecessors),
                  whole_graph_cycles=bool(whole_graph_cycles))
    if isinstance(csgraph, _core.Graph):
        rows = _source_rows(indices, csgraph.n, nodes)
        weights = csgraph.edges[2]

        def solve(**more):
            return _core.solve_sources_graph(csgraph, np.atleast_1d(rows), **kwargs, **more)
    elif (csr := _inputs.csr_arrays(csgraph)) is not None:
        # SciPy's own arrays, searched in place where the library can (no copy).
        n, indptr, targets, weights = csr
        rows = _source_rows(indices, n, nodes)

        def solve(**more):
            return _core.solve_sources_csr(n, indptr, targets, weights, np.atleast_1d(rows),
                                           **kwargs, **more)
    else:
        edges = _inputs.edge_list(csgraph)
        rows = _source_rows(indices, edges.n, nodes)
        weights = edges.weights

        def solve(**more):
            return _core.solve_sources_edges(edges.n, edges.rows, edges.cols, edges.weights,
                                             np.atleast_1d(rows), **kwargs, **more)
    with _progress.callback_for(progress) as callback:
        dist, pred, engine = _dtype.solve_in(
            dtype, lambda name: solve(dtype=name, progress=callback), lambda: weights,
            unweighted)
    if rows.ndim == 0:
        dist = dist[0]
        pred = pred[0] if pred is not None else None
    return dist, pred, engine


def _labelled(dist, pred, nodes, return_predecessors):
    dist = _networkx.labelled(dist, nodes)
    if not return_predecessors:
        return dist
    return dist, _networkx.labelled(pred, nodes)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False,
            *, dtype=None, threads=0, weight="weight", progress=None, return_engine=False):
    """``scipy.sparse.csgraph.johnson``: Bellman-Ford potentials (only when some weight is
    negative), then shortest paths from each source in ``indices`` (None: every source) on all
    CPU threads (``threads`` caps them). Only the asked sources are solved, by the engine apsp's
    planner chooses for them, as ``apsp solve --sources`` does: Dijkstra from each source
    (memory ``len(indices) x N``; always when predecessors are asked, which then follow the tie
    rule of docs/semantics.md), a contraction hierarchy's table (road-like graphs with whole
    weights), or the whole matrix cut to the rows where it fits in memory and ends sooner (dense
    graphs, many sources). ``return_engine=True`` appends that engine in words to what is
    returned (e.g. "dijkstra from the sources, 8 threads").

    The parameters, the output shapes (a 1-D row for a scalar ``indices``), "no edge" input
    conventions and the predecessor matrix (-9999 for none) are SciPy's; ``dtype`` is as in
    :func:`apsp.floyd_warshall` (None: float64 out, computed in int32 where exact). Raises :class:`apsp.NegativeCycleError` for a
    negative cycle anywhere in the graph (as SciPy's johnson does), whose ``cycle`` lists one
    negative cycle in order and ``cycle_weight`` its weight. ``weight`` and NetworkX input: see
    :func:`apsp.floyd_warshall`.
    """
    dist, pred, _, nodes, engine = solve_rows(
        csgraph, algorithm="johnson", directed=directed, indices=indices,
        return_predecessors=return_predecessors, unweighted=unweighted, dtype=dtype,
        threads=threads, weight=weight, progress=progress)
    return _with_engine(_labelled(dist, pred, nodes, return_predecessors), engine, return_engine)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False,
                 unweighted=False, *, dtype=None, threads=0, weight="weight", progress=None,
                 return_engine=False):
    """``scipy.sparse.csgraph.bellman_ford``: the same distances and predecessors, computed by
    Johnson's algorithm (Bellman-Ford potentials only when a weight that the sources reach is
    negative, then Dijkstra from each source on all CPU threads), which is much faster than
    Bellman-Ford from every source. As in SciPy, only a negative cycle that a source in
    ``indices`` reaches raises :class:`apsp.NegativeCycleError`. Parameters, engines and shapes
    as in :func:`johnson`."""
    dist, pred, _, nodes, engine = solve_rows(
        csgraph, algorithm="johnson", directed=directed, indices=indices,
        return_predecessors=return_predecessors, unweighted=unweighted, dtype=dtype,
        threads=threads, weight=weight, progress=progress, whole_graph_cycles=False)
    return _with_engine(_labelled(dist, pred, nodes, return_predecessors), engine, return_engine)


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False,
             limit=np.inf, min_only=False, *, dtype=None, threads=0, weight="weight",
             progress=None, return_engine=False):
    """``scipy.sparse.csgraph.dijkstra`` from every source in ``indices`` (None: all), on all
    CPU threads; only the asked sources are solved, by the engine apsp's planner chooses (see
    :func:`johnson`, also for ``return_engine``).

    ``limit``: pairs farther apart than ``limit`` are reported unreachable (inf, or
    ``apsp.no_path(dtype)``, predecessor -9999), as in SciPy. ``min_only``: the distance from
    the nearest source in ``indices`` to every vertex; with ``return_predecessors`` also the
    predecessors and the nearest ``sources`` (-9999 where none reaches), as SciPy returns them.

    Unlike SciPy, negative weights give exact distances (the graph is reweighted first, as
    Johnson's algorithm does), and a negative cycle that a source reaches raises
    :class:`apsp.NegativeCycleError`.
    """
    if not limit >= 0:
        raise ValueError("limit must be >= 0")
    limited = bool(np.isfinite(limit))
    dist, pred, _, nodes, engine = solve_rows(
        csgraph, algorithm="johnson", directed=directed, indices=indices,
        return_predecessors=return_predecessors or min_only or limited, unweighted=unweighted,
        dtype=dtype, threads=threads, weight=weight, progress=progress, whole_graph_cycles=False)
    if limited:
        _cut_beyond(dist, pred, limit)
        if not (return_predecessors or min_only):
            pred = None
    if min_only:
        sources = None
        if indices is not None:
            sources = np.atleast_1d(_source_rows(indices, dist.shape[-1], nodes))
        out = tuple(_networkx.labelled(a, nodes)
                    for a in _nearest_source(dist, pred, sources, return_predecessors))
        return _with_engine(out if return_predecessors else out[0], engine, return_engine)
    return _with_engine(_labelled(dist, pred, nodes, return_predecessors), engine, return_engine)


def _with_engine(out, engine, return_engine):
    """`out` as it is, or with the engine appended (a tuple grows by one; an array becomes
    (array, engine))."""
    if not return_engine:
        return out
    return (*out, engine) if isinstance(out, tuple) else (out, engine)


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


def _nearest_source(dist, pred, sources, return_predecessors):
    """SciPy's min_only output from the per-source rows (`sources`: their vertices, None for
    all); a tuple (best,) or (best, predecessors, sources)."""
    dist = np.atleast_2d(dist)
    pred = np.atleast_2d(pred)
    if sources is None:
        sources = np.arange(dist.shape[1])
    nearest = np.argmin(dist, axis=0)
    cols = np.arange(dist.shape[1])
    best = dist[nearest, cols]
    unreached = best >= (np.inf if dist.dtype.kind == "f" else _no_path(dist.dtype))
    src = np.where(unreached, NO_PREDECESSOR, sources[nearest]).astype(np.int32)
    prd = np.where(unreached, NO_PREDECESSOR, pred[nearest, cols]).astype(np.int32)
    if not return_predecessors:
        return (best,)
    return best, prd, src
