"""indices= on a SciPy CSR (or CSC, COO) matrix: its own arrays go to the library as they are
(int32 or int64 indices, float64 or float32 data), searched in place when they can be. The rows
must be SciPy's, and the distances and predecessors exactly those of the edge-list path
(apsp.Graph built from the same entries in the same order), whichever way the core reads them:
canonical or not (repeated and unsorted targets), explicit zeros, +inf entries, negative
weights, directed=False, unweighted, every dtype."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import apsp

SOURCES = [0, [7, 0, 7], np.arange(0, 40, 3)]


def random_csr(n, seed, *, index=np.int32, data=np.float64, canonical=True, zeros=True,
               negative=False):
    """A seeded CSR matrix with explicit zeros; not canonical: each row's targets shuffled and
    some repeated with other weights (entries SciPy's csgraph reads one by one)."""
    rng = np.random.default_rng(seed)
    indptr = [0]
    indices, weights = [], []
    for _ in range(n):
        row = rng.choice(n, size=rng.integers(0, 8), replace=False)
        if not canonical and row.size:
            row = np.concatenate([row, rng.choice(row, size=2)])
            rng.shuffle(row)
        else:
            row = np.sort(row)
        w = rng.integers(1, 30, row.size).astype(float)
        if zeros:
            w[rng.random(row.size) < 0.15] = 0.0
        indices.extend(row)
        weights.extend(w)
        indptr.append(len(indices))
    a = sp.csr_matrix((np.array(weights, dtype=data), np.array(indices), np.array(indptr)),
                      shape=(n, n))
    if negative:  # potentials keep every cycle non-negative
        h = rng.integers(0, 10, n)
        rows = np.repeat(np.arange(n), np.diff(a.indptr))
        a.data = (a.data + h[rows] - h[a.indices]).astype(data)
    # Set after construction: SciPy may narrow the index type it is given.
    a.indptr, a.indices = a.indptr.astype(index), a.indices.astype(index)
    assert a.indices.dtype == index and a.data.dtype == data
    steps = np.diff(a.indices.astype(np.int64))[np.diff(np.repeat(np.arange(n),
                                                                   np.diff(a.indptr))) == 0]
    assert (steps > 0).all() == canonical  # strictly increasing within every row, or not
    return a


def for_scipy(a):
    """`a` with int32 indices: this SciPy's csgraph refuses int64 ones ("Buffer dtype
    mismatch")."""
    b = a.copy()
    b.indptr, b.indices = b.indptr.astype(np.int32), b.indices.astype(np.int32)
    return b


def edge_path(a, sources, **kwargs):
    """The same entries, in the same order, through apsp.Graph (the edge-list path)."""
    rows = np.repeat(np.arange(a.shape[0]), np.diff(a.indptr))
    g = apsp.Graph(a.shape[0], rows, a.indices.astype(np.int64), a.data.astype(np.float64))
    return apsp.dijkstra(g, indices=sources, return_predecessors=True, **kwargs)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("canonical", [True, False])
@pytest.mark.parametrize("data", [np.float64, np.float32])
@pytest.mark.parametrize("index", [np.int32, np.int64])
def test_csr_rows_are_scipys_and_the_edge_paths(index, data, canonical, seed):
    a = random_csr(60, 100 * seed + canonical, index=index, data=data, canonical=canonical)
    for directed in (True, False):
        for sources in SOURCES:
            for ours, theirs in ((apsp.dijkstra, csgraph.dijkstra),
                                 (apsp.johnson, csgraph.johnson)):
                np.testing.assert_array_equal(
                    ours(a, directed=directed, indices=sources),
                    theirs(for_scipy(a), directed=directed, indices=sources),
                    err_msg=f"{ours.__name__} directed={directed} seed {seed}")
            dist, pred = apsp.dijkstra(a, directed=directed, indices=sources,
                                       return_predecessors=True)
            want_dist, want_pred = edge_path(a, sources, directed=directed)
            np.testing.assert_array_equal(dist, want_dist)
            np.testing.assert_array_equal(pred, want_pred)


@pytest.mark.parametrize("dtype", ["float32", "int64", "int32"])
def test_csr_other_dtypes_and_unweighted(dtype):
    a = random_csr(50, 7, index=np.int64, data=np.float32)
    got = apsp.dijkstra(a, indices=[1, 4], dtype=dtype)
    assert got.dtype == np.dtype(dtype)
    want = csgraph.dijkstra(for_scipy(a), indices=[1, 4])
    np.testing.assert_array_equal(np.where(got >= apsp.no_path(dtype), np.inf, got), want)
    for directed in (True, False):
        np.testing.assert_array_equal(
            apsp.dijkstra(a, indices=3, unweighted=True, directed=directed, dtype=dtype),
            edge_path(a, 3, unweighted=True, directed=directed, dtype=dtype)[0])


def test_csr_negative_weights_and_cycles():
    a = random_csr(70, 8, negative=True)
    assert (a.data < 0).any()
    for sources in SOURCES:
        np.testing.assert_allclose(apsp.bellman_ford(a, indices=sources),
                                   csgraph.bellman_ford(for_scipy(a), indices=sources),
                                   rtol=1e-12)
        dist, pred = apsp.johnson(a, indices=sources, return_predecessors=True)
        want_dist, want_pred = edge_path(a, sources)
        np.testing.assert_array_equal(dist, want_dist)
        np.testing.assert_array_equal(pred, want_pred)
    cyc = sp.csr_matrix(np.array([[0, 1.0, 0], [0, 0, -2.0], [0.5, 0, 0]]))
    with pytest.raises(apsp.NegativeCycleError):
        apsp.dijkstra(cyc, indices=0)


def test_csr_entries_as_scipy_reads_them():
    # explicit zero 0 -> 1, +inf 0 -> 2 (no edge), 1 -> 2 of 3; mixed index types are widened
    a = sp.csr_matrix((np.array([0.0, np.inf, 3.0]), np.array([1, 2, 2]), np.array([0, 2, 3, 3])),
                      shape=(3, 3))
    a.indices = a.indices.astype(np.int64)
    np.testing.assert_array_equal(apsp.dijkstra(a, indices=0), [0, 0, 3])
    np.testing.assert_array_equal(apsp.dijkstra(a, indices=0),
                                  csgraph.dijkstra(for_scipy(a), indices=0))
    for bad, word in ((np.nan, "NaN"), (-np.inf, "-inf")):
        a.data[2] = bad
        with pytest.raises(ValueError, match=rf"entry \(1, 2\) is {word}"):
            apsp.dijkstra(a, indices=0)
    ints = sp.csr_matrix(np.array([[0, 2], [5, 0]], dtype=np.int64))
    np.testing.assert_array_equal(apsp.dijkstra(ints, indices=[1, 0]), [[5, 0], [0, 2]])


@pytest.mark.parametrize("fmt", ["csc", "coo"])
def test_csc_and_coo_read_as_scipy_converts_them(fmt):
    rng = np.random.default_rng(9)
    rows, cols = rng.integers(0, 30, 200), rng.integers(0, 30, 200)  # repeats add up
    a = sp.coo_matrix((rng.integers(1, 9, 200).astype(float), (rows, cols)), shape=(30, 30))
    a = a.asformat(fmt)
    np.testing.assert_array_equal(apsp.dijkstra(a, indices=[0, 5]),
                                  csgraph.dijkstra(a, indices=[0, 5]))
