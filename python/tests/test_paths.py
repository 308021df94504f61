"""Paths from predecessor matrices and from Result objects are real shortest paths."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import floyd_warshall as scipy_fw

import apsp
from conftest import as_float, random_dense, with_negative_edges


def edge_weights(graph, directed):
    """Edge weight lookup w[u, v] (inf = no edge) with the input's own semantics."""
    if sp.issparse(graph):
        w = np.full(graph.shape, np.inf)
        coo = graph.tocoo()
        for u, v, x in zip(coo.row, coo.col, coo.data):
            w[u, v] = min(w[u, v], x)
    else:
        w = np.where(graph == 0, np.inf, graph).astype(np.float64)
    if not directed:
        w = np.minimum(w, w.T)
    return w


def check_path(p, i, j, dist, w):
    assert p[0] == i and p[-1] == j
    total = sum(w[u, v] for u, v in zip(p, p[1:]))  # inf if some step is not an edge
    assert np.isfinite(total), f"path {p} uses a missing edge"
    assert total == pytest.approx(dist[i, j], rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("negative", [False, True])
def test_every_predecessor_path_is_shortest(directed, negative, backend):
    n = 70
    a = random_dense(n, 0.06, 91)
    if negative:
        if not directed:
            pytest.skip("an undirected negative edge is a negative cycle")
        a = with_negative_edges(a, 92)
    dtype = "float32" if backend == "cuda" else None
    dist, pred = apsp.floyd_warshall(a, directed=directed, return_predecessors=True,
                                     backend=backend, dtype=dtype)
    w = edge_weights(a, directed)
    reachable = 0
    for i in range(n):
        for j in range(n):
            p = apsp.path(pred, i, j)
            if i == j:
                assert p == [i] and pred[i, j] == -9999
            elif np.isinf(dist[i, j]):
                assert p == [] and pred[i, j] == -9999
            else:
                reachable += 1
                check_path(p, i, j, dist, w)
    assert reachable > n  # the graph is connected enough to test multi-hop paths


def test_result_paths_and_predecessors_agree():
    n = 90
    a = random_dense(n, 0.05, 93)
    g = sp.csr_matrix(a)
    g.data[::7] = 0.0  # zero-weight edges in the sparse input
    r = apsp.solve(g)
    assert r.has_paths and r.n == n
    w = edge_weights(g, True)
    dist = as_float(r.distances)
    assert np.array_equal(np.isinf(dist), np.isinf(scipy_fw(g)))
    for i in range(0, n, 3):
        for j in range(n):
            p = r.path(i, j)
            assert p == apsp.path(r, i, j)
            if i != j and np.isfinite(dist[i, j]):
                check_path(p, i, j, dist, w)
                check_path(apsp.path(r.predecessors, i, j), i, j, dist, w)
            assert r.distance(i, j) == dist[i, j]


def test_path_helper_reads_scipy_predecessors():
    a = random_dense(40, 0.1, 94)
    dist, pred = scipy_fw(a, return_predecessors=True)
    w = edge_weights(a, True)
    for i, j in [(0, 5), (3, 39), (17, 2)]:
        if np.isfinite(dist[i, j]):
            check_path(apsp.path(pred, i, j), i, j, dist, w)


def test_path_helper_rejects_bad_arguments():
    pred = np.full((3, 3), -9999, dtype=np.int32)
    with pytest.raises(ValueError):
        apsp.path(pred, 0, 3)
    with pytest.raises(ValueError):
        apsp.path(np.zeros(3), 0, 1)
    looped = np.array([[-9999, 2, 1], [-9999] * 3, [-9999] * 3])
    with pytest.raises(ValueError):
        apsp.path(looped, 0, 1)  # 1 <- 2 <- 1: a cycle, not a path


def test_solve_without_paths_refuses_path_queries():
    r = apsp.solve(random_dense(10, 0.3, 95), paths=False)
    assert not r.has_paths
    with pytest.raises(ValueError):
        r.path(0, 1)
    with pytest.raises(ValueError):
        r.predecessors
