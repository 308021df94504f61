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


def masked_with_zero_edges(n, seed):
    """A masked graph whose unmasked entries include zeros (zero-weight edges in SciPy's
    Dijkstra, Johnson and Bellman-Ford; no edge in its Floyd-Warshall)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 6, size=(n, n)).astype(np.float64)  # about a sixth are zeros
    return np.ma.masked_array(a, mask=rng.random((n, n)) < 0.85)


@pytest.mark.parametrize("directed", [True, False])
def test_masked_zeros_follow_scipys_method(directed):
    m = masked_with_zero_edges(60, 41)
    want = csgraph.dijkstra(m, directed=directed)
    assert not np.array_equal(want, csgraph.floyd_warshall(m, directed=directed))  # zeros matter
    for ours in (apsp.dijkstra, apsp.johnson, apsp.bellman_ford):
        np.testing.assert_array_equal(ours(m, directed=directed), want)
    for method in ("D", "J", "BF"):
        np.testing.assert_array_equal(apsp.shortest_path(m, method=method, directed=directed),
                                      csgraph.shortest_path(m, method=method, directed=directed))
    np.testing.assert_array_equal(apsp.shortest_path(m, method="FW", directed=directed),
                                  csgraph.floyd_warshall(m, directed=directed))
    np.testing.assert_array_equal(apsp.floyd_warshall(m, directed=directed),
                                  csgraph.floyd_warshall(m, directed=directed))


def test_coo_duplicates_add_up_and_compressed_duplicates_keep_the_minimum():
    coo = sp.coo_matrix(([5.0, 1.0, 3.0, 0.0], ([0, 0, 1, 2], [1, 1, 2, 0])), shape=(3, 3))
    want = csgraph.dijkstra(coo)
    assert want[0, 1] == 6  # SciPy sums a COO matrix's duplicates when it converts it
    for got in (apsp.dijkstra(coo), apsp.johnson(coo), apsp.bellman_ford(coo),
                apsp.shortest_path(coo, method="D"), apsp.floyd_warshall(coo)):
        np.testing.assert_array_equal(got, want)
    csr = sp.csr_matrix((np.array([5.0, 1.0, 3.0]), np.array([1, 1, 2]), np.array([0, 2, 3, 3])),
                        shape=(3, 3))
    want = csgraph.dijkstra(csr)
    assert want[0, 1] == 1  # stored entries of a CSR matrix are edges each
    np.testing.assert_array_equal(apsp.dijkstra(csr), want)
    np.testing.assert_array_equal(apsp.floyd_warshall(csr), csgraph.floyd_warshall(csr))


def test_indices_as_scipy_takes_them():
    a = sparse_graph(30, 43)
    for idx in ([], [1.0, 4.0], [-1, -30], np.array([2], dtype=np.uint8)):
        got = apsp.dijkstra(a, indices=idx)
        want = csgraph.dijkstra(a, indices=idx)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    got, pred, src = apsp.dijkstra(a, indices=[-1, 3], min_only=True, return_predecessors=True)
    want, _, want_src = csgraph.dijkstra(a, indices=[-1, 3], min_only=True,
                                         return_predecessors=True)
    np.testing.assert_array_equal(got, want)
    assert set(src[src != -9999]) <= {29, 3}
    np.testing.assert_array_equal(src == -9999, want_src == -9999)
    for bad in ([1.5], [30], [-31], ["a"]):
        with pytest.raises(ValueError, match="indices"):
            apsp.dijkstra(a, indices=bad)


def test_bellman_ford_matches_scipy():
    a = sparse_graph(50, 47, negative=True)
    got, pred = apsp.bellman_ford(a, return_predecessors=True, indices=[0, 7])
    np.testing.assert_allclose(got, csgraph.bellman_ford(a, indices=[0, 7]))
    assert_valid_predecessors(a, got, pred, [0, 7])
    cycle = sp.csr_matrix(np.array([[0, -1.0], [-1.0, 0]]))
    with pytest.raises(apsp.NegativeCycleError, match="2 vertices"):
        apsp.bellman_ford(cycle)
    with pytest.raises(apsp.NegativeCycleError, match="1 vertex lies"):
        apsp.floyd_warshall(np.array([[-1.0, 1], [1, 0]]))


def test_shortest_path_auto_overwrites_only_where_floyd_warshall_ran():
    dense = random_dense(40, 0.9, 53)
    assert apsp.solve(dense, backend="cpu").algorithm == "fw"
    a = dense.copy()
    got = apsp.shortest_path(a, overwrite=True, backend="cpu")
    assert got is a
    np.testing.assert_array_equal(a, csgraph.floyd_warshall(dense))
    sparse = random_dense(2000, 0.002, 59)
    assert apsp.solve(sparse, backend="cpu", paths=False).algorithm != "fw"
    b = sparse.copy()
    got = apsp.shortest_path(b, overwrite=True, backend="cpu")
    assert got is not b and np.array_equal(b, sparse)
    np.testing.assert_array_equal(got, csgraph.dijkstra(sparse))


def test_dijkstra_limit_with_negative_weights_cuts_whole_subtrees():
    # 0 -> 1 (10) -> 2 (-8): d(0, 2) = 2 <= limit, but its path runs through 1 (10 > limit). A
    # search that stops at the limit never reaches 2; the predecessors stay valid paths.
    a = sp.csr_matrix((np.array([10.0, -8.0, 1.0]), (np.array([0, 1, 0]), np.array([1, 2, 3]))),
                      shape=(4, 4))
    dist, pred = apsp.dijkstra(a, limit=5, return_predecessors=True)
    np.testing.assert_array_equal(dist[0], [0, np.inf, np.inf, 1])
    np.testing.assert_array_equal(pred[0], [-9999, -9999, -9999, 0])
    np.testing.assert_array_equal(apsp.dijkstra(a, limit=5, indices=0), dist[0])
    np.testing.assert_array_equal(apsp.dijkstra(a, limit=5, indices=1), [np.inf, 0, -8, np.inf])
    for i in range(4):
        for j in range(4):
            if np.isfinite(dist[i, j]):
                assert apsp.path(pred, i, j)[0] == i


def test_auto_with_paths_keeps_paths_simple_when_weights_can_be_zero():
    side = 24  # a grid with weights 0-2: zero-weight cycles, and small separators
    rng = np.random.default_rng(67)
    idx = np.arange(side * side).reshape(side, side)
    src = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    dst = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    g = apsp.Graph(side * side, src, dst, rng.integers(0, 3, src.size).astype(float))
    r = apsp.solve(g, directed=False, backend="cpu")
    assert r.algorithm != "supernodal", r.algorithm_reason
    dense = sp.coo_matrix((g.edges[2], (g.edges[0], g.edges[1])), shape=(side * side,) * 2)
    np.testing.assert_array_equal(r.distances, csgraph.dijkstra(dense, directed=False))
    pred = r.predecessors
    for i, j in rng.integers(0, side * side, size=(200, 2)):
        p = apsp.path(pred, i, j)
        assert len(p) == len(set(p)), (i, j, p)  # a simple path
        q = r.path(i, j)
        assert len(q) == len(set(q)), (i, j, q)
    # Without paths the cost model may still take the supernodal solver: the distances agree.
    d = apsp.solve(g, directed=False, backend="cpu", paths=False)
    np.testing.assert_array_equal(d.distances, r.distances)
    # Weights positive as doubles but 0 in float32 (1e-50) are zero weights to the solve.
    tiny = apsp.Graph(side * side, src, dst, np.full(src.size, 1e-50))
    r = apsp.solve(tiny, directed=False, backend="cpu", dtype="float32")
    assert r.algorithm != "supernodal", r.algorithm_reason
    for i, j in rng.integers(0, side * side, size=(100, 2)):
        q = r.path(i, j)
        assert len(q) == len(set(q)) and q[0] == i and q[-1] == j, (i, j, q)
