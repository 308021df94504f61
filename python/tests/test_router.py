"""apsp.Router: a contraction hierarchy kept for many tables and paths. Its tables, before and
after save/load, against SciPy's Dijkstra, exactly; its paths are shortest (their weights sum to
SciPy's distance); files of another graph, of a changed graph, or damaged are refused."""

import os

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra, johnson

import apsp
from test_table import grid


def as_int(d, dtype):
    out = np.where(np.isinf(d), 0, d).astype(dtype)
    out[np.isinf(d)] = apsp.no_path(dtype)  # set as an integer: 2**62 - 1 is no float64
    return out


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_tables_match_scipy_before_and_after_save(tmp_path, dtype):
    g = grid(40, 30, 7)
    rng = np.random.default_rng(1)
    s = rng.integers(0, g.shape[0], 70).tolist() + [5, 5]
    t = rng.integers(0, g.shape[0], 50).tolist() + [5]
    want = as_int(dijkstra(g, indices=s)[:, t], dtype)
    router = apsp.Router(g, dtype=dtype, threads=2)
    assert router.dtype == np.dtype(dtype) and router.n == g.shape[0]
    got = router.table(s, t)
    assert got.shape == (len(s), len(t)) and got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, want)
    router.save(tmp_path / "g.ch")
    loaded = apsp.Router.load(tmp_path / "g.ch", g)
    assert loaded.dtype == np.dtype(dtype) and loaded.shortcuts == router.shortcuts
    np.testing.assert_array_equal(loaded.table(s, t, threads=1), want)


def test_paths_are_shortest():
    g = grid(25, 20, 8)
    dist = dijkstra(g)
    router = apsp.Router(g)
    rng = np.random.default_rng(2)
    w = g.toarray()
    for s, t in rng.integers(0, g.shape[0], (30, 2)):
        d, p = router.path(int(s), int(t), return_distance=True)
        if np.isinf(dist[s, t]):
            assert p == [] and d == apsp.no_path("int32")
            continue
        assert p[0] == s and p[-1] == t and d == dist[s, t]
        assert sum(w[a, b] for a, b in zip(p, p[1:])) == dist[s, t]
    assert router.path(3, 3) == [3]


def test_negative_weights_through_potentials():
    g = grid(15, 12, 9, one_way_share=1.0).tocoo()  # one-way streets only: no cycle of 2
    rng = np.random.default_rng(4)
    shift = rng.integers(0, 30, g.shape[0])
    w = g.data + shift[g.col] - shift[g.row]  # same shortest paths, some weights negative
    assert (w < 0).any()
    h = sp.csr_matrix((w, (g.row, g.col)), shape=g.shape)
    s, t = [0, 17, 100], [4, 150, 179, 0]
    want = as_int(johnson(h, indices=s)[:, t], "int64")
    np.testing.assert_array_equal(apsp.Router(h, dtype="int64").table(s, t), want)


def test_networkx_nodes(tmp_path):
    nx = pytest.importorskip("networkx")
    G = nx.DiGraph()
    G.add_weighted_edges_from([("a", "b", 3), ("b", "c", 4), ("a", "c", 9), ("c", "d", 1),
                               ("d", "a", 2)])
    router = apsp.Router(G)
    np.testing.assert_array_equal(router.table(["a", "c"], ["d", "a"]), [[8, 0], [1, 3]])
    assert router.path("a", "d") == ["a", "b", "c", "d"]
    router.save(tmp_path / "g.ch")
    assert apsp.Router.load(tmp_path / "g.ch", G).path("c", "b") == ["c", "d", "a", "b"]


def test_refuses_other_graphs_changed_graphs_and_damaged_files(tmp_path):
    g = grid(10, 8, 3)
    file = tmp_path / "g.ch"
    apsp.Router(g).save(file)
    changed = g.copy()
    changed.data[4] += 1
    with pytest.raises(ValueError, match="does not belong to this graph"):
        apsp.Router.load(file, changed)
    with pytest.raises(ValueError, match="does not belong to this graph"):
        apsp.Router.load(file, grid(10, 8, 4))
    with pytest.raises(ValueError, match="does not belong to this graph"):
        apsp.Router.load(file, g, directed=False)
    data = bytearray(file.read_bytes())
    data[len(data) // 2] ^= 0xFF
    (tmp_path / "bad.ch").write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum|order|permutation"):
        apsp.Router.load(tmp_path / "bad.ch", g)
    (tmp_path / "short.ch").write_bytes(file.read_bytes()[:-20])
    with pytest.raises(ValueError, match="truncated"):
        apsp.Router.load(tmp_path / "short.ch", g)
    assert apsp.Router.load(os.fspath(file), g).n == g.shape[0]


def test_refuses_float_dtypes_and_fractional_weights():
    g = grid(5, 5, 1)
    with pytest.raises(ValueError, match="int32 or int64"):
        apsp.Router(g, dtype="float64")
    h = g.copy()
    h.data = h.data + 0.5
    with pytest.raises(ValueError):
        apsp.Router(h)
