"""Distances equal scipy.sparse.csgraph.floyd_warshall on the same inputs."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import floyd_warshall as scipy_fw

import apsp
from conftest import random_dense, with_negative_edges

# Sizes around the CPU back end's tile edges, plus the degenerate ones.
SIZES = [0, 1, 2, 7, 31, 64, 65, 130]


def assert_same_distances(got, expected, dtype=None):
    """Float results: equal with inf in the same places; int results: no_path where inf."""
    assert got.shape == expected.shape
    if dtype is None or np.dtype(dtype).kind == "f":
        assert np.array_equal(np.isinf(got), np.isinf(expected))
        finite = np.isfinite(expected)
        np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-6 if dtype else 1e-12)
    else:
        unreachable = np.isinf(expected)
        assert np.all(got[unreachable] == apsp.no_path(dtype))
        assert np.array_equal(got[~unreachable], expected[~unreachable].astype(got.dtype))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("directed", [True, False])
def test_dense_matches_scipy(n, directed, backend):
    seed = 1000 + n
    a = random_dense(n, 0.15, seed, integral=False)
    dtype = "float32" if backend == "cuda" else None
    got = apsp.floyd_warshall(a, directed=directed, backend=backend, dtype=dtype)
    assert got.dtype == (np.float32 if dtype else np.float64), f"seed {seed}"
    assert_same_distances(got, scipy_fw(a, directed=directed), dtype)


@pytest.mark.parametrize("dtype", [None, "float64", "float32", "int64", "int32"])
@pytest.mark.parametrize("n", [33, 97])
def test_dtypes_match_scipy(dtype, n):
    a = random_dense(n, 0.1, 7 * n)
    got = apsp.floyd_warshall(a, dtype=dtype)
    assert got.dtype == np.dtype(dtype or "float64")
    assert_same_distances(got, scipy_fw(a), dtype)


@pytest.mark.parametrize("n", [5, 64, 100])
def test_negative_edges_without_negative_cycles(n, backend):
    a = with_negative_edges(random_dense(n, 0.6 if n < 10 else 0.2, 3 * n), seed=n)
    assert (a < 0).any()
    expected = scipy_fw(a)
    for dtype in (["float32", "int32"] if backend == "cuda" else [None, "int32", "int64"]):
        assert_same_distances(apsp.floyd_warshall(a, dtype=dtype, backend=backend), expected,
                              dtype)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil"])
@pytest.mark.parametrize("directed", [True, False])
def test_sparse_matches_scipy_with_explicit_zeros(fmt, directed):
    n = 70
    rng = np.random.default_rng(5)
    dense = random_dense(n, 0.08, 11)
    rows, cols = np.nonzero(dense)
    data = dense[rows, cols]
    data[rng.random(data.size) < 0.3] = 0.0  # explicit zeros are zero-weight edges
    csr = sp.csr_matrix((data, (rows, cols)), shape=(n, n))
    assert csr.nnz == data.size and (csr.data == 0).any()
    expected = scipy_fw(csr, directed=directed)
    got = apsp.floyd_warshall(csr.asformat(fmt), directed=directed)
    assert_same_distances(got, expected)
    # The same graph as a dense matrix differs: there, 0 means "no edge".
    assert not np.array_equal(apsp.floyd_warshall(csr.toarray()), got)


def test_sparse_array_and_duplicates_keep_minimum():
    # CSR with a duplicate (0 -> 1 twice): SciPy's floyd_warshall keeps the minimum.
    data, indices, indptr = np.array([5.0, 3.0, 0.0]), np.array([1, 1, 2]), np.array([0, 2, 3, 3])
    g = sp.csr_matrix((data, indices, indptr), shape=(3, 3))
    expected = scipy_fw(g)
    assert_same_distances(apsp.floyd_warshall(g), expected)
    assert_same_distances(apsp.floyd_warshall(sp.csr_array(g)), expected)
    assert apsp.floyd_warshall(g)[0, 2] == 3.0


@pytest.mark.parametrize("directed", [True, False])
def test_masked_matches_scipy(directed):
    n = 50
    a = random_dense(n, 0.3, 21)
    rng = np.random.default_rng(22)
    masked = np.ma.masked_array(a, mask=rng.random((n, n)) < 0.4)
    assert_same_distances(apsp.floyd_warshall(masked, directed=directed),
                          scipy_fw(masked, directed=directed))


@pytest.mark.parametrize("kind", ["dense", "sparse", "masked"])
@pytest.mark.parametrize("directed", [True, False])
def test_unweighted_matches_scipy(kind, directed):
    a = random_dense(60, 0.06, 31)
    graph = {"dense": a, "sparse": sp.csr_matrix(a),
             "masked": np.ma.masked_array(a, mask=a > 15)}[kind]
    expected = scipy_fw(graph, directed=directed, unweighted=True)
    got = apsp.floyd_warshall(graph, directed=directed, unweighted=True)
    assert_same_distances(got, expected)
    assert np.nanmax(np.where(np.isinf(got), np.nan, got)) > 1  # multi-hop paths exist


@pytest.mark.parametrize("values", [
    np.array([[0, 3, np.inf], [np.nan, 0, -np.inf], [1, 0, 0]]),
    np.array([[7, 2], [1, 9]], dtype=np.int32),
    np.array([[0, 2], [1, 0]], dtype=np.uint8),
    np.array([[0, 2], [1, 0]], dtype=np.int64),
    np.array([[0, 2.5], [1, 0]], dtype=np.float32),
    np.array([[False, True], [True, False]]),
    [[0, 1, 0], [0, 0, 1], [1, 0, 0]],
])
def test_input_dtypes_and_non_finite_entries(values):
    # Non-finite and zero entries mean "no edge"; positive diagonal entries are ignored.
    assert_same_distances(apsp.floyd_warshall(values), scipy_fw(values))


def test_non_contiguous_and_fortran_inputs():
    a = random_dense(80, 0.2, 41)
    for view in (np.asfortranarray(a), a.T, random_dense(160, 0.2, 42)[::2, 1::2]):
        assert_same_distances(apsp.floyd_warshall(view), scipy_fw(np.ascontiguousarray(view)))


def test_graph_input_matches_sparse():
    a = random_dense(40, 0.1, 51)
    rows, cols = np.nonzero(a)
    g = apsp.Graph(40, rows, cols, a[rows, cols])
    assert g.n == 40 and g.num_edges == rows.size
    for directed in (True, False):
        for unweighted in (True, False):
            assert_same_distances(
                apsp.floyd_warshall(g, directed=directed, unweighted=unweighted),
                scipy_fw(sp.csr_matrix(a), directed=directed, unweighted=unweighted))


def test_shortest_path_fw_and_indices():
    a = random_dense(30, 0.15, 61)
    expected = scipy_fw(a)
    for method in ("FW", "auto"):
        assert_same_distances(apsp.shortest_path(a, method=method), expected)
    assert_same_distances(apsp.shortest_path(a, indices=4), expected[4])
    dist, pred = apsp.shortest_path(a, indices=[2, 9], return_predecessors=True)
    assert dist.shape == pred.shape == (2, 30)
    assert_same_distances(dist, expected[[2, 9]])


def test_overwrite_writes_into_float64_input():
    a = random_dense(25, 0.2, 71)
    expected = scipy_fw(a)
    out = apsp.floyd_warshall(a, overwrite=True)
    assert out is a
    assert_same_distances(a, expected)
    b = random_dense(25, 0.2, 71).astype(np.float32)
    assert apsp.floyd_warshall(b, overwrite=True) is not b  # not eligible: left untouched
    assert np.array_equal(b, random_dense(25, 0.2, 71).astype(np.float32))


def test_results_own_their_memory_without_copies():
    a = random_dense(20, 0.3, 81)
    # float64 computed as float64 (dtype=None on whole weights computes in int32 and converts).
    dist, pred = apsp.floyd_warshall(a, return_predecessors=True, dtype="float64")
    assert dist.flags.writeable and pred.flags.writeable and pred.dtype == np.int32
    assert type(dist.base).__name__ == "PyCapsule"  # the C++ buffer, handed over
    r = apsp.solve(a, dtype="float64")
    v1, v2 = r.distances, r.distances
    assert np.shares_memory(v1, v2) and not v1.flags.writeable
    del r
    assert_same_distances(v1, dist)  # the view keeps the result alive
