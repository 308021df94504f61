"""apsp.johnson, apsp.dijkstra and shortest_path(method=...) against scipy.sparse.csgraph on the
same inputs: distances equal, predecessors describing shortest paths, SciPy's shapes."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import apsp
from conftest import random_dense, with_negative_edges


def sparse_graph(n, seed, negative=False, density=0.05):
    a = random_dense(n, density, seed)
    if negative:
        a = with_negative_edges(a, seed)
    return sp.csr_matrix(a)


def assert_valid_predecessors(a, dist, pred, sources):
    """pred[k][j] is a vertex before j on a shortest path from sources[k]: d[s][p] + w(p, j)
    equals d[s][j]; -9999 exactly where j is the source or unreachable."""
    w = a.toarray()
    for k, s in enumerate(sources):
        for j in range(dist.shape[1]):
            p = pred[k, j]
            if j == s or np.isinf(dist[k, j]):
                assert p == -9999, (s, j)
                continue
            assert p >= 0 and (a[p, j] != 0 or w[p, j] != 0), (s, j, p)
            assert dist[k, p] + w[p, j] == pytest.approx(dist[k, j]), (s, j, p)


@pytest.mark.parametrize("negative", [False, True])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("n", [0, 1, 2, 40, 150])
def test_johnson_matches_scipy(n, directed, negative):
    a = sparse_graph(n, 500 + n, negative)
    if negative and not directed:
        pytest.skip("an undirected negative edge is a negative cycle")
    want = csgraph.johnson(a, directed=directed)
    got, pred = apsp.johnson(a, directed=directed, return_predecessors=True)
    assert got.dtype == np.float64 and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    if not directed:  # SciPy: min(w[i, j], w[j, i]) both ways
        w = a.toarray()
        a = sp.csr_matrix(np.where((w != 0) & (w.T != 0), np.minimum(w, w.T), w + w.T))
    assert_valid_predecessors(a, got, pred, range(n))


@pytest.mark.parametrize("indices", [3, [0, 5, 7], np.array([9, 2])])
def test_indices_shapes_follow_scipy(indices):
    a = sparse_graph(60, 7)
    for ours, theirs in ((apsp.johnson, csgraph.johnson), (apsp.dijkstra, csgraph.dijkstra)):
        got, pred = ours(a, indices=indices, return_predecessors=True)
        want = theirs(a, indices=indices)
        assert got.shape == want.shape and pred.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_dijkstra_matches_scipy_with_unweighted_and_limit():
    a = sparse_graph(120, 11)
    np.testing.assert_array_equal(apsp.dijkstra(a), csgraph.dijkstra(a))
    np.testing.assert_array_equal(apsp.dijkstra(a, unweighted=True),
                                  csgraph.dijkstra(a, unweighted=True))
    for limit in (0, 5, 17.5):
        got, pred = apsp.dijkstra(a, limit=limit, return_predecessors=True)
        want, want_pred = csgraph.dijkstra(a, limit=limit, return_predecessors=True)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(pred == -9999, want_pred == -9999)
    with pytest.raises(ValueError):
        apsp.dijkstra(a, limit=-1)


def test_dijkstra_min_only_matches_scipy():
    a = sparse_graph(80, 13, density=0.03)
    idx = [4, 40, 77]
    got, pred, src = apsp.dijkstra(a, indices=idx, min_only=True, return_predecessors=True)
    want, _, want_src = csgraph.dijkstra(a, indices=idx, min_only=True, return_predecessors=True)
    np.testing.assert_array_equal(got, want)
    reached = np.isfinite(want)
    assert ((src == -9999) == ~reached).all()
    # Ties may pick another nearest source; the one named must be at that distance.
    full = csgraph.dijkstra(a, indices=src[reached])
    np.testing.assert_array_equal(full[np.arange(reached.sum()), np.flatnonzero(reached)],
                                  want[reached])
    np.testing.assert_array_equal(apsp.dijkstra(a, indices=idx, min_only=True), want)


def test_dijkstra_with_negative_weights_is_exact():
    a = sparse_graph(70, 17, negative=True)
    np.testing.assert_allclose(apsp.dijkstra(a), csgraph.bellman_ford(a))


@pytest.mark.parametrize("method", ["auto", "FW", "J", "D", "BF"])
def test_shortest_path_methods(method):
    a = sparse_graph(90, 19, negative=method in ("FW", "J", "BF"))
    want = csgraph.shortest_path(a, method=method if method != "auto" else "J")
    np.testing.assert_array_equal(apsp.shortest_path(a, method=method), want)
    got = apsp.shortest_path(a, method=method, indices=[1, 2], dtype="int32")
    assert got.dtype == np.int32 and got.shape == (2, 90)
    with pytest.raises(ValueError, match="not supported"):
        apsp.shortest_path(a, method="X")


def test_auto_picks_johnson_for_a_sparse_graph_and_says_so():
    a = sparse_graph(2000, 23, density=0.002)
    r = apsp.solve(a, backend="cpu")
    assert r.algorithm == "johnson" and r.algorithm_reason.startswith("auto:")
    r = apsp.solve(sparse_graph(100, 29, density=0.5), backend="cpu")
    assert r.algorithm == "fw"
    r = apsp.solve(a, backend="cpu", algorithm="fw")
    assert r.algorithm == "fw" and r.algorithm_reason == "requested"
    with pytest.raises(ValueError, match="unknown algorithm"):
        apsp.solve(a, algorithm="dijkstra")


@pytest.mark.parametrize("negative", [False, True])
def test_supernodal_matches_scipy(negative):
    a = sparse_graph(150, 31, negative=negative, density=0.03)
    r = apsp.solve(a, backend="cpu", algorithm="supernodal", dtype="float64")
    assert r.algorithm == "supernodal" and r.algorithm_reason == "requested"
    np.testing.assert_allclose(r.distances, csgraph.floyd_warshall(a), rtol=1e-12)
    assert_valid_predecessors(a, r.distances, r.predecessors, range(150))


def test_negative_cycle_attributes():
    a = sp.csr_matrix(np.array([[0, 1, 0, 0], [0, 0, 2, 0], [0, 0, 0, -4], [0, 1, 0, 0]],
                               dtype=float))
    with pytest.raises(apsp.NegativeCycleError) as info:
        apsp.johnson(a)
    e = info.value
    assert isinstance(e, csgraph.NegativeCycleError)
    assert e.cycle == [1, 2, 3] and e.cycle_weight == -1 and sorted(e.vertices) == [1, 2, 3]
    with pytest.raises(csgraph.NegativeCycleError):
        csgraph.johnson(a)
    # Floyd-Warshall on the same edges reports the same cycle.
    with pytest.raises(apsp.NegativeCycleError) as info:
        apsp.floyd_warshall(a)
    assert info.value.cycle == [1, 2, 3] and info.value.cycle_weight == -1
