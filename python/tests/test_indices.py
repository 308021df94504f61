"""indices= as SciPy means it: only the asked sources are solved (|S| x N values), with SciPy's
shapes, predecessors, limit, min_only, unweighted, directed=False, input conventions and
negative-cycle errors, compared with scipy.sparse.csgraph on seeded random graphs."""

import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import apsp
from conftest import random_dense, with_negative_edges
from test_sparse_methods import assert_valid_predecessors, sparse_graph

INDICES = [0, -1, [3], [5, 0, 5, 17], np.array([-2, 8], dtype=np.int64), []]


def symmetric_min(a):
    """SciPy's undirected reading: min(w[i, j], w[j, i]) both ways."""
    w = a.toarray()
    return sp.csr_matrix(np.where((w != 0) & (w.T != 0), np.minimum(w, w.T), w + w.T))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("indices", INDICES, ids=repr)
def test_dijkstra_and_johnson_rows_match_scipy(indices, directed, seed):
    a = sparse_graph(60, 1000 + seed, density=0.06)
    for ours, theirs in ((apsp.dijkstra, csgraph.dijkstra), (apsp.johnson, csgraph.johnson),
                         (apsp.bellman_ford, csgraph.bellman_ford)):
        want = theirs(a, directed=directed, indices=indices)
        got, pred = ours(a, directed=directed, indices=indices, return_predecessors=True)
        assert got.shape == want.shape and pred.shape == want.shape, (ours.__name__, seed)
        assert got.dtype == np.float64 and pred.dtype == np.int32
        np.testing.assert_array_equal(got, want, err_msg=f"{ours.__name__} seed {seed}")
        rows = np.atleast_1d(np.arange(60)[indices]) if np.size(indices) else []
        assert_valid_predecessors(a if directed else symmetric_min(a), np.atleast_2d(got),
                                  np.atleast_2d(pred), rows)


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_negative_weights_without_negative_cycles(seed):
    a = sp.csr_matrix(with_negative_edges(random_dense(70, 0.05, 2000 + seed), seed))
    assert (a.data < 0).any()
    for indices in (7, [0, 69, 7, 7]):
        want = csgraph.bellman_ford(a, indices=indices)
        for ours in (apsp.johnson, apsp.bellman_ford, apsp.dijkstra):
            got, pred = ours(a, indices=indices, return_predecessors=True)
            np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=f"seed {seed}")
            assert_valid_predecessors(a, np.atleast_2d(got), np.atleast_2d(pred),
                                      np.atleast_1d(np.arange(70)[indices]))
        for method in ("J", "BF", "auto"):
            np.testing.assert_allclose(apsp.shortest_path(a, method=method, indices=indices),
                                       csgraph.shortest_path(a, method="J", indices=indices))


def test_integer_dtypes_and_unweighted():
    a = sparse_graph(50, 3001)
    want = csgraph.dijkstra(a, indices=[2, 9])
    for dtype in ("int32", "int64", "float32"):
        got = apsp.dijkstra(a, indices=[2, 9], dtype=dtype)
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(np.where(got >= apsp.no_path(dtype), np.inf, got), want)
    np.testing.assert_array_equal(apsp.dijkstra(a, indices=4, unweighted=True),
                                  csgraph.dijkstra(a, indices=4, unweighted=True))


def test_limit_and_min_only_with_indices():
    a = sparse_graph(80, 3002, density=0.04)
    for limit in (0, 6, 20.5):
        got, pred = apsp.dijkstra(a, indices=[1, 40], limit=limit, return_predecessors=True)
        want, want_pred = csgraph.dijkstra(a, indices=[1, 40], limit=limit,
                                           return_predecessors=True)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(pred == -9999, want_pred == -9999)
    got, _, src = apsp.dijkstra(a, indices=[3, 50, -1], min_only=True, return_predecessors=True)
    want, _, want_src = csgraph.dijkstra(a, indices=[3, 50, -1], min_only=True,
                                         return_predecessors=True)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(src == -9999, want_src == -9999)


def test_dense_and_masked_conventions():
    dense = random_dense(40, 0.1, 3003)
    dense[3, 4] = np.inf
    dense[5, 6] = np.nan
    np.testing.assert_array_equal(apsp.dijkstra(dense, indices=[3, 5]),
                                  csgraph.dijkstra(dense, indices=[3, 5]))
    masked = np.ma.masked_array(np.random.default_rng(7).integers(0, 6, (40, 40)).astype(float),
                                mask=np.random.default_rng(8).random((40, 40)) < 0.85)
    for directed in (True, False):
        np.testing.assert_array_equal(apsp.johnson(masked, indices=[0, 39], directed=directed),
                                      csgraph.johnson(masked, indices=[0, 39], directed=directed))


def test_negative_cycles_as_scipy_reports_them():
    # 0 -> 1; a negative cycle 2 <-> 3 that 0 cannot reach.
    a = sp.csr_matrix((np.array([1.0, -2.0, 1.0]), (np.array([0, 2, 3]), np.array([1, 3, 2]))),
                      shape=(4, 4))
    want = csgraph.bellman_ford(a, indices=0)
    np.testing.assert_array_equal(apsp.bellman_ford(a, indices=0), want)
    np.testing.assert_array_equal(apsp.dijkstra(a, indices=0), want)
    with pytest.raises(csgraph.NegativeCycleError):
        csgraph.johnson(a, indices=0)
    with pytest.raises(apsp.NegativeCycleError) as info:
        apsp.johnson(a, indices=0)
    assert info.value.cycle == [2, 3]
    with pytest.raises(csgraph.NegativeCycleError):
        csgraph.bellman_ford(a, indices=2)
    with pytest.raises(apsp.NegativeCycleError):
        apsp.bellman_ford(a, indices=2)
    # A negative self-loop counts only where a source reaches it, too.
    loop = sp.csr_matrix((np.array([1.0, -1.0]), (np.array([0, 2]), np.array([1, 2]))),
                         shape=(3, 3))
    np.testing.assert_array_equal(apsp.bellman_ford(loop, indices=0), [0, 1, np.inf])
    with pytest.raises(apsp.NegativeCycleError):
        apsp.bellman_ford(loop, indices=2)


def test_bad_indices_are_refused():
    a = sparse_graph(10, 3004)
    for bad in ([10], [-11], [0.5]):
        with pytest.raises(ValueError, match="indices"):
            apsp.johnson(a, indices=bad)


def test_floyd_warshall_with_indices_takes_rows_of_all_pairs():
    a = sparse_graph(40, 3005)
    np.testing.assert_array_equal(apsp.shortest_path(a, method="FW", indices=[4, 1]),
                                  csgraph.floyd_warshall(a)[[4, 1]])


MEMORY_PROBE = """
import resource, sys
import numpy as np, scipy.sparse as sp
import apsp
n, m = 6000, 60000
rng = np.random.default_rng(3006)
a = sp.csr_matrix((rng.uniform(1, 10, m), (rng.integers(0, n, m), rng.integers(0, n, m))),
                  shape=(n, n))
apsp.dijkstra(a[:10, :10], indices=0)  # loads everything the real call needs
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
d = apsp.dijkstra(a, indices=[0, 1], return_predecessors=True)[0]
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) * 1024, d.shape)
"""


def test_memory_follows_the_rows_asked():
    # n = 6000: the n x n float64 matrix alone would be 288 MB; the rows and the graph's copies
    # are a few MB. Measured in a fresh process (peak resident memory only grows).
    out = subprocess.run([sys.executable, "-c", MEMORY_PROBE], capture_output=True, text=True,
                         check=True).stdout.split(maxsplit=1)
    grew = int(out[0])
    assert grew < 40e6, f"peak memory grew by {grew} bytes"
    assert out[1].strip() == "(2, 6000)"
