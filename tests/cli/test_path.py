"""apsp path: hand-computed answers in each id convention, and from saved matrices."""

import json

import numpy as np
import pytest

from conftest import assert_error
from graph_files import write_gr

# 1->3->2->4->5 (length 3) beats 1->2 (4) and 3->4 (5); 4->5 has weight 0; 6 is unreachable.
EDGES = [(1, 2, 4), (1, 3, 1), (3, 2, 1), (2, 4, 1), (3, 4, 5), (4, 5, 0), (5, 4, 2), (6, 1, 1)]
NAMES = {1: "a", 2: "b", 3: "c", 4: "d", 5: "e", 6: "f"}


@pytest.fixture
def files(tmp_path):
    write_gr(tmp_path / "g.gr", 6, EDGES)
    (tmp_path / "g.txt").write_text(
        "# ids are 10 * the .gr id\n" + "".join(f"{10 * u} {10 * v} {w}\n" for u, v, w in EDGES))
    (tmp_path / "g.csv").write_text(
        "source,target,weight\n" + "".join(f"{NAMES[u]},{NAMES[v]},{w}\n" for u, v, w in EDGES))
    return tmp_path


@pytest.mark.parametrize("src, dst, expected", [
    ("1", "5", '{"source": 1, "target": 5, "length": 3, "path": [1, 3, 2, 4, 5]}'),
    ("1", "6", '{"source": 1, "target": 6, "length": null, "path": []}'),
    ("2", "2", '{"source": 2, "target": 2, "length": 0, "path": [2]}'),
    ("5", "4", '{"source": 5, "target": 4, "length": 2, "path": [5, 4]}'),
    ("6", "5", '{"source": 6, "target": 5, "length": 4, "path": [6, 1, 3, 2, 4, 5]}'),
])
def test_path_json_dimacs(apsp, files, src, dst, expected):
    r = apsp("path", "g.gr", src, dst, "--json")
    assert r.rc == 0 and r.err == "", r
    assert r.out == expected + "\n"


def test_path_json_edge_list_ids_are_numbers(apsp, files):
    r = apsp("path", "g.txt", "10", "50", "--json")
    assert r.out == '{"source": 10, "target": 50, "length": 3, "path": [10, 30, 20, 40, 50]}\n', r


def test_path_json_csv_names_are_strings(apsp, files):
    r = apsp("path", "g.csv", "a", "e", "--json")
    assert r.out == ('{"source": "a", "target": "e", "length": 3, '
                     '"path": ["a", "c", "b", "d", "e"]}\n'), r
    r = apsp("path", "g.csv", "a", "f", "--json")
    assert r.out == '{"source": "a", "target": "f", "length": null, "path": []}\n', r


def test_path_text(apsp, files):
    r = apsp("path", "g.gr", "1", "5")
    assert r.rc == 0 and "length 3" in r.out and "1 -> 3 -> 2 -> 4 -> 5" in r.out, r
    r = apsp("path", "g.gr", "1", "6")
    assert r.rc == 0 and "no path" in r.out, r


def test_path_float_weights(apsp, tmp_path):
    (tmp_path / "f.csv").write_text("source,target,weight\nx,y,0.25\ny,z,0.5\nx,z,1\n")
    for dtype in ["float32", "float64"]:
        r = apsp("path", "f.csv", "x", "z", "--json", "--dtype", dtype)
        assert json.loads(r.out) == {"source": "x", "target": "z", "length": 0.75,
                                     "path": ["x", "y", "z"]}, r


def test_path_from_saved_matrices_needs_no_solve(apsp, files):
    assert apsp("solve", "g.gr", "-o", "d.npy", "--paths", "v.npy", "-q").rc == 0
    for src, dst in [("1", "5"), ("1", "6"), ("6", "5"), ("3", "3")]:
        solved = apsp("path", "g.gr", src, dst, "--json")
        saved = apsp("path", "g.gr", src, dst, "--json", "--dist", "d.npy", "--via", "v.npy")
        assert saved.rc == 0 and saved.out == solved.out, (solved, saved)


def test_path_rejects_mismatched_or_corrupt_saved_matrices(apsp, files):
    import numpy as np
    assert apsp("solve", "g.gr", "-o", "d.npy", "--paths", "v.npy", "-q").rc == 0
    np.save(files / "small.npy", np.zeros((3, 3), dtype=np.int32))
    assert_error(apsp("path", "g.gr", "1", "5", "--dist", "small.npy", "--via", "v.npy"), 3,
                 "small.npy")
    via = np.load(files / "v.npy")
    via[0, 4] = 99  # out of range
    np.save(files / "bad_via.npy", via)
    assert_error(apsp("path", "g.gr", "1", "5", "--dist", "d.npy", "--via", "bad_via.npy"), 3,
                 "bad_via.npy")
    loop = np.full((6, 6), -1, dtype=np.int32)
    loop[0, 4], loop[0, 3] = 3, 4  # 1->5 via 4, 1->4 via 5: endless
    np.save(files / "loop_via.npy", loop)
    assert_error(apsp("path", "g.gr", "1", "5", "--dist", "d.npy", "--via", "loop_via.npy"), 3,
                 "loop_via.npy")


def test_saved_matrices_of_another_graph_are_refused(apsp, tmp_path):
    write_gr(tmp_path / "h.gr", 6, [(1, 6, 2), (6, 5, 2), (5, 4, 1)])
    write_gr(tmp_path / "g.gr", 6, [(1, 2, 3), (2, 3, 0), (3, 4, 2), (1, 4, 9)])
    assert apsp("solve", "h.gr", "-o", "hd.npy", "--paths", "hv.npy", "-q").rc == 0
    r = apsp("path", "g.gr", "1", "4", "--dist", "hd.npy", "--via", "hv.npy")
    assert_error(r, 3, "do not describe g.gr", "6")
    # The same lengths over other edges: refused by the edges, not the length.
    assert apsp("solve", "g.gr", "-o", "gd.npy", "--paths", "gv.npy", "-q").rc == 0
    r = apsp("path", "g.gr", "1", "4", "--dist", "gd.npy", "--via", "gv.npy")
    assert r.rc == 0 and r.out.splitlines()[-1] == "1 -> 2 -> 3 -> 4", r
    d = np.load(tmp_path / "gd.npy")
    d[0, 3] = 4  # a length the path does not have
    np.save(tmp_path / "gd.npy", d)
    r = apsp("path", "g.gr", "1", "4", "--dist", "gd.npy", "--via", "gv.npy")
    assert_error(r, 3, "has length 5", "says 4")


def test_the_path_matrix_must_be_named_npy(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 4), (2, 3, 1)])
    assert_error(apsp("solve", "g.gr", "-o", "d.bin", "--paths", "v.bin"), 2, ".npy", "v.bin")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.gr"]


def test_json_ids_of_csv_are_strings_and_bad_utf8_is_replaced(apsp, tmp_path):
    (tmp_path / "n.csv").write_text("source,target,weight\n1,2,3\n2,10,4\n")
    j = json.loads(apsp("path", "n.csv", "1", "10", "--json").out)
    assert j["source"] == "1" and j["path"] == ["1", "2", "10"], j
    (tmp_path / "u.csv").write_bytes(b"source,target,weight\nA,bad\xff,1\n")
    r = apsp("path", "u.csv", "A", "bad\udcff", "--json")
    assert r.rc == 0, r
    assert json.loads(r.out)["target"] == "bad\ufffd"


# One search for the pair (apsp::solve_pair), whatever n.

def limited_memory(limit=2 << 30):
    """A preexec_fn capping the address space: an n x n matrix of a big graph cannot fit."""
    import resource

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return cap


@pytest.fixture(scope="module")
def grid_250k(tmp_path_factory):
    from graph_files import write_grid_gr
    return write_grid_gr(tmp_path_factory.mktemp("grid") / "grid.gr", 500,
                         np.random.default_rng(5))


def test_a_250k_vertex_grid_is_one_quick_search(apsp, grid_250k):
    import time

    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import dijkstra
    start = time.monotonic()
    # 2 GiB of address space: the n x n int32 matrix would take 233 GiB.
    r = apsp("path", grid_250k, "1", "250000", "--json", preexec_fn=limited_memory(), timeout=60)
    assert r.rc == 0 and r.err == "", r
    assert time.monotonic() - start < 30, r
    arcs = np.loadtxt(grid_250k, skiprows=2, usecols=(1, 2, 3), dtype=np.int64)
    n = 250_000
    g = coo_matrix((arcs[:, 2].astype(float), (arcs[:, 0] - 1, arcs[:, 1] - 1)), shape=(n, n))
    j = json.loads(r.out)
    assert j["length"] == dijkstra(g.tocsr(), indices=0)[n - 1], j["length"]
    weight = dict(zip(map(tuple, arcs[:, :2].tolist()), arcs[:, 2].tolist()))
    p = j["path"]
    assert p[0] == 1 and p[-1] == n
    assert sum(weight[(a, b)] for a, b in zip(p, p[1:])) == j["length"]


def walk_weight(edges, path):
    """The path's weight over the lightest arc of each step (None when a step is no arc)."""
    lightest = {}
    for u, v, w in edges:
        lightest[(u, v)] = min(w, lightest.get((u, v), w))
    steps = [lightest.get((a, b)) for a, b in zip(path, path[1:])]
    return None if None in steps else sum(steps)


@pytest.mark.parametrize("negative", [False, True])
@pytest.mark.parametrize("seed", [21, 22])
def test_same_distances_as_a_full_solve_on_random_graphs(apsp, tmp_path, negative, seed):
    from graph_files import random_edges
    rng = np.random.default_rng(seed)
    n = 60
    edges = random_edges(rng, n, 4 * n, 0, 30)  # zero weights, parallel arcs, self-loops
    if negative:  # potentials: negative arcs, no negative cycle
        h = rng.integers(0, 30, n + 1)
        edges = [(u, v, w + int(h[u]) - int(h[v]) if u != v else w) for u, v, w in edges]
    write_gr(tmp_path / "r.gr", n, edges)
    assert apsp("solve", "r.gr", "-o", "d.npy", "-q").rc == 0
    d = np.load(tmp_path / "d.npy")
    unreachable = 0
    for s, t in rng.integers(1, n + 1, (25, 2)).tolist() + [[1, 1], [n, 1]]:
        r = apsp("path", "r.gr", s, t, "--json")
        assert r.rc == 0, r
        j = json.loads(r.out)
        if d[s - 1, t - 1] == np.iinfo(np.int32).max >> 1:  # int32's no-path value, 2^30 - 1
            assert j["length"] is None and j["path"] == [], (seed, s, t, r)
            unreachable += 1
            continue
        assert j["length"] == d[s - 1, t - 1], (seed, s, t, r)
        assert j["path"][0] == s and j["path"][-1] == t
        assert walk_weight(edges, j["path"]) == j["length"], (seed, s, t, r)
    assert unreachable < 27


def test_negative_weights_and_unreachable_pairs(apsp, tmp_path):
    # 1 -> 2 -> 3 -> 4 weighs -3 + 5 - 4 = -2, under 1 -> 4 (1); 5 is reached by nothing.
    write_gr(tmp_path / "n.gr", 5, [(1, 2, -3), (2, 3, 5), (3, 4, -4), (1, 4, 1), (5, 1, 2)])
    r = apsp("path", "n.gr", "1", "4", "--json")
    assert r.out == '{"source": 1, "target": 4, "length": -2, "path": [1, 2, 3, 4]}\n', r
    r = apsp("path", "n.gr", "5", "4", "--json", "--dtype", "float64")
    assert json.loads(r.out) == {"source": 5, "target": 4, "length": 0.0,
                                 "path": [5, 1, 2, 3, 4]}, r
    r = apsp("path", "n.gr", "4", "5")
    assert r.rc == 0 and r.out == "no path from 4 to 5\n", r
    # A negative cycle anywhere refuses, named in the file's ids, as the full solve does.
    write_gr(tmp_path / "c.gr", 4, [(1, 2, 1), (3, 4, -2), (4, 3, 1)])
    assert_error(apsp("path", "c.gr", "1", "2"), 4, "c.gr", "negative cycle", "3 -> 4 -> 3")


def test_of_equally_short_paths_the_one_with_fewest_edges(apsp, tmp_path):
    # 1 -> 2 -> 3 -> 4, 1 -> 5 -> 4 and 1 -> 4 all weigh 3; 4 <-> 6 weigh 0 both ways.
    write_gr(tmp_path / "t.gr", 6, [(1, 2, 1), (2, 3, 1), (3, 4, 1), (1, 5, 2), (5, 4, 1),
                                    (1, 4, 3), (4, 6, 0), (6, 4, 0)])
    assert json.loads(apsp("path", "t.gr", "1", "6", "--json").out)["path"] == [1, 4, 6]


def test_engine_options_are_ignored_with_a_warning(apsp, files):
    r = apsp("path", "g.gr", "1", "5", "--json", "--backend", "reference", "--algorithm", "fw",
             "--block", "64")
    assert r.rc == 0 and json.loads(r.out)["length"] == 3, r
    lines = r.err.splitlines()
    assert len(lines) == 3 and all(x.startswith("apsp: warning: --") for x in lines), r
    assert "Dijkstra" in lines[0], r
