"""Turns any supported graph input into a call of the compiled solver.

Inputs and their meaning (SciPy's rules, see docs/python.md):
  * dense NumPy array: 0, +-inf and NaN off the diagonal mean "no edge";
  * masked array: masked entries mean "no edge" (and the dense rules still apply);
  * scipy.sparse matrix or array: every stored entry is an edge, explicit zeros included;
  * apsp.Graph: every edge is an edge.
"""

import numpy as np

from . import _core

_DTYPES = ("float64", "float32", "int64", "int32")
_BACKENDS = ("auto", "cpu", "cuda", "reference")
_NATIVE_DENSE = tuple(np.dtype(name) for name in _DTYPES)


def normalize_dtype(dtype):
    """None -> 'float64' (SciPy's output type); anything np.dtype() accepts -> its name."""
    if dtype is None:
        return "float64"
    try:
        name = np.dtype(dtype).name
    except TypeError:
        name = repr(dtype)
    if name not in _DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(_DTYPES)} (or None), not {name}")
    return name


def normalize_backend(backend):
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a string, one of {', '.join(_BACKENDS)}")
    if backend not in _BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(_BACKENDS)}")
    return backend


def _sparse_module():
    try:
        import scipy.sparse
    except ImportError:
        return None
    return scipy.sparse


def _check_square(shape):
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"csgraph must be a square matrix of shape (N, N), not {tuple(shape)}")


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


def solve(csgraph, *, directed, unweighted, dtype, backend, paths, progress, threads=0):
    """Runs the solve on any supported input and returns an apsp.Result."""
    kwargs = dict(
        directed=bool(directed),
        unweighted=bool(unweighted),
        dtype=normalize_dtype(dtype),
        backend=normalize_backend(backend),
        paths=bool(paths),
        progress=progress,
        threads=int(threads or 0),
    )
    if progress is not None and not callable(progress):
        raise TypeError("progress must be callable or None")
    if isinstance(csgraph, _core.Graph):
        return _core.solve_graph(csgraph, **kwargs)
    sparse = _sparse_module()
    if sparse is not None and sparse.issparse(csgraph):
        _check_square(csgraph.shape)
        coo = csgraph.tocoo()
        data = _real_values(np.asarray(coo.data), "the sparse matrix")
        return _core.solve_edges(csgraph.shape[0], coo.row, coo.col, data, **kwargs)
    mask = None
    if np.ma.isMaskedArray(csgraph):
        mask = np.ma.getmaskarray(csgraph)
        values = np.asarray(csgraph.data)
        if not mask.any():
            mask = None
    else:
        try:
            values = np.asarray(csgraph)
        except ValueError as e:
            raise ValueError(f"csgraph is not a matrix: {e}") from None
    _check_square(values.shape)
    values = _real_values(values, "csgraph")
    return _core.solve_dense(values, mask, **kwargs)
