"""`apsp paths`: for each chosen pair, its distance (against the full matrix of the reference
back end) and a path that walks existing edges from the pair's source to its target and whose
weights add up to that distance."""

import csv
import io
import json
import os

import numpy as np
import pytest

from conftest import assert_error
from graph_files import write_gr
from test_subsets import full_matrix, potential_shifted, random_graph


@pytest.fixture
def apsp_in(apsp, tmp_path):
    apsp.cwd = tmp_path
    return apsp


def lightest(edges):
    """{(u, v): least weight} of an edge list, ids as strings."""
    out = {}
    for u, v, w in edges:
        key = (str(u), str(v))
        out[key] = min(out.get(key, float("inf")), w)
    return out


def check_answers(answers, pairs, full, arcs):
    """Every answer is its pair's: the distance of the full matrix, and a path from the source to
    the target over existing arcs whose least weights add up to it (none when unreachable)."""
    assert len(answers) == len(pairs)
    for (s, t), a in zip(pairs, answers):
        assert (str(a["source"]), str(a["target"])) == (s, t), a
        want = full[(s, t)]
        if np.isinf(want):
            assert a["distance"] is None and a["path"] == [], a
            continue
        assert a["distance"] == want, (a, want)
        path = [str(x) for x in a["path"]]
        assert path[0] == s and path[-1] == t, a
        assert sum(arcs[(x, y)] for x, y in zip(path, path[1:])) == want, a


def json_lines(text):
    return [json.loads(line) for line in text.splitlines()]


def random_pairs(rng, n, count):
    return [(str(int(a)), str(int(b))) for a, b in rng.integers(1, n + 1, (count, 2))]


@pytest.mark.parametrize("out", [None, "p.jsonl", "p.csv"])
def test_paths_of_random_pairs(apsp_in, tmp_path, out):
    graph, edges = random_graph(tmp_path, 41)
    full = full_matrix(apsp_in, graph)
    rng = np.random.default_rng(41)
    pairs = random_pairs(rng, 60, 80) + [("7", "7"), ("1", "60"), ("60", "1"), ("7", "7")]
    text = "# source target\n" + "\n".join(
        f"{s},{t}" if k % 3 == 0 else f"{s}\t {t}   # pair {k}" for k, (s, t) in enumerate(pairs))
    (tmp_path / "pairs.txt").write_text(text + "\n\n")
    args = ["paths", graph, "--pairs", "pairs.txt"] + (["-o", out] if out else [])
    r = apsp_in(*args)
    assert r.rc == 0, r
    if out is None:
        answers = json_lines(r.out)
    elif out.endswith(".jsonl"):
        assert r.out == ""
        answers = json_lines((tmp_path / out).read_text())
    else:
        rows = list(csv.reader(io.StringIO((tmp_path / out).read_text())))
        assert rows[0] == ["source", "target", "distance", "path"]
        answers = [{"source": s, "target": t,
                    "distance": None if d == "inf" else float(d),
                    "path": p.split() if p else []} for s, t, d, p in rows[1:]]
    check_answers(answers, pairs, full, lightest(edges))
    assert any(a["distance"] is None for a in answers) and any(len(a["path"]) > 2 for a in answers)
    assert answers[-1]["path"] == [7] or answers[-1]["path"] == ["7"]


def test_every_pair_of_sources_and_targets_with_negative_weights(apsp_in, tmp_path):
    graph = potential_shifted(tmp_path, 42)
    text = graph.read_text().splitlines()
    edges = [tuple(int(x) for x in line.split()[1:]) for line in text if line.startswith("a ")]
    full = full_matrix(apsp_in, graph)
    r = apsp_in("paths", graph, "--sources", "3,1,3", "--targets", "40,2,9,3", "--dtype", "int64")
    assert r.rc == 0, r
    pairs = [(s, t) for s in ["3", "1", "3"] for t in ["40", "2", "9", "3"]]
    answers = json_lines(r.out)
    check_answers(answers, pairs, full, lightest(edges))
    assert any(a["distance"] is not None and a["distance"] < 0 for a in answers)


def test_string_ids_of_a_csv_graph(apsp_in, tmp_path):
    rows = ["source,target,weight", "ADAL,AVAR,2", "AVAR,\"x,y\",3", "ADAL,\"x,y\",9",
            "\"x,y\",PVQ,1", "PVQ,ADAL,1", "lonely,ADAL,4"]
    (tmp_path / "e.csv").write_text("\n".join(rows) + "\n")
    full = full_matrix(apsp_in, "e.csv")
    (tmp_path / "pairs.txt").write_text("ADAL PVQ\nPVQ AVAR\nADAL lonely\n")
    r = apsp_in("paths", "e.csv", "--pairs", "pairs.txt", "-o", "p.csv")
    assert r.rc == 0, r
    assert (tmp_path / "p.csv").read_text().splitlines() == [
        "source,target,distance,path",
        'ADAL,PVQ,6,"ADAL AVAR x,y PVQ"',
        "PVQ,AVAR,3,PVQ ADAL AVAR",
        "ADAL,lonely,inf,",
    ]
    r = apsp_in("paths", "e.csv", "--pairs", "pairs.txt")
    assert json_lines(r.out)[0] == {"source": "ADAL", "target": "PVQ", "distance": 6,
                                    "path": ["ADAL", "AVAR", "x,y", "PVQ"]}
    assert full[("ADAL", "PVQ")] == 6


def test_batches_of_sources(apsp_in, tmp_path):
    """Three sources per batch (APSP_SOURCE_BATCH_CELLS = 3n), 25 distinct sources interleaved:
    every answer comes from the right batch and row."""
    graph, edges = random_graph(tmp_path, 43)
    full = full_matrix(apsp_in, graph)
    rng = np.random.default_rng(43)
    sources = [str(int(x)) for x in rng.choice(np.arange(1, 61), 25, replace=False)]
    pairs = [(sources[k % 25], str(int(t))) for k, t in enumerate(rng.integers(1, 61, 120))]
    (tmp_path / "pairs.txt").write_text("".join(f"{s} {t}\n" for s, t in pairs))
    r = apsp_in("paths", graph, "--pairs", "pairs.txt", "-o", "p.jsonl",
                env=dict(os.environ, APSP_SOURCE_BATCH_CELLS="180"))
    assert r.rc == 0, r
    check_answers(json_lines((tmp_path / "p.jsonl").read_text()), pairs, full, lightest(edges))


@pytest.mark.parametrize("pairs_text, args, fragments", [
    ("1 2\n3 99\n", [], ["'99'", "line 2 of pairs.txt"]),
    ("1 2\n# c\n3\n", [], ["line 3 of pairs.txt", "two vertex ids"]),
    ("1 2 3\n", [], ["line 1 of pairs.txt"]),
    ("# none\n", [], ["holds no pair"]),
    ("1 2\n", ["--sources", "1"], ["--pairs excludes"]),
    (None, ["--sources", "1"], ["--sources and --targets"]),
    (None, ["--sources", "1", "--targets", "0"], ["'0'", "--targets"]),
    ("1 2\n", ["-o", "p.txt"], [".jsonl", ".csv"]),
])
def test_bad_pairs_exit_2(apsp_in, tmp_path, pairs_text, args, fragments):
    graph, _ = random_graph(tmp_path, 44)
    extra = list(args)
    if pairs_text is not None:
        (tmp_path / "pairs.txt").write_text(pairs_text)
        extra = ["--pairs", "pairs.txt"] + extra
    r = apsp_in("paths", graph, *extra)
    assert_error(r, 2, *fragments)


def test_negative_cycle_exits_4(apsp_in, tmp_path):
    write_gr(tmp_path / "cyc.gr", 5, [(1, 2, 4), (2, 3, -3), (3, 4, 1), (4, 2, -2)])
    (tmp_path / "pairs.txt").write_text("5 1\n")
    r = apsp_in("paths", "cyc.gr", "--pairs", "pairs.txt", "-o", "p.jsonl")
    assert_error(r, 4, "cyc.gr: the graph has a negative cycle through vertices",
                 "a cycle: 2 -> 3 -> 4 -> 2, total weight -4")
    assert not (tmp_path / "p.jsonl").exists()


def test_sigterm_before_the_rename_leaves_nothing(apsp_bin, tmp_path):
    import signal

    from test_signals import Child

    graph, _ = random_graph(tmp_path, 45)
    (tmp_path / "pairs.txt").write_text("1 2\n3 4\n")
    child = Child([apsp_bin, "paths", str(graph), "--pairs", "pairs.txt", "-o", "p.jsonl"],
                  tmp_path, env=dict(os.environ, APSP_TEST_PAUSE_IN_WRITE="1"))
    child.wait_for("apsp: test: paused after output 1")
    child.proc.send_signal(signal.SIGTERM)
    rc, lines = child.finish()
    assert rc == 143, lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.gr", "pairs.txt"]


def test_undirected_paths_walk_edges_either_way(apsp_in, tmp_path):
    graph, edges = random_graph(tmp_path, 48)
    full = full_matrix(apsp_in, graph, "--undirected")
    both = edges + [(v, u, w) for u, v, w in edges]
    r = apsp_in("paths", graph, "--undirected", "--sources", "60,1", "--targets", "59,2,33")
    assert r.rc == 0, r
    pairs = [(s, t) for s in ["60", "1"] for t in ["59", "2", "33"]]
    check_answers(json_lines(r.out), pairs, full, lightest(both))
