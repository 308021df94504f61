"""apsp.path on a graph: one search for the pair, the distance SciPy's Dijkstra/Johnson gives,
a path of edges adding up to it, for every input kind; NetworkX nodes in and out."""

import time

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import johnson as scipy_johnson

import apsp
from conftest import data_file, random_dense, with_negative_edges


def lightest(graph):
    """w[u, v]: the lightest stored u -> v entry of a sparse matrix (inf = none)."""
    w = np.full(graph.shape, np.inf)
    coo = graph.tocoo()
    for u, v, x in zip(coo.row, coo.col, coo.data):
        w[u, v] = min(w[u, v], x)
    return w


@pytest.mark.parametrize("negative", [False, True])
@pytest.mark.parametrize("seed", [3, 4])
def test_every_pair_matches_scipy(negative, seed):
    n = 40
    a = random_dense(n, 0.07, seed)
    if negative:
        a = with_negative_edges(a, seed)
    graph = sp.csr_matrix(a)
    want = scipy_johnson(graph)
    w = lightest(graph)
    for i in range(n):
        for j in range(n):
            d, p = apsp.path(graph, i, j, return_distance=True)
            if not np.isfinite(want[i, j]):
                assert d == np.inf and p == [], (seed, i, j)
                continue
            assert d == want[i, j], (seed, i, j)
            assert p[0] == i and p[-1] == j
            assert sum(w[u, v] for u, v in zip(p, p[1:])) == d, (seed, i, j, p)


def test_dtypes_undirected_and_unweighted():
    graph = sp.csr_matrix(np.array([[0, 2, 7], [0, 0, 3], [0, 0, 0]], dtype=float))
    assert apsp.path(graph, 0, 2, return_distance=True) == (5.0, [0, 1, 2])
    d, p = apsp.path(graph, 0, 2, return_distance=True, dtype="int32")
    assert (d, p) == (5, [0, 1, 2]) and isinstance(d, int)
    assert apsp.path(graph, 2, 0, return_distance=True, dtype="int32") == \
        (apsp.no_path("int32"), [])
    assert apsp.path(graph, 2, 0, directed=False) == [2, 1, 0]
    # Unweighted: the one-edge path 0 -> 2 is the shortest.
    assert apsp.path(graph, 0, 2, unweighted=True, return_distance=True) == (1.0, [0, 2])


def test_negative_cycle_anywhere_is_refused():
    graph = sp.csr_matrix(np.array([[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, -2],
                                    [0, 0, 1, 0]], dtype=float))
    with pytest.raises(apsp.NegativeCycleError):
        apsp.path(graph, 0, 1)


def test_networkx_nodes_in_and_out():
    nx = pytest.importorskip("networkx")
    g = nx.DiGraph()
    g.add_weighted_edges_from([("a", "b", 1), ("b", "c", -1), ("a", "c", 3), ("x", "a", 1)])
    assert apsp.path(g, "a", "c", return_distance=True) == (0.0, ["a", "b", "c"])
    assert apsp.path(g, "c", "a") == []
    with pytest.raises(ValueError, match="zz"):
        apsp.path(g, "a", "zz")


def test_options_of_a_search_are_refused_for_a_predecessor_matrix():
    pred = np.array([[-9999, 0], [-9999, -9999]])
    assert apsp.path(pred, 0, 1) == [0, 1]
    with pytest.raises(TypeError, match="graph"):
        apsp.path(pred, 0, 1, return_distance=True)


def test_a_250k_vertex_grid_is_one_quick_search(tmp_path):
    side = 500
    ids = np.arange(side * side).reshape(side, side)
    u = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    v = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    w = np.random.default_rng(7).integers(1, 10, u.size).astype(float)
    graph = sp.csr_matrix((np.concatenate([w, w]), (np.concatenate([u, v]),
                                                    np.concatenate([v, u]))),
                          shape=(side * side, side * side))
    start = time.monotonic()
    d, p = apsp.path(graph, 0, side * side - 1, return_distance=True)
    assert time.monotonic() - start < 30  # an n x n solve would need 250 GB
    from scipy.sparse.csgraph import dijkstra
    assert d == dijkstra(graph, indices=0)[-1]
    assert p[0] == 0 and p[-1] == side * side - 1


def test_graph_read_from_a_file():
    path = data_file("rome99.gr")
    if path is None:
        pytest.skip("rome99.gr not found")
    g = apsp.read_graph(path)
    d, p = apsp.path(g, 0, 3352, return_distance=True, dtype="int32")
    assert d == 30_305 and p[0] == 0 and p[-1] == 3352
