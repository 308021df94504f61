"""apsp.table: a sources x targets block of distances, against SciPy's Dijkstra from the same
sources, on every kind of graph input; the hierarchy's engine on a road-shaped integer graph."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

import apsp


def grid(width, height, seed, one_way_share=0.2):
    """A road-shaped grid: streets both ways, some one way, integer weights 1..99."""
    rng = np.random.default_rng(seed)
    rows, cols = [], []
    for y in range(height):
        for x in range(width):
            v = y * width + x
            for u in ([v + 1] if x + 1 < width else []) + ([v + width] if y + 1 < height else []):
                if rng.random() < one_way_share:
                    a, b = (v, u) if rng.random() < 0.5 else (u, v)
                    rows.append(a)
                    cols.append(b)
                else:
                    rows += [v, u]
                    cols += [u, v]
    w = rng.integers(1, 100, len(rows)).astype(np.float64)
    n = width * height
    return sp.csr_matrix((w, (rows, cols)), shape=(n, n))


def expected(g, sources, targets):
    return dijkstra(g, indices=sources)[:, targets]


def test_matches_scipy_on_a_small_graph():
    g = grid(12, 9, 1)
    s, t = [0, 5, 5, 107, 40], [3, 0, 107, 64]
    got = apsp.table(g, s, t)
    assert got.shape == (5, 4) and got.dtype == np.float64
    np.testing.assert_array_equal(got, expected(g, s, t))
    ints = apsp.table(g, s, t, dtype="int32")
    want = expected(g, s, t)
    np.testing.assert_array_equal(np.where(np.isinf(want), apsp.no_path("int32"), want), ints)


def test_road_shaped_integer_graph_uses_the_hierarchy():
    g = grid(120, 100, 2)  # 12,000 vertices, road-like: the planner offers the hierarchy
    rng = np.random.default_rng(3)
    s = rng.integers(0, g.shape[0], 3000)  # tables this large pay for the hierarchy's build
    t = rng.integers(0, g.shape[0], 3000)
    got, engine = apsp.table(g, s, t, dtype="int32", threads=2, return_engine=True)
    assert "hierarchy" in engine, engine
    want = expected(g, s, t)
    np.testing.assert_array_equal(np.where(np.isinf(want), apsp.no_path("int32"), want), got)


def test_graph_object_and_networkx_nodes():
    nx = pytest.importorskip("networkx")
    g = grid(6, 5, 4, one_way_share=0.0)
    G = nx.from_scipy_sparse_array(g, create_using=nx.DiGraph)
    G = nx.relabel_nodes(G, {k: f"v{k}" for k in G.nodes})
    got = apsp.table(G, ["v0", "v7"], ["v29", "v0", "v3"])
    np.testing.assert_array_equal(got, expected(g, [0, 7], [29, 0, 3]))
    edges = apsp.Graph.from_edges(g.shape[0], *g.nonzero(), np.asarray(g[g.nonzero()]).ravel()) \
        if hasattr(apsp.Graph, "from_edges") else None
    if edges is not None:
        np.testing.assert_array_equal(apsp.table(edges, [0, 7], [29, 0, 3]),
                                      expected(g, [0, 7], [29, 0, 3]))


def test_bad_input_is_refused():
    g = grid(4, 4, 5)
    with pytest.raises((ValueError, IndexError)):
        apsp.table(g, [0, 16], [1])
    with pytest.raises(TypeError):
        apsp.table(g, [0.5], [1])
    with pytest.raises(ValueError):
        apsp.table(g, [0], [1], threads=-1)
    assert apsp.table(g, [], [1, 2]).shape == (0, 2)
