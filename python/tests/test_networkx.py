"""NetworkX graphs as input, compared with NetworkX's own shortest path lengths; skipped when
networkx is not installed (Debian: python3-networkx, in the Makefile's DEB_PACKAGES)."""

import numpy as np
import pytest

import apsp
from conftest import as_float

nx = pytest.importorskip("networkx", reason="python3-networkx is not installed")


def labelled_graph(cls, n, p, seed, negative=False):
    """A seeded random graph with string labels in a shuffled order, integer weights in
    'cost', some edges without the attribute (NetworkX counts them 1)."""
    rng = np.random.default_rng(seed)
    g = cls()
    names = [f"v{k}" for k in rng.permutation(n)]
    g.add_nodes_from(names)
    for u in names:
        for v in names:
            if u != v and rng.random() < p:
                if rng.random() < 0.1:
                    g.add_edge(u, v)
                else:
                    g.add_edge(u, v, cost=int(rng.integers(1, 20)))
    if negative:  # potentials keep every cycle's weight, so no negative cycle appears
        pot = {u: int(rng.integers(0, 15)) for u in names}
        for u, v, d in g.edges(data=True):
            d["cost"] = d.get("cost", 1) + pot[u] - pot[v]
    return g


def nx_lengths(g, weight, method="dijkstra"):
    if method == "bellman_ford":
        return dict(nx.all_pairs_bellman_ford_path_length(g, weight=weight))
    return dict(nx.all_pairs_dijkstra_path_length(g, weight=weight))


def assert_matches(dist, nodes, lengths):
    assert list(dist.nodes) == nodes
    for i, u in enumerate(nodes):
        for j, v in enumerate(nodes):
            want = lengths[u].get(v, np.inf)
            assert dist[i, j] == pytest.approx(want), (u, v)


@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph])
@pytest.mark.parametrize("weight", ["cost", None, "missing"])
def test_every_solver_matches_networkx(cls, weight):
    g = labelled_graph(cls, 30, 0.12, 71)
    nodes = list(g)
    lengths = nx_lengths(g, weight)
    for f in (apsp.floyd_warshall, apsp.dijkstra, apsp.johnson, apsp.bellman_ford,
              apsp.shortest_path):
        dist = f(g, weight=weight)
        assert isinstance(dist, apsp.NodeArray), f.__name__
        assert_matches(dist, nodes, lengths)
    res = apsp.solve(g, weight=weight)
    assert res.nodes == nodes
    assert_matches(_with_nodes(as_float(res.distances), nodes), nodes, lengths)


def _with_nodes(array, nodes):
    out = array.view(apsp.NodeArray)
    out.nodes = nodes
    return out


def test_negative_weights_match_bellman_ford():
    g = labelled_graph(nx.DiGraph, 25, 0.15, 72, negative=True)
    assert any(d["cost"] < 0 for _, _, d in g.edges(data=True))
    lengths = nx_lengths(g, "cost", "bellman_ford")
    for f in (apsp.johnson, apsp.bellman_ford, apsp.floyd_warshall):
        assert_matches(f(g, weight="cost"), list(g), lengths)


def test_indices_are_nodes_and_predecessors_are_columns():
    g = labelled_graph(nx.DiGraph, 30, 0.1, 73)
    nodes = list(g)
    dist, pred = apsp.dijkstra(g, indices=["v3", "v7"], weight="cost", return_predecessors=True)
    assert dist.shape == (2, 30) and list(dist.nodes) == nodes
    for row, source in enumerate(["v3", "v7"]):
        want = nx.single_source_dijkstra_path_length(g, source, weight="cost")
        for j, v in enumerate(nodes):
            assert dist[row, j] == want.get(v, np.inf)
            if v in want and v != source:  # the path through the predecessors is a shortest one
                path = _walk(pred[row], nodes, source, v)
                assert sum(g[a][b].get("cost", 1) for a, b in zip(path, path[1:])) == want[v]
    one = apsp.johnson(g, indices="v3", weight="cost")
    assert one.shape == (30,)
    np.testing.assert_array_equal(one, dist[0])
    with pytest.raises(ValueError, match="not in the graph"):
        apsp.dijkstra(g, indices=["nowhere"])


def _walk(pred_row, nodes, source, target):
    k = nodes.index(target)
    path = [target]
    while nodes[k] != source:
        k = int(pred_row[k])
        path.append(nodes[k])
    return path[::-1]


def test_multigraph_keeps_the_lightest_parallel_edge():
    g = nx.MultiDiGraph()
    g.add_edge("a", "b", weight=5)
    g.add_edge("a", "b", weight=2)
    g.add_edge("b", "c", weight=1)
    g.add_edge("b", "c")  # no attribute: weighs 1
    dist = apsp.floyd_warshall(g)
    assert list(dist.nodes) == ["a", "b", "c"]
    np.testing.assert_array_equal(dist[0], [0, 2, 3])
    want = dict(nx.all_pairs_dijkstra_path_length(g))
    assert_matches(apsp.dijkstra(g), ["a", "b", "c"], want)
    u = nx.MultiGraph(g)
    assert_matches(apsp.johnson(u), list(u), dict(nx.all_pairs_dijkstra_path_length(u)))


def test_undirected_graph_goes_both_ways_and_directed_false_ignores_directions():
    g = nx.path_graph(5)
    dist = apsp.floyd_warshall(g)
    assert dist[4, 0] == 4 and dist[0, 4] == 4
    d = nx.DiGraph([(0, 1), (1, 2)])
    assert apsp.dijkstra(d)[2, 0] == np.inf
    assert apsp.dijkstra(d, directed=False)[2, 0] == 2


def test_weight_errors():
    g = nx.DiGraph()
    g.add_edge(1, 2, weight="heavy")
    with pytest.raises(TypeError, match="not a number"):
        apsp.floyd_warshall(g)
    with pytest.raises(TypeError, match="edge attribute"):
        apsp.floyd_warshall(nx.DiGraph([(1, 2)]), weight=lambda u, v, d: 1)
    with pytest.raises(TypeError, match="NetworkX graph"):
        apsp.floyd_warshall(np.ones((2, 2)), weight="cost")
