"""Turns any supported graph input into a call of the compiled solver.

Inputs and their meaning (SciPy's rules, see docs/python.md):
  * dense NumPy array: 0, +-inf and NaN off the diagonal mean "no edge";
  * masked array: masked entries mean "no edge" (and the dense rules still apply);
  * scipy.sparse matrix or array: every stored entry is an edge, explicit zeros included;
  * apsp.Graph: every edge is an edge;
  * a NetworkX graph (see _networkx.py), already an EdgeList here: parallel edges keep the least.
Anything else is refused with a TypeError that names a conversion.
"""

import operator
import re

import numpy as np

from . import _core, _dtype, _progress
from ._networkx import EdgeList

_DTYPES = ("float64", "float32", "int64", "int32")
_BACKENDS = ("auto", "cpu", "cuda", "reference")
_NATIVE_DENSE = tuple(np.dtype(name) for name in _DTYPES)


def normalize_dtype(dtype):
    """None -> 'float64' (SciPy's output type; the solves resolve None themselves, see
    _dtype.py); anything np.dtype() accepts -> its name."""
    if dtype is None:
        return "float64"
    try:
        name = np.dtype(dtype).name
    except TypeError:
        name = repr(dtype)
    if name not in _DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(_DTYPES)} (or None), not {name}")
    return name


_ALGORITHMS = ("auto", "fw", "johnson", "supernodal")


def normalize_algorithm(algorithm):
    if algorithm not in _ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; expected one of "
                         f"{', '.join(_ALGORITHMS)}")
    return algorithm


def normalize_backend(backend):
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a string, one of {', '.join(_BACKENDS)}")
    if backend not in _BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(_BACKENDS)}")
    return backend


_INT_MAX = 2**31 - 1
_UINT64_MAX = 2**64 - 1
_BYTE_SIZE = re.compile(r"(\d+)\s*(?:([KMGT])(?:I?B)?|B)?", re.IGNORECASE | re.ASCII)
_BYTE_SHIFT = {"K": 10, "M": 20, "G": 30, "T": 40}


def _as_int(value):
    """value as a Python int when it is an integer (bool excluded), else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def normalize_threads(threads):
    """None or 0 -> 0 (all threads); a whole number >= 0 -> itself."""
    if threads is None:
        return 0
    if isinstance(threads, bool) or _as_int(threads) is None:
        raise TypeError(f"threads must be a whole number (0 = all), not "
                        f"{type(threads).__name__} {threads!r}")
    value = _as_int(threads)
    if not 0 <= value < 2**31:
        raise ValueError(f"threads must lie in 0..2**31-1 (0 = all), not {value}")
    return value


def normalize_devices(devices):
    """None -> [] (the back end's default, device 0); 'all' -> [-1] (every device); an
    iterable of distinct non-negative ints -> that list."""
    if devices is None:
        return []
    if isinstance(devices, str):
        if devices == "all":
            return [-1]
        raise ValueError(f"devices must be None, 'all' or a sequence of CUDA device indices "
                         f"such as [0, 1], not the string {devices!r}")
    if _as_int(devices) is not None:
        raise TypeError(f"devices must be None, 'all' or a sequence of CUDA device indices, not "
                        f"a single int: use devices=[{_as_int(devices)}]")
    if isinstance(devices, (bytes, bytearray, dict, set, frozenset)):
        raise TypeError("devices must be None, 'all' or a sequence (list, tuple, array) of CUDA "
                        f"device indices, not {type(devices).__name__}")
    try:
        items = list(devices)
    except TypeError:
        raise TypeError("devices must be None, 'all' or a sequence of CUDA device indices, not "
                        f"{type(devices).__name__}") from None
    if not items:
        raise ValueError("devices must name at least one CUDA device (None means device 0)")
    out = []
    for item in items:
        d = _as_int(item)
        if d is None:
            raise TypeError(f"devices must hold ints (CUDA device indices), not "
                            f"{type(item).__name__} {item!r}")
        if d < 0:
            raise ValueError(f"CUDA device indices must be >= 0, got {d} (use devices='all' "
                             "for every device)")
        if d > _INT_MAX:
            raise ValueError(f"CUDA device index {d} is out of range")
        if d in out:
            raise ValueError(f"CUDA device {d} is listed twice in devices")
        out.append(d)
    return out


def normalize_gpu_memory(gpu_memory):
    """None -> 0 (no cap); a positive int (bytes) or a string such as '2G', '512M', '1536K',
    '2GiB' or '1048576' (binary units, case-insensitive) -> bytes."""
    if gpu_memory is None:
        return 0
    if isinstance(gpu_memory, str):
        m = _BYTE_SIZE.fullmatch(gpu_memory.strip())
        if m is None:
            raise ValueError(f"invalid gpu_memory {gpu_memory!r}: expected a positive number of "
                             "bytes with an optional K, M, G or T suffix (e.g. '2G', '512M', "
                             "'1536K', '2GiB')")
        value = int(m.group(1)) << _BYTE_SHIFT.get((m.group(2) or "").upper(), 0)
    else:
        value = _as_int(gpu_memory)
        if value is None:
            raise TypeError("gpu_memory must be None, an int (bytes) or a string such as '2G', "
                            f"not {type(gpu_memory).__name__}")
    if value <= 0:
        raise ValueError(f"gpu_memory must be positive (None means no cap), got {gpu_memory!r}")
    if value > _UINT64_MAX:
        raise ValueError(f"gpu_memory {gpu_memory!r} is too large")
    return value


def _sparse_module():
    try:
        import scipy.sparse
    except ImportError:
        return None
    return scipy.sparse


def _check_square(shape):
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"csgraph must be a square matrix of shape (N, N), not {tuple(shape)}")


def not_a_graph(csgraph):
    """The TypeError for an object that is neither a matrix (array-like, sparse, masked) nor a
    graph apsp reads, naming the conversion to use."""
    kind = type(csgraph).__name__
    if isinstance(csgraph, (str, bytes)) or hasattr(csgraph, "__fspath__"):
        hint = "for a graph file use apsp.read_graph(path)"
    elif isinstance(csgraph, dict):
        hint = ("for a dict of dicts use networkx.DiGraph(d), or build a sparse matrix with "
                "scipy.sparse.coo_array((weights, (rows, cols)), shape=(n, n))")
    elif hasattr(csgraph, "get_adjacency_sparse"):  # igraph-like, but no igraph.Graph
        hint = ("igraph graphs are taken as igraph.Graph objects (python-igraph; Debian: "
                "python3-igraph), not get_adjacency_sparse(), which adds parallel edges up")
    elif type(csgraph).__module__.split(".")[0] == "networkx" or hasattr(csgraph, "adj"):
        hint = ("for a NetworkX graph install networkx (Debian: python3-networkx), or use "
                "networkx.to_scipy_sparse_array(G)")
    else:
        hint = (f"for a {kind} build a scipy.sparse matrix (coo_array((weights, (rows, cols)), "
                "shape=(n, n))) or a NumPy array of weights")
    return TypeError(f"csgraph is a {kind}: pass a SciPy sparse matrix, a NumPy array, an "
                     f"apsp.Graph or a NetworkX graph; {hint}")


def _is_array_like(csgraph):
    return (isinstance(csgraph, (np.ndarray, list, tuple)) or hasattr(csgraph, "__array__")
            or hasattr(csgraph, "__array_interface__"))


def _real_values(values, what):
    """Returns values in a dtype the core reads in place, converting only when needed."""
    if values.dtype in _NATIVE_DENSE:
        return values
    if values.dtype.kind in "biuf":
        return values.astype(np.float64)
    if values.dtype.kind == "O":
        try:
            return values.astype(np.float64)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{what} holds objects that are not numbers: {e}") from None
    raise TypeError(f"{what} must hold real numbers, not {values.dtype}")


def solve(csgraph, *, directed, unweighted, dtype, backend, paths, progress, threads=0,
          devices=None, gpu_memory=None, algorithm="auto", masked_zeros_are_edges=False):
    """Runs the solve on any supported input and returns an apsp.Result.

    masked_zeros_are_edges: the unmasked zeros of a masked array are zero-weight edges, as in
    SciPy's Dijkstra, Johnson and Bellman-Ford (its Floyd-Warshall takes them as no edge)."""
    with _progress.callback_for(progress) as callback:
        return _solve(csgraph, directed=directed, unweighted=unweighted, dtype=dtype,
                      backend=backend, paths=paths, progress=callback, threads=threads,
                      devices=devices, gpu_memory=gpu_memory, algorithm=algorithm,
                      masked_zeros_are_edges=masked_zeros_are_edges)


def _solve(csgraph, *, directed, unweighted, dtype, backend, paths, progress, threads, devices,
           gpu_memory, algorithm, masked_zeros_are_edges):
    kwargs = dict(
        directed=bool(directed),
        unweighted=bool(unweighted),
        backend=normalize_backend(backend),
        paths=bool(paths),
        progress=progress,
        threads=normalize_threads(threads),
        devices=normalize_devices(devices),
        gpu_memory=normalize_gpu_memory(gpu_memory),
        algorithm=normalize_algorithm(algorithm),
    )
    if dtype is not None:
        normalize_dtype(dtype)  # a bad dtype is refused before the input is read
    kind, graph = classify(csgraph, masked_zeros_are_edges)

    def run(name):
        if kind == "graph":
            return _core.solve_graph(graph, dtype=name, **kwargs)
        if kind == "edges":
            return _core.solve_edges(graph.n, graph.rows, graph.cols, graph.weights, dtype=name,
                                     **kwargs)
        return _core.solve_dense(*graph, dtype=name, **kwargs)

    return _dtype.solve_in(dtype, run, lambda: weights_of(kind, graph), unweighted)


def weights_of(kind, graph):
    """The weights of classify()'s (kind, graph): an array of any shape."""
    if kind == "graph":
        return graph.edges[2]
    if kind == "edges":
        return graph.weights
    return graph[0]


def classify(csgraph, masked_zeros_are_edges=False):
    """(kind, graph) for the compiled entry points: ('graph', an apsp.Graph), ('edges', an
    EdgeList: sparse input, a NetworkX graph's edges, a masked array whose unmasked zeros are
    edges) or ('dense', (values, mask or None)), checked square and real."""
    if isinstance(csgraph, _core.Graph):
        return "graph", csgraph
    edges = _edges_unless_dense(csgraph, masked_zeros_are_edges)
    if edges is not None:
        return "edges", edges
    return "dense", _dense_values(csgraph)


def _edges_unless_dense(csgraph, masked_zeros_are_edges):
    """An EdgeList for the inputs read as edges (sparse, EdgeList, a masked array whose unmasked
    zeros are edges); None for a dense matrix."""
    if isinstance(csgraph, EdgeList):
        return csgraph
    sparse = _sparse_module()
    if sparse is not None and sparse.issparse(csgraph):
        _check_square(csgraph.shape)
        # A COO matrix's duplicates add up (SciPy's conversion to CSR sums them); the stored
        # entries of the compressed formats are edges each, and the minimum counts.
        csr = csgraph.tocsr() if csgraph.format in ("coo", "csc") else csgraph
        if csr.format != "csr":
            csr = csr.tocoo()
            return EdgeList(csgraph.shape[0], csr.row, csr.col,
                            _real_values(np.asarray(csr.data), "the sparse matrix"))
        # CSR's own arrays, without tocoo's copies (the graph may be large and the solve short).
        rows = np.repeat(np.arange(csr.shape[0], dtype=np.int64), np.diff(csr.indptr))
        return EdgeList(csgraph.shape[0], rows, csr.indices,
                        _real_values(np.asarray(csr.data), "the sparse matrix"))
    if np.ma.isMaskedArray(csgraph) and masked_zeros_are_edges:
        values = np.asarray(csgraph.data)
        _check_square(values.shape)
        values = _real_values(values, "csgraph")
        # Every unmasked finite entry is an edge, zeros included; inf, -inf, NaN are none.
        return _nonzero_edges(values, ~np.ma.getmaskarray(csgraph) & np.isfinite(values))
    return None


def csr_arrays(csgraph):
    """(n, indptr, indices, data) of a SciPy CSR, CSC or COO matrix (the last two converted as
    SciPy converts them: a COO's duplicates add up), in the types the core reads in place:
    indptr and indices both int32 or both int64, data float64 or float32, each contiguous. None
    for any other input."""
    sparse = _sparse_module()
    if sparse is None or not sparse.issparse(csgraph) or \
            csgraph.format not in ("csr", "csc", "coo"):
        return None
    _check_square(csgraph.shape)
    csr = csgraph if csgraph.format == "csr" else csgraph.tocsr()
    indptr, indices = np.asarray(csr.indptr), np.asarray(csr.indices)
    if indptr.dtype != indices.dtype or indptr.dtype not in (np.int32, np.int64):
        indptr, indices = indptr.astype(np.int64), indices.astype(np.int64)
    data = _real_values(np.asarray(csr.data), "the sparse matrix")
    if data.dtype not in (np.float64, np.float32):
        data = data.astype(np.float64)
    return (csgraph.shape[0], np.ascontiguousarray(indptr), np.ascontiguousarray(indices),
            np.ascontiguousarray(data))


def dense_edges(values, mask):
    """The edges of a dense matrix under Floyd-Warshall's rule (off the diagonal, 0, inf, NaN
    and masked entries are no edge; a diagonal entry is a self-loop) as an EdgeList."""
    is_edge = (values != 0) & np.isfinite(values)
    if mask is not None:
        is_edge &= ~mask
    return _nonzero_edges(values, is_edge)


def _nonzero_edges(values, is_edge):
    rows, cols = np.nonzero(is_edge)
    return EdgeList(values.shape[0], rows.astype(np.int64), cols.astype(np.int64),
                    values[rows, cols])


def _dense_values(csgraph):
    """(values, mask or None) of a dense or masked matrix, checked square and real."""
    mask = None
    if np.ma.isMaskedArray(csgraph):
        mask = np.ma.getmaskarray(csgraph)
        values = np.asarray(csgraph.data)
        if not mask.any():
            mask = None
    else:
        if not _is_array_like(csgraph):
            raise not_a_graph(csgraph)
        try:
            values = np.asarray(csgraph)
        except ValueError as e:
            raise ValueError(f"csgraph is not a matrix: {e}") from None
    _check_square(values.shape)
    return _real_values(values, "csgraph"), mask


def edge_list(csgraph):
    """Any input other than an apsp.Graph as an EdgeList, with the rules of SciPy's Dijkstra,
    Johnson and Bellman-Ford (a masked array's unmasked zeros are edges; in a dense matrix 0,
    inf and NaN are no edge). For solves from some sources, which never hold n x n values."""
    edges = _edges_unless_dense(csgraph, masked_zeros_are_edges=True)
    if edges is not None:
        return edges
    values, _ = _dense_values(csgraph)
    return _nonzero_edges(values, (values != 0) & np.isfinite(values))
