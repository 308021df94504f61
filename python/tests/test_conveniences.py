"""Conveniences that must not surprise: apsp.to_scipy keeps the least of parallel edges (where
csr_matrix((w, (src, dst))) adds them up), apsp.path walks the predecessor rows of
dijkstra(indices=...), Graph.index takes the file's integer ids, a NetworkX graph's Result takes
and returns nodes, and igraph graphs are read as NetworkX graphs are."""

import numpy as np
import pytest

import apsp
from conftest import data_file

sparse = pytest.importorskip("scipy.sparse")
csgraph = pytest.importorskip("scipy.sparse.csgraph")


@pytest.fixture(scope="module")
def rome():
    path = data_file("rome99.gr")
    if path is None:
        pytest.skip("rome99.gr not found")
    return apsp.read_graph(path)


def test_to_scipy_gives_scipy_the_files_distances(rome):
    want = apsp.solve(rome, dtype="float64", paths=False).distances
    m = apsp.to_scipy(rome)
    assert isinstance(m, sparse.csr_matrix) and m.shape == (rome.n, rome.n)
    np.testing.assert_array_equal(csgraph.dijkstra(m), want)
    np.testing.assert_array_equal(csgraph.dijkstra(rome.to_scipy()), want)
    # The recipe it replaces adds up rome99's parallel arcs, and so changes distances.
    src, dst, w = rome.edges
    summed = sparse.csr_matrix((w, (src, dst)), shape=(rome.n, rome.n))
    assert np.count_nonzero(csgraph.dijkstra(summed) != want) > 0


def test_to_scipy_keeps_the_least_parallel_edge_and_zero_weights():
    g = apsp.Graph(3, [0, 0, 0, 1, 2], [1, 1, 1, 2, 0], [7, 3, 5, 0, 4])
    m = apsp.to_scipy(g)
    assert m.nnz == 3 and m[0, 1] == 3
    coo = m.tocoo()
    stored = {(int(r), int(c)): float(v) for r, c, v in zip(coo.row, coo.col, coo.data)}
    assert stored == {(0, 1): 3.0, (1, 2): 0.0, (2, 0): 4.0}
    np.testing.assert_array_equal(csgraph.dijkstra(m), apsp.solve(g, dtype="float64").distances)
    # Undirected: both directions, the least weight each way.
    m = apsp.to_scipy(g, directed=False)
    assert m[1, 0] == 3 and m[0, 2] == 4


def test_path_walks_the_rows_of_dijkstra_with_indices(rome):
    sources = [5, 100, 2000]
    src, dst, w = rome.edges
    least = {}  # the weight of each arc a path takes: the least of its parallel arcs
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        least[(u, v)] = min(x, least.get((u, v), np.inf))
    for dijkstra in (apsp.dijkstra, csgraph.dijkstra):
        graph = rome if dijkstra is apsp.dijkstra else apsp.to_scipy(rome)
        d, pred = dijkstra(graph, indices=sources, return_predecessors=True)
        assert pred.shape == (3, rome.n)
        for k, s in enumerate(sources):
            for t in (0, 1234, rome.n - 1):
                p = apsp.path(pred, s, t, indices=sources)
                assert p[0] == s and p[-1] == t
                assert sum(least[e] for e in zip(p, p[1:])) == d[k, t]
        # One source: a 1-D row, indices a single vertex.
        d1, row = dijkstra(graph, indices=100, return_predecessors=True)
        assert apsp.path(row, 100, 1234, indices=100) == apsp.path(pred, 100, 1234,
                                                                   indices=sources)
    with pytest.raises(ValueError, match="indices=S"):
        apsp.path(pred, 5, 7)
    with pytest.raises(ValueError, match="not among the indices"):
        apsp.path(pred, 6, 7, indices=sources)
    with pytest.raises(ValueError, match="2 indices"):
        apsp.path(pred, 5, 7, indices=[5, 100])
    with pytest.raises(TypeError, match="indices="):
        apsp.path(rome, 5, 7, indices=sources)


def test_graph_index_takes_the_files_integer_ids(rome):
    assert rome.index(1) == 0 and rome.index("1") == 0
    assert rome.index(np.int64(3353)) == 3352 == rome.n - 1
    with pytest.raises(KeyError):
        rome.index(0)  # DIMACS ids start at 1
    with pytest.raises(KeyError):
        rome.index(3354)
    for bad in (1.0, True, None, [1]):
        with pytest.raises(TypeError, match="str .* or an int"):
            rome.index(bad)


def test_a_networkx_result_takes_and_returns_nodes():
    nx = pytest.importorskip("networkx")
    G = nx.DiGraph()
    G.add_weighted_edges_from([("a", "b", 1), ("b", "c", 2), ("a", "c", 5), ("c", "d", 1)])
    r = apsp.solve(G)
    assert r.path("a", "d") == ["a", "b", "c", "d"]
    assert r.distance("a", "d") == 4
    assert r.path("d", "a") == []
    with pytest.raises(ValueError, match="not in the graph"):
        r.path("a", "zz")
    # Integer nodes that are not positions: nodes, not positions, both ways.
    H = nx.DiGraph()
    H.add_weighted_edges_from([(10, 20, 1), (20, 30, 1), (10, 30, 7)])
    assert apsp.solve(H).path(10, 30) == [10, 20, 30]
    # A Result of a matrix keeps vertex numbers.
    assert apsp.solve(np.array([[0, 1.0], [0, 0]])).path(0, 1) == [0, 1]


def test_igraph_graphs_are_read_like_networkx_graphs():
    ig = pytest.importorskip("igraph")
    g = ig.Graph(n=4, edges=[(0, 1), (1, 2), (0, 2), (0, 2), (2, 3)], directed=True)
    g.es["weight"] = [1, 1, 5, 3, 2]
    d = apsp.floyd_warshall(g)
    assert d[0, 2] == 2 and d[0, 3] == 4 and np.isinf(d[3, 0])
    np.testing.assert_array_equal(d, csgraph.floyd_warshall(apsp.to_scipy(g)))
    assert apsp.path(g, 0, 3) == [0, 1, 2, 3]
    # Hop counts, another attribute, and an undirected graph (edges both ways).
    assert apsp.floyd_warshall(g, weight=None)[0, 3] == 2
    g.es["cost"] = [10, 10, 1, 30, 1]
    assert apsp.floyd_warshall(g, weight="cost")[0, 3] == 2
    u = ig.Graph(n=3, edges=[(0, 1), (1, 2)])
    u.es["weight"] = [2, 3]
    assert apsp.floyd_warshall(u)[2, 0] == 5
    assert apsp.dijkstra(u, indices=2)[0] == 5
