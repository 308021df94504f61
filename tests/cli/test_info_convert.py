"""apsp info and apsp convert: every format round-trips to the same graph and distances."""

import json

import numpy as np
import pytest

from graph_files import random_edges, write_dense_gr, write_gr

N = 25


@pytest.fixture
def source(tmp_path):
    rng = np.random.default_rng(21)
    # A ring keeps every vertex on an edge, so edge lists (which only know vertices by their
    # edges) keep all N; random extras add parallel edges, zero weights and self-loops.
    edges = [(i, i % N + 1, 3) for i in range(1, N + 1)] + random_edges(rng, N, 60, 0, 40)
    edges.append((5, 5, 2))
    write_gr(tmp_path / "g.gr", N, edges)
    return edges


def info(apsp, name, *extra):
    r = apsp("info", name, "--json", *extra)
    assert r.rc == 0 and r.err == "", r
    return json.loads(r.out)


def test_info_describes_graph_and_plans(apsp, tmp_path, source):
    j = info(apsp, "g.gr")
    assert j["n"] == N and j["m"] == len(source) and j["format"] == "dimacs"
    w = [e[2] for e in source]
    assert j["weights"] == {"min": min(w), "max": max(w), "integral": True, "negative": False}
    assert j["self_loops"] == sum(1 for u, v, _ in source if u == v)
    plans = {p["backend"]: p for p in j["plans"]}
    assert set(plans) == {"reference", "cpu", "cuda"}
    cpu = plans["cpu"]
    assert cpu["available"] and cpu["fits"] and cpu["rounds"] * cpu["block"] >= N
    assert cpu["host_bytes"] >= 4 * N * N
    plans64 = info(apsp, "g.gr", "--paths", "--dtype", "int64")["plans"]
    with_paths = {p["backend"]: p for p in plans64}
    assert with_paths["cpu"]["host_bytes"] >= 12 * N * N
    text = apsp("info", "g.gr")
    assert text.rc == 0 and "vertices" in text.out and "cpu" in text.out, text


@pytest.mark.parametrize("target", ["g.bin", "g.mtx", "g.txt", "g.csv", "g.npy", "g.wel"])
def test_convert_round_trip(apsp, tmp_path, source, target):
    r = apsp("convert", "g.gr", target)
    assert r.rc == 0 and target in r.out, r
    j = info(apsp, target)
    assert j["n"] == N
    if target != "g.npy":  # a dense matrix keeps one (minimum) weight per pair
        assert j["m"] == len(source)
    assert apsp("convert", target, "back.gr", "-q").rc == 0
    assert info(apsp, "back.gr")["n"] == N
    base = json.loads(apsp("solve", "g.gr", "--json").out)
    for name in [target, "back.gr"]:
        s = json.loads(apsp("solve", name, "--json").out)
        assert (s["reachable_pairs"], s["distance_sum"], s["max_distance"]) == (
            base["reachable_pairs"], base["distance_sum"], base["max_distance"]), name


def test_convert_with_explicit_formats(apsp, tmp_path, source):
    assert apsp("convert", "g.gr", "g.data", "--output-format", "course-binary", "-q").rc == 0
    assert apsp("info", "g.data").rc == 2  # unknown suffix and no --format
    j = info(apsp, "g.data", "--format", "course-binary")
    assert j["n"] == N and j["format"] == "course-binary"


def test_an_unknown_suffix_is_read_by_the_files_signature(apsp, tmp_path):
    (tmp_path / "g.mtx").write_text(
        "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n2 3 7\n")
    (tmp_path / "g.dat").write_bytes((tmp_path / "g.mtx").read_bytes())
    r = apsp("info", "g.dat")
    assert r.rc == 0, r
    assert apsp("info", "g.dat", "--json").out == apsp("info", "g.mtx", "--json").out.replace(
        "g.mtx", "g.dat")
    assert apsp("convert", "g.dat", "g.npy", "-q").rc == 0
    (tmp_path / "n.xyz").write_bytes((tmp_path / "g.npy").read_bytes())
    r = apsp("solve", "n.xyz", "-o", "d.npy", "-q")
    assert r.rc == 0, r
    (tmp_path / "plain.dat").write_text("1 2 5\n")
    r = apsp("info", "plain.dat")
    assert r.rc == 2 and "--format" in r.err, r


def test_info_plans_with_the_backend_and_dtype_solve_would_take(apsp, tmp_path):
    (tmp_path / "fr.gr").write_text("p sp 3 2\na 1 2 1.5\na 2 3 2\n")
    j = json.loads(apsp("info", "fr.gr", "--json").out)
    assert j["backend"] == "auto" and j["auto"] == "cpu"
    j = json.loads(apsp("info", "fr.gr", "--json", "--backend", "reference").out)
    assert j["backend"] == "reference" and j["auto"] == "reference", j
    assert "--backend reference:" in apsp("info", "fr.gr", "--backend", "reference").out
    j = json.loads(apsp("info", "fr.gr", "--json", "--dtype", "auto").out)
    r = apsp("solve", "fr.gr", "-o", "d.npy", "--dtype", "auto", "--json")
    assert j["dtype"] == json.loads(r.out)["dtype"] == "float32", (j, r)


def test_integral_weights_are_written_as_integers(apsp, tmp_path):
    # The shortest text of 100000.0 is "1e+05": integer readers (sscanf "%ld", SciPy's mmread of
    # an `integer` Matrix Market file) would read 1 or refuse it.
    import gzip
    import scipy.io
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 100000), (2, 3, 2000000), (1, 3, 300000000)])
    for name in ("o.gr", "o.mtx", "o.txt", "o.csv"):
        assert apsp("convert", "g.gr", name, "-q").rc == 0
        text = (tmp_path / name).read_text()
        assert "e+" not in text, (name, text)
        for w in ("100000", "2000000", "300000000"):
            assert w in text, (name, text)
    m = scipy.io.mmread(str(tmp_path / "o.mtx")).toarray()
    assert (m[0, 1], m[1, 2], m[0, 2]) == (100000, 2000000, 300000000)
    assert apsp("solve", "g.gr", "-o", "d.csv", "--no-csv-labels", "--dtype", "float64",
                "-q").rc == 0
    assert (tmp_path / "d.csv").read_text().split()[0] == "0,100000,2100000"
    r = apsp("path", "g.gr", "1", "3", "--dtype", "float64")
    assert r.rc == 0 and r.out.startswith("length 2100000,"), r
    # float32 distances print as float32 values ("0.1", not the double "0.10000000149011612"),
    # and a .Gz name (any case) is compressed, as its reader expects
    (tmp_path / "f.csv").write_text("source,target,weight\na,b,0.1\nb,c,0.2\n")
    assert apsp("solve", "f.csv", "--dtype", "float32", "-o", "f_d.csv.Gz", "--no-csv-labels",
                "-q").rc == 0
    rows = gzip.decompress((tmp_path / "f_d.csv.Gz").read_bytes()).decode().split()
    assert rows[0] == "0,0.1,0.3", rows


def test_ids_an_edge_list_would_change_are_refused(apsp, tmp_path):
    # CSV ids are strings: "007" and "+7" are not "7"; an edge list would merge them.
    from conftest import assert_error
    (tmp_path / "g.csv").write_text("source,target,weight\n7,1,1\n007,2,5\n1,2,1\n")
    assert_error(apsp("convert", "g.csv", "g.txt"), 2, "'007'", "read back", "csv")
    assert not (tmp_path / "g.txt").exists()
    assert_error(apsp("path", "g.csv", "0007", "2"), 2, "'0007'")
    r = apsp("path", "g.csv", "007", "2", "--json")
    assert r.rc == 0 and json.loads(r.out)["length"] == 5, r
    # ... while an edge list's own ids are integers, found under any spelling
    (tmp_path / "e.txt").write_text("7 1 1\n1 2 2\n")
    r = apsp("path", "e.txt", "+007", "2", "--json")
    assert r.rc == 0 and json.loads(r.out)["length"] == 3, r


def test_a_graph_without_edges_is_not_written_where_it_could_not_be_read(apsp, tmp_path):
    from conftest import assert_error
    (tmp_path / "e.gr").write_text("p sp 0 0\n")
    for name in ("e.txt", "e.csv"):
        assert_error(apsp("convert", "e.gr", name), 2, "no edges")
        assert not (tmp_path / name).exists()
    assert apsp("convert", "e.gr", "e.mtx", "-q").rc == 0
    assert info(apsp, "e.mtx")["n"] == 0


@pytest.mark.parametrize("args,driver", [
    (["--backend", "cpu", "--threads", "1"], "cpu blocked, 1 thread"),
    (["--backend", "cpu", "--threads", "2", "--algorithm", "johnson"], "johnson, 2 threads"),
    (["--backend", "reference"], "reference"),
])
def test_info_names_the_driver_solve_runs(apsp, tmp_path, source, args, driver):
    """The plan carries its driver (apsp/plan.hpp): `info` shows the one `solve` then runs."""
    j = info(apsp, "g.gr", *args)
    chosen = {p["backend"]: p for p in j["plans"]}[j["auto"]]
    assert chosen["driver"] == driver, chosen
    r = apsp("solve", "g.gr", "--json", *args)
    assert r.rc == 0, r
    assert json.loads(r.out)["driver"] == driver
    assert f"({driver})" in apsp("info", "g.gr", *args).out


@pytest.mark.parametrize("args", [
    ["--backend", "cpu", "--threads", "2"],
    ["--backend", "cpu", "--threads", "2", "--algorithm", "johnson", "--block", "7"],
    ["--backend", "reference"],
    ["--dtype", "float64"],
])
def test_info_shows_the_engine_metrics_runs(apsp, tmp_path, source, args):
    """`apsp info --metrics` asks the planner what `apsp metrics` then runs (issue 44)."""
    planned = info(apsp, "g.gr", "--metrics", *args)["metrics"]
    r = apsp("metrics", "g.gr", "--json", *args)
    assert r.rc == 0, r
    ran = json.loads(r.out)
    for key in ("backend", "device", "driver", "algorithm", "algorithm_reason", "block"):
        assert planned[key] == ran[key], (key, planned, ran)
    text = apsp("info", "g.gr", "--metrics", *args).out
    assert f"metrics runs     {ran['driver']} ({ran['algorithm_reason']})" in text, text


def test_info_shows_the_engine_a_block_runs(apsp, tmp_path, source):
    """`apsp info --sources/--targets` asks the planner what `apsp solve --sources/--targets`
    then runs: rows from the smaller side, or the whole matrix where it is asked for or, on a
    dense graph with many sources, ends sooner (issue 44)."""
    n = write_dense_gr(tmp_path / "dense.gr")
    many = ",".join(str(v) for v in range(1, n - 9))
    # (On 25 vertices auto cuts every block from the whole matrix.)
    cases = [("g.gr", ["--sources", "1,2", "--targets", "3"]),
             ("g.gr", ["--sources", "1,2", "--targets", "3", "--algorithm", "johnson"]),
             ("g.gr", ["--targets", "3,4", "--algorithm", "johnson"]),
             ("dense.gr", ["--sources", "7,250"]),
             ("g.gr", ["--sources", "5", "--algorithm", "fw"]),
             ("g.gr", ["--sources", "5", "--backend", "reference"]),
             ("dense.gr", ["--sources", many]),
             ("dense.gr", ["--sources", many, "--algorithm", "johnson"])]
    engines = set()
    for graph, args in cases:
        planned = info(apsp, graph, *args)["block"]
        r = apsp("solve", graph, "--json", *args)
        assert r.rc == 0, r
        ran = json.loads(r.out)
        for key in ("engine", "driver", "engine_reason"):
            assert planned[key] == ran[key], (args[:3], key, planned, ran)
        assert (planned["sources"], planned["targets"]) == (ran["sources"], ran["targets"])
        engines.add(ran["engine"])
    assert engines == {"whole_matrix", "dijkstra_from_sources", "dijkstra_from_targets"}


def test_info_shows_the_engine_a_pair_runs(apsp, tmp_path, source):
    """`apsp info --pair S T` asks the planner what `apsp path S T` then runs (`--plan` shows it):
    one bidirectional search, with Bellman-Ford potentials first where a weight is negative,
    whatever all-pairs engine the options name (issue 44)."""
    write_gr(tmp_path / "n.gr", 5, [(1, 2, -3), (2, 3, 5), (3, 4, -4), (1, 4, 1), (5, 1, 2)])
    cases = [("g.gr", ["1", "5"], []),
             ("g.gr", ["3", "3"], ["--dtype", "float64"]),
             ("g.gr", ["2", "9"], ["--threads", "2"]),
             ("n.gr", ["1", "4"], []),
             ("n.gr", ["5", "4"], ["--dtype", "int64"])]
    for graph, pair, args in cases:
        planned = info(apsp, graph, "--pair", *pair, *args)["pair"]
        r = apsp("path", graph, *pair, "--json", "--plan", *args)
        assert r.rc == 0 and r.err == "", r
        ran = json.loads(r.out)
        assert (planned["source"], planned["target"]) == (ran["source"], ran["target"])
        for key in ("driver", "engine_reason", "plan"):
            assert planned[key] == ran[key], (graph, pair, key, planned, ran)
        assert ran["plan"]["algorithm"] == "bidirectional-dijkstra" and ran["plan"]["fits"]
        negative = graph == "n.gr"
        assert ran["driver"] == "bidirectional dijkstra, 1 thread" + (
            ", bellman-ford potentials first" if negative else ""), ran
        # The documented keys come first, as `apsp path --json` prints them alone.
        alone = json.loads(apsp("path", graph, *pair, "--json", *args).out)
        assert list(ran)[:4] == list(alone) and all(ran[k] == alone[k] for k in alone)
        text = apsp("info", graph, "--pair", *pair, *args).out
        assert f"pair runs        {pair[0]} -> {pair[1]}: {ran['driver']} " \
               f"({ran['engine_reason']})" in text, text
        assert f"engine {ran['driver']} ({ran['engine_reason']})" in \
            apsp("path", graph, *pair, "--plan", *args).out
    # The all-pairs engines' options are ignored with a warning by `path`, and planned past by
    # `info`: the same search.
    planned = info(apsp, "g.gr", "--pair", "1", "5", "--backend", "reference")["pair"]
    r = apsp("path", "g.gr", "1", "5", "--json", "--plan", "--backend", "reference")
    assert r.rc == 0 and "warning" in r.err, r
    assert planned["plan"] == json.loads(r.out)["plan"]
    # An id not in the file is a usage error for both; saved matrices are not searched.
    assert apsp("info", "g.gr", "--pair", "1", "99").rc == 2
    assert apsp("path", "g.gr", "1", "5", "--plan", "--dist", "d.npy", "--via", "v.npy").rc == 2


@pytest.mark.parametrize("args", [
    ["--backend", "cpu", "--threads", "2"],
    ["--backend", "cpu", "--threads", "2", "--algorithm", "johnson"],
    ["--backend", "cpu", "--algorithm", "fw", "--dtype", "float64", "--block", "32"],
    ["--backend", "reference", "--dtype", "int64"],
])
def test_info_shows_the_whole_plan_solve_runs(apsp, tmp_path, source, args):
    """`apsp info` prints the plan `apsp solve` would run, field for field (issue 33)."""
    planned = info(apsp, "g.gr", *args)["plan"]
    r = apsp("solve", "g.gr", "--json", *args)
    assert r.rc == 0, r
    ran = json.loads(r.out)["plan"]
    assert planned == ran
    assert planned["fits"] and planned["host_bytes"] >= planned["working_host_bytes"]
    assert planned["file_bytes"] == 0  # nothing written, nothing mapped
