"""`apsp prepare GRAPH -o FILE` and `apsp solve GRAPH --sources S --targets T --hierarchy FILE`:
tables from a saved contraction hierarchy against SciPy's Dijkstra (DIMACS and CSV input with
its own ids, int32 and int64, negative weights); refusals: a graph that changed (exit 8), another
graph (8), read with other options (8), another format version (8), a damaged or truncated file
(3), float dtypes and options that do not apply (2)."""

import json

import numpy as np
import pytest

from conftest import assert_error
from graph_files import grid_arcs, random_edges, reference_distances, write_gr

INT32_INF = 1073741823
INT64_INF = 2**62 - 1


def grid_edges(side, seed, low=1, high=30):
    u, v, w = grid_arcs(side, np.random.default_rng(seed), low, high)
    return list(zip(u.tolist(), v.tolist(), w.tolist()))


def table(tmp_path, out, rows, cols, inf):
    got = np.load(tmp_path / out).astype(float)
    assert got.shape == (rows, cols)
    got[got == inf] = np.inf
    return got


@pytest.mark.parametrize("dtype,inf", [("int32", INT32_INF), ("int64", INT64_INF)])
def test_tables_from_a_prepared_hierarchy_are_dijkstras(apsp, tmp_path, dtype, inf):
    edges = grid_edges(14, 1)
    edges += [(5, 200, 3), (190, 7, 2), (42, 42, 1)]  # one-way shortcuts and a self-loop
    n = 14 * 14 + 4  # 197..199: vertices nobody reaches
    write_gr(tmp_path / "g.gr", n, edges)
    r = apsp("prepare", "g.gr", "-o", "g.ch", "--dtype", dtype, "--json")
    assert r.rc == 0, r
    summary = json.loads(r.out)
    assert summary["n"] == n and summary["dtype"] == dtype and summary["format_version"] == 1
    sources = [1, 5, 5, 100, 197, 199]
    targets = [200, 1, 7, 198, 150]
    r = apsp("solve", "g.gr", "--sources", ",".join(map(str, sources)), "--targets",
             ",".join(map(str, targets)), "--hierarchy", "g.ch", "-o", "t.npy", "--json")
    assert r.rc == 0, r
    report = json.loads(r.out)
    assert report["engine"] in ("contraction_hierarchy_table", "rphast_table")
    assert report["hierarchy"] == "g.ch"
    assert report["dtype"] == dtype
    full = reference_distances(n, edges)
    want = full[np.ix_([s - 1 for s in sources], [t - 1 for t in targets])]
    np.testing.assert_array_equal(table(tmp_path, "t.npy", 6, 5, inf), want)


def test_negative_weights_and_csv_ids(apsp, tmp_path):
    rng = np.random.default_rng(5)
    edges = grid_edges(9, 2, low=5, high=20)
    shift = rng.integers(0, 12, 9 * 9 + 1)
    edges = [(u, v, w + shift[v] - shift[u]) for u, v, w in edges]  # some negative, no cycle
    assert min(w for _, _, w in edges) < 0
    lines = ["source,target,weight"] + [f"x{u},x{v},{w}" for u, v, w in edges]
    (tmp_path / "g.csv").write_text("\n".join(lines) + "\n")
    assert apsp("prepare", "g.csv", "-o", "g.ch", "-q").rc == 0
    r = apsp("solve", "g.csv", "--sources", "x1,x40", "--targets", "x81,x1,x9", "--hierarchy",
             "g.ch", "-o", "t.npy", "-q")
    assert r.rc == 0, r
    want = reference_distances(81, edges)[np.ix_([0, 39], [80, 0, 8])]
    np.testing.assert_array_equal(table(tmp_path, "t.npy", 2, 3, INT32_INF), want)


def test_stale_and_foreign_hierarchies_are_refused(apsp, tmp_path):
    edges = grid_edges(8, 3)
    write_gr(tmp_path / "g.gr", 64, edges)
    assert apsp("prepare", "g.gr", "-o", "g.ch", "-q").rc == 0
    ask = ["--sources", "1,2", "--targets", "3", "--hierarchy", "g.ch", "-o", "t.npy"]
    assert apsp("solve", "g.gr", *ask, "-q").rc == 0
    changed = list(edges)
    changed[10] = (changed[10][0], changed[10][1], changed[10][2] + 1)
    write_gr(tmp_path / "g.gr", 64, changed)  # the graph changed after apsp prepare
    assert_error(apsp("solve", "g.gr", *ask), 8, "g.ch", "g.gr", "does not belong to this graph",
                 "apsp prepare")
    write_gr(tmp_path / "other.gr", 64, grid_edges(8, 4))
    assert_error(apsp("solve", "other.gr", *ask), 8, "does not belong to this graph")
    write_gr(tmp_path / "g.gr", 64, edges)
    assert_error(apsp("solve", "g.gr", "--undirected", *ask), 8, "does not belong")
    write_gr(tmp_path / "small.gr", 10, [(1, 2, 5), (2, 3, 4)])
    assert_error(apsp("solve", "small.gr", "--sources", "1", "--targets", "3", "--hierarchy",
                      "g.ch"), 8, "64 vertices and 224 edges", "has 10 vertices")


def test_damaged_files_and_other_versions_are_refused(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 64, grid_edges(8, 6))
    assert apsp("prepare", "g.gr", "-o", "g.ch", "-q").rc == 0
    good = (tmp_path / "g.ch").read_bytes()
    ask = ["--sources", "1", "--targets", "3", "--hierarchy", "bad.ch"]
    for at in (20, 100, len(good) // 2, len(good) - 3):
        bad = bytearray(good)
        bad[at] ^= 0x41
        (tmp_path / "bad.ch").write_bytes(bytes(bad))
        assert_error(apsp("solve", "g.gr", *ask), 3, "bad.ch", "not a usable contraction")
    (tmp_path / "bad.ch").write_bytes(good[:-100])
    assert_error(apsp("solve", "g.gr", *ask), 3, "truncated")
    (tmp_path / "bad.ch").write_bytes(b"p sp 3 1\na 1 2 3\n")
    assert_error(apsp("solve", "g.gr", *ask), 3, "does not start as one")
    bad = bytearray(good)
    bad[8] = 9  # format version 9
    (tmp_path / "bad.ch").write_bytes(bytes(bad))
    assert_error(apsp("solve", "g.gr", *ask), 8, "version 9", "apsp prepare")
    assert_error(apsp("solve", "g.gr", "--sources", "1", "--hierarchy", "none.ch"), 2, "none.ch")


def test_options_that_do_not_apply(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 4, [(1, 2, 1), (2, 3, 1.5)])
    assert_error(apsp("prepare", "g.gr", "-o", "g.ch"), 3, "g.gr")  # fractional weight
    write_gr(tmp_path / "g.gr", 4, [(1, 2, 1), (2, 3, 2)])
    assert apsp("prepare", "g.gr", "-o", "g.ch", "-q").rc == 0
    r = apsp("prepare", "g.gr", "-o", "g.ch", "--dtype", "float32")
    assert r.rc == 2, r
    assert_error(apsp("solve", "g.gr", "--hierarchy", "g.ch"), 2, "--sources")
    assert_error(apsp("solve", "g.gr", "--sources", "1", "--hierarchy", "g.ch", "--dtype",
                      "int64"), 2, "int32")
    assert_error(apsp("solve", "g.gr", "--sources", "1", "--hierarchy", "g.ch", "--algorithm",
                      "fw"), 2, "--algorithm")
    r = apsp("solve", "g.gr", "--sources", "1", "--hierarchy", "g.ch", "--dtype", "int32")
    assert r.rc == 0 and "prepared contraction hierarchy g.ch" in r.out, r


def test_prepare_on_a_real_road_graph(apsp, tmp_path, shared_data):
    rng = np.random.default_rng(9)
    assert apsp("prepare", shared_data / "rome99.gr", "-o", "rome.ch", "-q").rc == 0
    sources = rng.integers(1, 3354, 40).tolist()
    targets = rng.integers(1, 3354, 30).tolist()
    (tmp_path / "s.txt").write_text(" ".join(map(str, sources)))
    (tmp_path / "t.txt").write_text(" ".join(map(str, targets)))
    r = apsp("solve", shared_data / "rome99.gr", "--sources", "@s.txt", "--targets", "@t.txt",
             "--hierarchy", "rome.ch", "-o", "a.npy", "-q")
    assert r.rc == 0, r
    r = apsp("solve", shared_data / "rome99.gr", "--sources", "@s.txt", "--targets", "@t.txt",
             "--algorithm", "johnson", "-o", "b.npy", "-q")
    assert r.rc == 0, r
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), np.load(tmp_path / "b.npy"))
