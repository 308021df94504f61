"""Shared helpers for the apsp Python tests (run by CTest with PYTHONPATH=<build>/python)."""

import os
import pathlib

import numpy as np
import pytest

import apsp


def random_dense(n, density, seed, low=1, high=20, integral=True):
    """A SciPy-style dense graph: 0 = no edge, weights in [low, high); seed printed on failure."""
    rng = np.random.default_rng(seed)
    if integral:
        w = rng.integers(low, high, size=(n, n)).astype(np.float64)
    else:
        w = rng.uniform(low, high, size=(n, n))
    w[rng.random((n, n)) >= density] = 0
    return w


def as_float(dist):
    """Distances as SciPy gives them: integer ones (apsp.solve's dtype=None on whole weights is
    int32) as float64 with inf for "no path"; float ones as they are."""
    dist = np.asarray(dist)
    if dist.dtype.kind == "f":
        return dist
    return np.where(dist == apsp.no_path(dist.dtype), np.inf, dist.astype(np.float64))


def with_negative_edges(dense, seed):
    """Adds potentials p: w(u,v) + p(u) - p(v) keeps every cycle's weight (so no negative
    cycle) while making some edges negative. Zero results are nudged to stay edges."""
    rng = np.random.default_rng(seed)
    n = dense.shape[0]
    p = rng.integers(0, 40, size=n).astype(np.float64)
    out = dense + p[:, None] - p[None, :]
    out[dense == 0] = 0
    # An edge reweighted to exactly 0 would read as "no edge"; raising it keeps every cycle
    # non-negative.
    out[(dense != 0) & (out == 0)] = 1
    return out


def data_file(name):
    """The repository's data/ copy, else tests/data, else ../shared/data; None when absent."""
    root = pathlib.Path(__file__).resolve().parents[2]
    roots = [root / "data", root / "tests" / "data", root.parent / "shared" / "data"]
    roots += [pathlib.Path(os.environ[v]) for v in ("APSP_TEST_DATA", "APSP_SHARED_DATA")
              if os.environ.get(v)]
    for base in roots:
        if (base / name).is_file():
            return base / name
    return None


def cuda_available():
    return any(b["name"] == "cuda" and b["available"] for b in apsp.backends())


BACKENDS = ["cpu", "reference"] + (["cuda"] if cuda_available() else [])


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param
