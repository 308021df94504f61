"""`apsp solve --sources S --targets T`: the |S| x |T| block, checked entry by entry against the
rows and columns of the full matrix that the reference back end writes (a labelled CSV, so each
entry is found by its ids), and, for a graph too large for that, against SciPy's Dijkstra."""

import json
import os
import signal

import numpy as np
import pytest

from conftest import assert_error
from graph_files import random_edges, reference_distances, write_dense_gr, write_gr
from test_undirected_labels import read_labelled_csv

COURSE_INF = 1073741823


def full_matrix(apsp, graph, *extra):
    """{(u_id, v_id): distance} of the whole graph by the naive reference back end."""
    r = apsp("solve", graph, "--backend", "reference", "-o", "full.csv", "-q", *extra)
    assert r.rc == 0, r
    return read_labelled_csv((apsp.cwd / "full.csv").read_text())[2]


@pytest.fixture
def apsp_in(apsp, tmp_path):
    """The apsp fixture, with the directory it runs in."""
    apsp.cwd = tmp_path
    return apsp


def read_block(path, rows, cols):
    """The block as floats (inf = unreachable) and, for CSV, its row and column ids."""
    name = str(path)
    if name.endswith(".npy"):
        raw = np.load(path)
        assert raw.shape == (rows, cols)
        block = raw.astype(float)
        if raw.dtype.kind == "i":  # "no path" of the integer types (docs/semantics.md)
            block[raw == (COURSE_INF if raw.dtype == np.int32 else 2**62 - 1)] = np.inf
        return block, None
    if name.endswith(".bin"):
        raw = np.frombuffer(path.read_bytes(), dtype="<i4")
        assert raw.size == rows * cols
        block = raw.reshape(rows, cols).astype(float)
        block[block == COURSE_INF] = np.inf
        return block, None
    columns, row_ids, values = read_labelled_csv(path.read_text())
    assert len(columns) == cols and len(row_ids) == rows
    block = np.array([[values[(r, c)] for c in columns] for r in row_ids]).reshape(rows, cols)
    return block, (row_ids, columns)


def check_block(tmp_path, out, full, sources, targets):
    block, ids = read_block(tmp_path / out, len(sources), len(targets))
    if ids is not None:
        assert ids == ([str(s) for s in sources], [str(t) for t in targets])
    want = np.array([[full[(str(s), str(t))] for t in targets] for s in sources])
    np.testing.assert_array_equal(block, want)
    return block


def random_graph(tmp_path, seed, n=60, reach=50, m=220, low=1, high=20):
    """A directed .gr graph whose last n - reach vertices have no edge out (and some none in):
    unreachable pairs in both directions."""
    rng = np.random.default_rng(seed)
    edges = random_edges(rng, reach, m, low, high)
    edges += [(int(rng.integers(1, reach + 1)), v, 5) for v in range(reach + 1, n - 3)]
    return write_gr(tmp_path / "g.gr", n, edges), edges


def potential_shifted(tmp_path, seed, n=40, m=160):
    """A graph with negative weights and no negative cycle: w(u, v) + p(u) - p(v), w >= 0."""
    rng = np.random.default_rng(seed)
    p = rng.integers(0, 30, n + 1)
    edges = [(u, v, w + int(p[u]) - int(p[v])) for u, v, w in random_edges(rng, n, m, 0, 15)
             if u != v]
    assert any(w < 0 for _, _, w in edges)
    return write_gr(tmp_path / "neg.gr", n, edges)


SETS = [  # --sources, --targets (None: not given)
    ("1,5,9,51,60", "2,3,58,7"),          # more sources than targets: from the targets
    ("4,17", "1,2,3,44,52,59"),           # fewer: from the sources
    ("3,3,12,3", "12,40,58,40"),          # repeated ids keep their rows and columns
    ("8,59,33", None),                    # --sources alone: every column
    (None, "1,57,20"),                    # --targets alone: the reversed graph
]


@pytest.mark.parametrize("out", ["d.npy", "d.bin", "d.csv"])
@pytest.mark.parametrize("sources, targets", SETS)
def test_block_equals_the_full_matrix(apsp_in, tmp_path, sources, targets, out):
    graph, _ = random_graph(tmp_path, 31)
    full = full_matrix(apsp_in, graph)
    args = ["solve", graph, "-o", out, "-q"]
    if sources is not None:
        args += ["--sources", sources]
    if targets is not None:
        args += ["--targets", targets]
    r = apsp_in(*args)
    assert r.rc == 0, r
    every = [str(v) for v in range(1, 61)]
    s = sources.split(",") if sources else every
    t = targets.split(",") if targets else every
    block = check_block(tmp_path, out, full, s, t)
    assert np.isinf(block).any() and np.isfinite(block).any()  # both kinds of pair
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["g.gr", "full.csv", out])


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_npy_keeps_the_dtype_and_undirected_reads_both_ways(apsp_in, tmp_path, dtype):
    graph, _ = random_graph(tmp_path, 32)
    full = full_matrix(apsp_in, graph, "--undirected")
    r = apsp_in("solve", graph, "--undirected", "--sources", "60,2,31", "--targets", "5,6",
                "--dtype", dtype, "-o", "d.npy", "-q")
    assert r.rc == 0, r
    assert np.load(tmp_path / "d.npy").dtype == np.dtype(dtype)
    check_block(tmp_path, "d.npy", full, ["60", "2", "31"], ["5", "6"])


@pytest.mark.parametrize("targets_only", [False, True])
def test_negative_weights_without_cycles(apsp_in, tmp_path, targets_only):
    graph = potential_shifted(tmp_path, 33)
    full = full_matrix(apsp_in, graph)
    targets = (["1", "9", "22", "40"] if targets_only
               else [str(v) for v in range(40, 0, -1)] + ["9"])
    sources = [str(v) for v in range(1, 41)] if targets_only else ["2", "9", "3"]
    sets = ["--targets", ",".join(targets)]
    if not targets_only:
        sets += ["--sources", ",".join(sources)]
    r = apsp_in("solve", graph, *sets, "-o", "d.csv", "-q")
    assert r.rc == 0, r
    block = check_block(tmp_path, "d.csv", full, sources, targets)
    assert (block < 0).any()


def csv_quote(x):
    return '"' + x.replace('"', '""') + '"' if ("," in x or '"' in x) else x


def test_string_labels_from_a_csv_graph_and_id_files(apsp_in, tmp_path):
    names = ["ADAL", "AVAR", "b,c", "PVQ", "zeta", "\u03a9", '"q"']
    rng = np.random.default_rng(34)
    rows = ["source,target,weight"]
    for _ in range(30):
        u, v = rng.choice(len(names), 2)
        rows.append(f"{csv_quote(names[u])},{csv_quote(names[v])},{int(rng.integers(1, 9))}")
    (tmp_path / "e.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    full = full_matrix(apsp_in, "e.csv")
    # An id with a comma cannot be listed (commas separate ids); it stays in the graph.
    listable = sorted({k[0] for k in full if "," not in k[0]})
    s, t = listable[:3], listable[-3:] + [listable[0]]
    (tmp_path / "s.txt").write_text("# sources\n" + "\n".join(s) + "  # last\n",
                                    encoding="utf-8")
    r = apsp_in("solve", "e.csv", "--sources", "@s.txt", "--targets", ",".join(t), "-o", "d.csv",
                "-q")
    assert r.rc == 0, r
    check_block(tmp_path, "d.csv", full, s, t)


def test_integer_ids_of_an_edge_list(apsp_in, tmp_path):
    ids = [907, 12, 4400, 31, 5, 260]
    rng = np.random.default_rng(35)
    lines = [f"{rng.choice(ids)} {rng.choice(ids)} {rng.integers(1, 30)}" for _ in range(25)]
    (tmp_path / "e.txt").write_text("\n".join(lines) + "\n")
    full = full_matrix(apsp_in, "e.txt")
    present = sorted({int(k[0]) for k in full})
    s, t = [str(present[-1]), str(present[0])], [str(x) for x in present]
    r = apsp_in("solve", "e.txt", "--sources", ",".join(s), "--targets", ",".join(t), "-o",
                "d.csv", "-q")
    assert r.rc == 0, r
    check_block(tmp_path, "d.csv", full, s, t)


@pytest.mark.parametrize("sets", [
    ["--sources", "3,60,9,9,41,12,7", "--targets", "1,2,3,4,5,6,7,8,58"],  # 2 + 2 + 2 + 1 rows
    ["--targets", "60,1,22,22,5"],                                           # reversed, 2 + 2 + 1
])
def test_batches_match_the_full_matrix_and_scipy(apsp_in, tmp_path, sets):
    """Two sources per batch (APSP_SOURCE_BATCH_CELLS = 2n): every batch boundary is crossed.
    (--algorithm johnson: on 60 vertices auto would cut the block from the whole matrix.)"""
    graph, edges = random_graph(tmp_path, 36)
    full = full_matrix(apsp_in, graph)
    r = apsp_in("solve", graph, *sets, "--algorithm", "johnson", "-o", "d.npy", "--json",
                env=dict(os.environ, APSP_SOURCE_BATCH_CELLS="120"))
    assert r.rc == 0, r
    every = [str(v) for v in range(1, 61)]
    sources = sets[1].split(",") if sets[0] == "--sources" else every
    targets = sets[-1].split(",")
    block = check_block(tmp_path, "d.npy", full, sources, targets)
    scipy = reference_distances(60, edges)
    np.testing.assert_array_equal(
        block, scipy[np.ix_([int(x) - 1 for x in sources], [int(x) - 1 for x in targets])])
    report = json.loads(r.out)
    assert report["engine"] == ("dijkstra_from_sources" if sets[0] == "--sources"
                                else "dijkstra_from_targets")
    off_diagonal = [(a, b) for a in sources for b in targets if a != b]
    assert report["pairs"] == len(off_diagonal)
    assert report["reachable_pairs"] == sum(np.isfinite(full[p]) for p in off_diagonal)


def test_json_and_text_reports(apsp_in, tmp_path):
    graph, _ = random_graph(tmp_path, 37)
    full = full_matrix(apsp_in, graph)
    r = apsp_in("solve", graph, "--sources", "1,2,59", "--targets", "1,3,60,4", "--json")
    assert r.rc == 0, r
    j = json.loads(r.out)
    pairs = [(s, t) for s in "1,2,59".split(",") for t in "1,3,60,4".split(",") if s != t]
    assert j["n"] == 60 and j["sources"] == 3 and j["targets"] == 4
    assert j["output"] is None and set(j["seconds"]) == {"read", "solve", "write"}
    assert j["pairs"] == len(pairs)
    assert j["reachable_pairs"] == sum(np.isfinite(full[p]) for p in pairs)
    # The searches a second: from the smaller set, or n for the whole matrix.
    searched = {"dijkstra_from_sources": 3, "dijkstra_from_targets": 4, "whole_matrix": 60}
    assert j["sources_per_second"] == pytest.approx(searched[j["engine"]] / j["seconds"]["solve"])
    r = apsp_in("solve", graph, "--sources", "1,2,59", "--targets", "1,3,60,4", "-o", "d.npy")
    assert r.rc == 0, r
    assert "3 sources x 4 targets" in r.out and "distances        d.npy" in r.out, r
    assert f"reachable pairs  {j['reachable_pairs']} of {len(pairs)}" in r.out, r


@pytest.mark.parametrize("args, fragments", [
    (["--sources", "1,999"], ["'999'", "--sources"]),
    (["--targets", "0"], ["'0'", "--targets"]),
    (["--sources", "@bad.txt"], ["'77'", "line 3 of bad.txt"]),
    (["--sources", ""], ["empty entry"]),
    (["--sources", "1,,2"], ["empty entry"]),
    (["--sources", "@missing.txt"], ["missing.txt"]),
    (["--sources", "@empty.txt"], ["names no vertex"]),
])
def test_bad_ids_and_lists_exit_2(apsp_in, tmp_path, args, fragments):
    graph, _ = random_graph(tmp_path, 38)
    (tmp_path / "bad.txt").write_text("1 2\n# comment 77\n3 77\n")
    (tmp_path / "empty.txt").write_text("# nothing\n\n")
    r = apsp_in("solve", graph, *args, "-o", "d.npy")
    assert_error(r, 2, *fragments)
    assert not (tmp_path / "d.npy").exists()


@pytest.mark.parametrize("extra", [
    ["--paths", "v.npy"], ["--map-output"], ["--dtype", "int16"],
    # --checkpoint and --resume make a table in tiles into -o FILE.npy (test_table_tiles.py).
    ["--checkpoint", "ck", "--second-weight", "length", "--second-output", "l.npy"],
])
def test_options_that_make_no_sense_exit_2_before_the_read(apsp_in, tmp_path, extra):
    # The input does not exist: the refusal must come before it is read.
    r = apsp_in("solve", "missing.gr", "--sources", "1", "-o", "d.npy", *extra)
    assert_error(r, 2, extra[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_negative_cycle_named_in_the_files_direction(apsp_in, tmp_path):
    edges = [(1, 2, 4), (2, 3, -3), (3, 4, 1), (4, 2, -2), (5, 1, 1)]
    write_gr(tmp_path / "cyc.gr", 6, edges)
    arcs = {(u, v) for u, v, _ in edges}
    for sets in (["--sources", "1,5"], ["--targets", "6"], ["--sources", "6", "--targets", "1"]):
        r = apsp_in("solve", "cyc.gr", *sets, "-o", "d.npy")
        assert_error(r, 4, "negative cycle", "a cycle: ")
        cycle = r.err.split("a cycle: ")[1].split(",")[0].split(" -> ")
        steps = list(zip(map(int, cycle), map(int, cycle[1:])))
        assert steps and all(s in arcs for s in steps), (r.err, sets)
        assert not (tmp_path / "d.npy").exists()


def test_sigterm_before_the_rename_leaves_the_old_output(apsp_bin, tmp_path):
    from test_signals import Child  # the helper that waits for a stderr line

    graph, _ = random_graph(tmp_path, 39)
    (tmp_path / "d.npy").write_bytes(b"an earlier result")
    child = Child([apsp_bin, "solve", str(graph), "--sources", "1,2", "-o", "d.npy"], tmp_path,
                  env=dict(os.environ, APSP_TEST_PAUSE_IN_WRITE="1"))
    child.wait_for("apsp: test: paused after output 1")
    child.proc.send_signal(signal.SIGTERM)
    rc, lines = child.finish()
    assert rc == 143, lines
    assert lines[-1] == "apsp: error: interrupted (SIGTERM); no output was written\n", lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.npy", "g.gr"]
    assert (tmp_path / "d.npy").read_bytes() == b"an earlier result"


def test_sigterm_during_the_searches_leaves_nothing(apsp_bin, tmp_path):
    from test_signals import PROGRESS, Child

    n = 6000
    rng = np.random.default_rng(40)
    write_gr(tmp_path / "big.gr", n, random_edges(rng, n, 6 * n, 1, 100))
    (tmp_path / "all.txt").write_text("\n".join(map(str, range(1, n + 1))))
    child = Child([apsp_bin, "solve", "big.gr", "--sources", "@all.txt", "--threads", "1",
                   "--progress", "-o", "d.npy"], tmp_path)
    child.wait_for(PROGRESS)
    child.proc.send_signal(signal.SIGTERM)
    rc, lines = child.finish()
    assert rc == 143, lines
    errors = [line for line in lines if not line.startswith(PROGRESS)]
    assert len(errors) == 1 and errors[0].startswith(
        "apsp: error: interrupted (SIGTERM) while solving big.gr"), lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all.txt", "big.gr"]


def test_no_csv_labels_writes_values_only(apsp_in, tmp_path):
    graph, _ = random_graph(tmp_path, 46)
    full = full_matrix(apsp_in, graph)
    r = apsp_in("solve", graph, "--sources", "5,1", "--targets", "2,60,9", "-o", "d.csv",
                "--no-csv-labels", "-q")
    assert r.rc == 0, r
    got = np.loadtxt(tmp_path / "d.csv", delimiter=",", ndmin=2)
    want = np.array([[full[(s, t)] for t in ["2", "60", "9"]] for s in ["5", "1"]])
    np.testing.assert_array_equal(got, want)


def test_engine_options_ask_for_the_whole_matrix(apsp_in, tmp_path):
    """--backend reference / --algorithm fw choose the whole matrix for the block (cut from it,
    the same values); --algorithm johnson keeps Dijkstra's rows, and --block is then ignored
    with one warning."""
    graph, _ = random_graph(tmp_path, 47)
    full = full_matrix(apsp_in, graph)
    every = [str(v) for v in range(1, 61)]
    for extra in (["--backend", "reference"], ["--algorithm", "fw"]):
        r = apsp_in("solve", graph, "--sources", "3", *extra, "-o", "d.npy", "--json")
        assert r.rc == 0 and r.err == "", r
        j = json.loads(r.out)
        assert j["engine"] == "whole_matrix" and j["engine_reason"] == "asked for", j
        check_block(tmp_path, "d.npy", full, ["3"], every)
    r = apsp_in("solve", graph, "--sources", "3", "--algorithm", "johnson", "--block", "8",
                "-o", "d.npy", "--json")
    assert r.rc == 0, r
    assert json.loads(r.out)["engine"] == "dijkstra_from_sources"
    lines = r.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("apsp: warning: --block is ignored"), r
    check_block(tmp_path, "d.npy", full, ["3"], every)


def test_a_dense_graph_with_many_sources_is_cut_from_the_whole_matrix(apsp_in, tmp_path):
    """auto: on a dense graph Floyd-Warshall of the whole matrix beats Dijkstra from most of the
    vertices (the cost model), and from two of them it does not; both give Dijkstra's block."""
    n = write_dense_gr(tmp_path / "dense.gr")
    many = ",".join(str(v) for v in range(1, n - 9))
    for sources, engine in ((many, "whole_matrix"), ("7,250", "dijkstra_from_sources")):
        r = apsp_in("solve", "dense.gr", "--sources", sources, "-o", "auto.npy", "--json")
        assert r.rc == 0, r
        j = json.loads(r.out)
        assert j["engine"] == engine, j
        if engine == "whole_matrix":
            assert j["engine_reason"].startswith("auto: the whole matrix ~"), j
        r = apsp_in("solve", "dense.gr", "--sources", sources, "--algorithm", "johnson",
                    "-o", "rows.npy", "-q")
        assert r.rc == 0, r
        a, b = np.load(tmp_path / "auto.npy"), np.load(tmp_path / "rows.npy")
        assert a.shape == (len(sources.split(",")), n) and a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def test_a_graph_beyond_the_matrix_limit_is_read_for_some_rows(apsp_in, tmp_path):
    """Above 2^19 vertices no n x n matrix is possible, but --sources/--targets and `apsp paths`
    keep none: their read takes the graph, and the full solve still refuses it."""
    n = (1 << 19) + 5
    # A path 1 -> 2 -> ... -> 6 at the start, and one arc into the last vertex.
    arcs = [(k, k + 1, k) for k in range(1, 6)] + [(3, n, 7)]
    write_gr(tmp_path / "wide.gr", n, arcs)
    r = apsp_in("solve", "wide.gr", "--sources", "1,3", "--targets", f"6,{n}", "-o", "b.npy", "-q")
    assert r.rc == 0, r
    block = np.load(tmp_path / "b.npy").astype(float)
    block[block >= COURSE_INF] = np.inf
    assert block.tolist() == [[15.0, 10.0], [12.0, 7.0]]
    r = apsp_in("paths", "wide.gr", "--sources", "1", "--targets", str(n))
    assert r.rc == 0, r
    line = json.loads(r.out.splitlines()[0])
    assert line["distance"] == 10 and line["path"] == [1, 2, 3, n], line
    r = apsp_in("solve", "wide.gr", "-o", "full.npy")
    assert r.rc == 3 and "too large" in r.err and "1 TiB" in r.err, r
