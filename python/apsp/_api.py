"""The public functions: SciPy-compatible floyd_warshall / shortest_path, and solve."""

import os

import numpy as np

from . import _core, _dtype, _inputs, _networkx
from ._sets import solve_block
from ._sparse import solve_rows

# SciPy's method names -> apsp's algorithms. 'D' and 'BF' give SciPy's answers through
# Johnson's algorithm (Dijkstra from every source, after Bellman-Ford reweighting when a weight
# is negative); 'auto' lets apsp's cost model choose, as SciPy's 'auto' chooses by density.
_SHORTEST_PATH_METHODS = {"auto": "auto", "FW": "fw", "J": "johnson", "D": "johnson",
                          "BF": "johnson"}


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False, *, dtype=None, backend="auto", progress=None,
                   weight="weight"):
    """All-pairs shortest paths by Floyd-Warshall, a drop-in for
    ``scipy.sparse.csgraph.floyd_warshall``.

    Parameters
    ----------
    csgraph : array_like, masked array, scipy.sparse matrix/array, apsp.Graph, shape (N, N),
            or a NetworkX graph
        Dense input: 0, inf and NaN off the diagonal mean "no edge" (as in SciPy). Masked
        input: masked entries mean "no edge". Sparse input and Graph: every stored entry is an
        edge, explicit zeros included; duplicates keep the minimum (a COO matrix's add up, as
        SciPy's conversion of it adds them). The diagonal is 0 unless a
        negative self-loop is given, which is a negative cycle. A NetworkX Graph, DiGraph,
        MultiGraph or MultiDiGraph (when networkx is installed): vertex k is ``list(G)[k]``,
        an undirected graph's edges go both ways, parallel edges keep the least weight, and
        the result is an :class:`apsp.NodeArray` whose ``nodes`` lists G's nodes. Other
        objects raise TypeError naming the conversion to use.
    directed : bool
        If False, the edge weight between i and j is min(w[i, j], w[j, i]) both ways.
    return_predecessors : bool
        Also return the int32 predecessor matrix (``pred[i, j]`` = vertex before j on a
        shortest i -> j path, -9999 when none).
    unweighted : bool
        Every edge weighs 1 (hop counts).
    overwrite : bool
        When csgraph is a C-ordered, writable float64 ndarray and the result is float64, the
        distances are written into csgraph and csgraph is returned. It saves no memory here.
    dtype : None or float64, float32, int64, int32
        Type of the computation and of the distances. None returns float64 with inf for "no
        path" (SciPy's output), computed in int32 where that is exact (every weight a whole
        number below int32's no-path value, and the overflow check passed: no path length can
        reach it) and converted at the end, else in float64. float32 and int32 halve the
        memory. Integer types need whole weights and report "no path" as
        ``apsp.no_path(dtype)``.
    backend : 'auto', 'cpu', 'cuda' or 'reference'
        'auto' uses a GPU when one is present and the dtype is float32 or int32, else the CPU.
    progress : None, bool or callable
        True draws a progress bar on stderr (tqdm when installed, else a plain line); a callable
        is called as ``progress(rounds_done, rounds_total, updates_per_second)`` after each
        pivot round, and returning False cancels the solve (raising apsp.Cancelled). Ctrl-C
        also cancels (KeyboardInterrupt). Not a terminal (a log file): one plain line every
        2 s.
    weight : str or None
        For a NetworkX graph, the edge attribute holding the weight, as NetworkX spells it: an
        edge without it weighs 1; None makes every edge weigh 1.

    Returns
    -------
    dist_matrix : ndarray (N, N); with return_predecessors, (dist_matrix, predecessors).

    Raises
    ------
    apsp.NegativeCycleError
        The graph has a negative cycle (a subclass of SciPy's NegativeCycleError).
    """
    graph, directed, nodes = _networkx.prepare(csgraph, weight, directed)
    res = _inputs.solve(graph, directed=directed, unweighted=unweighted, dtype=dtype,
                        backend=backend, paths=return_predecessors, progress=progress,
                        algorithm="fw")
    # Predecessors are derived from the path matrix and distances, so they come out first.
    pred = res._take_predecessors() if return_predecessors else None
    dist = res._take_distances()
    del res  # frees the path matrix before returning
    if dtype is None:
        dist = _dtype.as_float64(dist)  # computed in int32 where exact; SciPy's float64 out
    if overwrite and _can_overwrite(csgraph, dist):
        csgraph[...] = dist
        dist = csgraph
    return _labelled(dist, pred, nodes, return_predecessors)


def _labelled(dist, pred, nodes, return_predecessors):
    dist = _networkx.labelled(dist, nodes)
    return (dist, _networkx.labelled(pred, nodes)) if return_predecessors else dist


def _can_overwrite(csgraph, dist):
    return (type(csgraph) is np.ndarray and csgraph.dtype == np.float64
            and dist.dtype == np.float64 and csgraph.flags.c_contiguous
            and csgraph.flags.writeable and csgraph.shape == dist.shape)


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False,
                  unweighted=False, overwrite=False, indices=None, *, dtype=None,
                  backend="auto", progress=None, weight="weight"):
    """``scipy.sparse.csgraph.shortest_path``.

    method : 'auto', 'FW', 'J', 'D' or 'BF', with SciPy's meaning: 'FW' is Floyd-Warshall
        (every back end, GPUs included); 'J', 'D' and 'BF' run Johnson's algorithm (Dijkstra
        from every source on all CPU threads, after Bellman-Ford reweighting when some weight
        is negative), which gives what SciPy's Johnson, Dijkstra and Bellman-Ford give (with
        negative weights 'D' is exact here, where SciPy warns); 'auto' picks Floyd-Warshall,
        Johnson or the supernodal solver per graph from apsp's cost model (docs/sparse.md).
        Input rules follow the method, as in SciPy: with 'J', 'D' and 'BF' a masked array's
        unmasked zeros are zero-weight edges; with 'FW' and 'auto' they are no edge.
    overwrite : as in :func:`floyd_warshall`, where Floyd-Warshall runs ('FW', or 'auto'
        choosing it) and ``indices`` is None; otherwise the input is left alone.
    indices : the rows for those sources are returned, shaped like SciPy's (a 1-D row for a
        single index; for a NetworkX graph, nodes of G). With 'J', 'D', 'BF' and 'auto' only
        those sources are solved on the cpu (memory ``len(indices) x N``; a negative cycle
        counts as SciPy's johnson counts it, anywhere in the graph). With 'FW' (which SciPy
        refuses with indices) every pair is computed and the rows are taken from it.

    See :func:`floyd_warshall` for the other parameters.
    """
    if method not in _SHORTEST_PATH_METHODS:
        raise ValueError(f"method {method!r} is not supported: use one of "
                         f"{', '.join(_SHORTEST_PATH_METHODS)}")
    algorithm = _SHORTEST_PATH_METHODS[method]
    if algorithm == "fw" and indices is None:
        # SciPy's FW contract, overwrite included.
        return floyd_warshall(csgraph, directed=directed, return_predecessors=return_predecessors,
                              unweighted=unweighted, overwrite=overwrite, dtype=dtype,
                              backend=backend, progress=progress, weight=weight)
    dist, pred, ran, nodes, _ = solve_rows(csgraph, algorithm=algorithm, directed=directed,
                                        indices=indices, return_predecessors=return_predecessors,
                                        unweighted=unweighted, dtype=dtype, backend=backend,
                                        progress=progress, weight=weight)
    # SciPy overwrites only where Floyd-Warshall ran ('auto' choosing it included).
    if overwrite and ran == "fw" and indices is None and _can_overwrite(csgraph, dist):
        csgraph[...] = dist
        dist = csgraph
    return _labelled(dist, pred, nodes, return_predecessors)


def solve(csgraph, *, directed=True, unweighted=False, dtype=None, backend="auto", paths=None,
          progress=None, threads=0, devices=None, gpu_memory=None, algorithm="auto",
          weight="weight", sources=None, targets=None):
    """All-pairs shortest paths with everything apsp knows about the run.

    Takes the same inputs and options as :func:`floyd_warshall` (``paths`` replaces
    ``return_predecessors`` and defaults to True; ``threads`` sets the number of CPU threads,
    0 = all; ``dtype=None`` follows the weights: int32 when every weight is a whole number
    below int32's no-path value and no path length can reach it, else float64, and the result
    stays in that type, ``.dtype`` saying which) and, without ``sources`` and ``targets``, returns an :class:`apsp.Result` with ``.distances`` (read-only view, no copy),
    ``.predecessors``, ``.path(i, j)``, ``.distance(i, j)``, ``.backend``, ``.device``,
    ``.seconds``, ``.timings``, ``.algorithm``, ``.algorithm_reason`` and ``.nodes`` (a
    NetworkX graph's nodes in vertex order, else None; ``weight`` as in
    :func:`floyd_warshall`).

    algorithm : 'auto', 'fw', 'johnson' or 'supernodal'
        Floyd-Warshall, Johnson's algorithm (cpu back end), the supernodal Floyd-Warshall
        (a nested-dissection order, for graphs with small separators such as road networks;
        cpu back end, or one GPU with backend='cuda'), or the choice of apsp's cost model per graph (docs/sparse.md); the
        Result says which ran and why.

    Two more options apply to the cuda back end (the cpu and reference back ends accept and
    ignore them):

    devices : None, 'all' or a sequence of ints
        CUDA devices to solve on: None means device 0, 'all' every device, ``[0, 1]`` those
        (distinct, >= 0). Two or more split the work among them. A device that does not
        exist raises ValueError when the cuda back end plans the solve (backend='cuda', or
        'auto' with a float32/int32 dtype on a machine with a usable GPU).
    gpu_memory : None, int or str
        Cap on the device memory used, per device: bytes, or a string with a binary suffix
        ('2G', '512M', '1536K', '2GiB'; K/M/G/T, case-insensitive). None means no cap beyond
        what is free. A matrix above the cap is solved out of core (it stays in host memory
        and streams through the GPU).

    sources, targets : None or a sequence of vertices (nodes of a NetworkX graph)
        With either, only the block of distances from ``sources`` (rows; None: every vertex)
        to ``targets`` (columns; None: every vertex) is computed and returned, as a 2-D array
        of ``dtype`` (an :class:`apsp.NodeArray` labelled by the target nodes for a NetworkX
        graph), never the n x n matrix: Dijkstra from the smaller side on all CPU threads
        (after Bellman-Ford potentials where a weight is negative), the graph reversed when
        the columns are searched. Memory: the graph and ``min(|S|, |T|) x n`` distances. This
        runs on the cpu: ``backend`` must be 'auto' or 'cpu', ``algorithm`` 'auto' or
        'johnson', and ``paths``, ``devices`` and ``gpu_memory`` must be left unset. A negative
        cycle anywhere raises, as the full solve does.
    """
    graph, directed, nodes = _networkx.prepare(csgraph, weight, directed)
    if sources is not None or targets is not None:
        _check_block_options(backend, algorithm, paths, devices, gpu_memory)
        return solve_block(graph, sources, targets, directed=directed, unweighted=unweighted,
                           dtype=dtype, threads=threads, progress=progress, nodes=nodes)
    res = _inputs.solve(graph, directed=directed, unweighted=unweighted, dtype=dtype,
                        backend=backend, paths=True if paths is None else paths,
                        progress=progress, threads=threads, devices=devices,
                        gpu_memory=gpu_memory, algorithm=algorithm)
    res.nodes = nodes
    return res


def _check_block_options(backend, algorithm, paths, devices, gpu_memory):
    """A solve from sources or to targets runs Dijkstra on the cpu, without a path matrix."""
    if _inputs.normalize_backend(backend) not in ("auto", "cpu"):
        raise ValueError(f"solve with sources or targets runs on the cpu; backend={backend!r} "
                         "cannot be honoured (use 'auto' or 'cpu')")
    if _inputs.normalize_algorithm(algorithm) not in ("auto", "johnson"):
        raise ValueError(f"solve with sources or targets runs Dijkstra; algorithm={algorithm!r} "
                         "cannot be honoured (use 'auto' or 'johnson')")
    if paths:
        raise ValueError("solve with sources or targets keeps no paths; for predecessors use "
                         "apsp.dijkstra(graph, indices=sources, return_predecessors=True)")
    if devices is not None or gpu_memory is not None:
        raise ValueError("devices and gpu_memory apply to the cuda back end, which a solve "
                         "with sources or targets does not use")


def read_graph(path, format=None, *, weight_column="weight", undirected=None, directed=None):
    """Reads a graph file into an :class:`apsp.Graph` (usable as input to every solver).

    ``format`` is one of 'dimacs' (.gr), 'mtx', 'edgelist', 'csv' (.csv, .csv.gz),
    'course-binary' (.bin) or 'npy'; None picks it from the suffix. ``weight_column`` names
    the CSV column with weights (every weight is 1 when the column is absent). Vertex ids of
    the file are kept in ``Graph.labels``.

    ``undirected=True`` (or ``directed=False``) reads the file as an undirected graph, as the
    command line's ``--undirected`` does: every edge u v (u != v) also goes v -> u with the same
    weight, in any format, so a negative edge makes a negative cycle. Give one of the two, or
    both when they agree; the default is directed.
    """
    if undirected is not None and directed is not None and bool(undirected) == bool(directed):
        raise ValueError(f"undirected={undirected!r} contradicts directed={directed!r}; give one")
    if undirected is None:
        undirected = directed is not None and not directed
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path}")
    if format is not None and not isinstance(format, str):
        raise TypeError("format must be a string or None")
    return _core.read_graph(path, format or "", weight_column, bool(undirected))


def no_path(dtype):
    """The value that means "no path" in distances of ``dtype``: inf for float types,
    2**30 - 1 for int32, 2**62 - 1 for int64."""
    name = _inputs.normalize_dtype(dtype)
    if name == "int32":
        return _core.INT32_NO_PATH
    if name == "int64":
        return _core.INT64_NO_PATH
    return np.inf


def backends():
    """The back ends built into this apsp: a list of dicts with name, available, detail."""
    return _core.backends()


def release_devices():
    """Give back the GPU contexts (and their memory) that apsp's solves started in this process.

    The next GPU solve starts them again (about 0.2-0.4 s on an H100). For a long-lived process
    that is done with the GPU, or to free its memory for other work; call it only while no solve
    runs. Does nothing where apsp never used CUDA.
    """
    _core.release_devices()
