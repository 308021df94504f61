"""The distributed solver: `mpirun -np P apsp solve ...` with cpu ranks on 1-4 processes.

Every output is compared byte for byte with the one-process cpu back end's (itself checked
against the naive oracle by the conformance suite), distances also with SciPy's shortest_path,
and the real graphs with the checksums of ../shared/data/README.md (bundled copies in data/).
"""

import gzip
import json
import os
import signal
import struct
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

CLI = os.environ.get("APSP_CLI")
MPIEXEC = os.environ.get("APSP_MPIEXEC", "mpirun")
REPO_DATA = Path(os.environ.get("APSP_REPO_DATA", Path(__file__).resolve().parents[2] / "data"))
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMP_NUM_THREADS="1")
ENV.pop("APSP_CLI", None)


@pytest.fixture(scope="module", autouse=True)
def need_binary():
    if not CLI or not Path(CLI).exists():
        pytest.skip("APSP_CLI is not set to a built apsp binary (run the tests through ctest)")


def run(args, cwd, np_=None, timeout=300):
    """apsp ARGS, under mpirun -np np_ when np_ is given."""
    cmd = [CLI, *map(str, args)]
    if np_ is not None:
        cmd = [MPIEXEC, "-np", str(np_), "--oversubscribe", *cmd]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=ENV)


def apsp_errors(proc):
    return [l for l in proc.stderr.splitlines() if l.startswith("apsp: error: ")]


def write_course(path, n, edges):
    """Course binary: int32 n, m, then (src, dst, w) triples."""
    arr = np.asarray(edges, dtype=np.int32).reshape(-1, 3)
    path.write_bytes(struct.pack("<ii", n, len(arr)) + arr.tobytes())


def write_dimacs(path, n, edges):
    lines = [f"p sp {n} {len(edges)}"] + [f"a {u + 1} {v + 1} {w}" for u, v, w in edges]
    path.write_text("\n".join(lines) + "\n")


def random_edges(n, m, seed, low=1, high=100, potentials=False):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    w = rng.integers(low, high, m)
    if potentials:  # w + p[u] - p[v]: negative weights, but no negative cycle
        p = rng.integers(0, 60, n)
        w = w + p[src] - p[dst]
    return [(int(a), int(b), int(c)) for a, b, c in zip(src, dst, w)]


def scipy_distances(n, edges):
    best = {}
    for u, v, w in edges:
        if u != v:
            best[(u, v)] = min(w, best.get((u, v), w))
    rows = [k[0] for k in best]
    cols = [k[1] for k in best]
    vals = [float(w) if w != 0 else 1e-300 for w in best.values()]  # explicit zero weights
    g = csr_matrix((vals, (rows, cols)), shape=(n, n))
    d = shortest_path(g, method="BF" if any(w < 0 for w in best.values()) else "D")
    return np.round(d, 6)


def check_paths(dist, via):
    """Every via vertex k splits d[i][j] into d[i][k] + d[k][j]; -1 only on direct edges."""
    n = dist.shape[0]
    finite = dist < 2**30 - 1
    i, j = np.nonzero((via >= 0) & finite)
    k = via[i, j]
    assert np.all((k >= 0) & (k < n))
    assert np.array_equal(dist[i, j].astype(np.int64),
                          dist[i, k].astype(np.int64) + dist[k, j].astype(np.int64))


@pytest.fixture(scope="module")
def graph301(tmp_path_factory):
    d = tmp_path_factory.mktemp("g301")
    n = 301  # not a multiple of the 32-vertex tiles used below
    edges = random_edges(n, 2400, seed=11)
    write_course(d / "g.bin", n, edges)
    r = run(["solve", "g.bin", "-o", "one.npy", "--paths", "one_via.npy", "--backend", "cpu",
             "--block", "32", "--no-map-output", "-q"], d)
    assert r.returncode == 0, r.stderr
    return d, n, edges


@pytest.mark.parametrize("ranks,grid", [(1, None), (2, "1x2"), (2, "2x1"), (3, "3x1"),
                                        (4, "2x2"), (4, None)])
def test_grids_match_one_process_bit_for_bit(graph301, ranks, grid):
    d, n, edges = graph301
    out = f"d{ranks}{grid}.npy"
    via = f"v{ranks}{grid}.npy"
    args = ["solve", "g.bin", "-o", out, "--paths", via, "--block", "32", "--json"]
    if grid:
        args += ["--grid", grid]
    r = run(args, d, np_=ranks)
    assert r.returncode == 0, r.stderr
    assert (d / out).read_bytes() == (d / "one.npy").read_bytes()
    assert (d / via).read_bytes() == (d / "one_via.npy").read_bytes()
    summary = json.loads(r.stdout)
    if ranks > 1:
        assert summary["backend"] == "distributed" and summary["ranks"] == ranks
        if grid:
            assert summary["grid"] == grid
    dist = np.load(d / out)
    ref = scipy_distances(n, edges)
    assert np.array_equal(np.where(dist >= 2**30 - 1, np.inf, dist), ref)
    check_paths(dist, np.load(d / via))
    assert not list(d.glob("*.apsp-partial"))


def test_one_process_and_ranks_print_the_same_summary_keys(graph301):
    # One piece of code writes `solve --json` for both (cli/solve_summary.cpp): every key of one
    # process is in the ranks' summary, with the same kind of value, and the same value where
    # it describes the input, the type, the outputs or the distances; the ranks add their own.
    d, n, edges = graph301
    args = ["solve", "g.bin", "-o", "keys.npy", "--paths", "keys_via.npy", "--block", "32",
            "--json"]
    one = run([*args, "--backend", "cpu"], d)
    assert one.returncode == 0, one.stderr
    ranks = run(args, d, np_=2)
    assert ranks.returncode == 0, ranks.stderr
    single, multi = json.loads(one.stdout), json.loads(ranks.stdout)
    assert set(single) <= set(multi), set(single) - set(multi)
    for key, value in single.items():
        assert type(multi[key]) is type(value), key
    assert set(multi["seconds"]) == set(single["seconds"])
    for key in ("input", "format", "n", "m", "dtype", "narrow", "reachable_pairs",
                "distance_sum", "max_distance", "outputs"):
        assert multi[key] == single[key], key
    assert multi["backend"] == "distributed" and multi["ranks"] == 2
    assert {"grid", "lookahead", "rank_bytes", "slowest_rank", "rank_reports"} <= set(multi)


def test_one_process_and_ranks_write_the_same_text_summary(graph301):
    # One writer makes both text summaries too (cli/solve_summary.cpp): the lines that describe
    # the input, the distances and the outputs read the same, in the same order, the values in
    # one column; between them each says how it ran (the ranks add a line a rank).
    d, n, edges = graph301
    args = ["solve", "g.bin", "-o", "text.npy", "--paths", "text_via.npy", "--block", "32"]
    one = run([*args, "--backend", "cpu"], d)
    assert one.returncode == 0, one.stderr
    ranks = run(args, d, np_=2)
    assert ranks.returncode == 0, ranks.stderr

    def lines(text):
        return [(l[:17].rstrip(), l[17:]) for l in text.splitlines()]

    shared = ["input", "vertices, edges", "seconds", "updates/s", "reachable pairs", "checksum",
              "distances", "paths"]
    single, multi = lines(one.stdout), lines(ranks.stdout)
    assert [k for k, _ in single if k in shared] == shared, one.stdout
    assert [k for k, _ in multi if k in shared] == shared, ranks.stdout
    for key in ("input", "vertices, edges", "reachable pairs", "checksum", "distances", "paths"):
        assert dict(single)[key] == dict(multi)[key], key
    assert {"back end", "algorithm", "dtype, tile"} <= dict(single).keys(), one.stdout
    assert {"distributed", "look-ahead", "dtype"} <= dict(multi).keys(), ranks.stdout
    assert sum(1 for l in ranks.stdout.splitlines() if l.startswith("rank ")) == 2, ranks.stdout


@pytest.mark.parametrize("flag,expected", [(None, True), ("--no-lookahead", False),
                                           ("--lookahead", True)])
def test_lookahead_is_on_for_cpu_ranks_and_changes_no_byte(graph301, flag, expected):
    d, n, edges = graph301
    out = f"la_{flag}.npy"
    via = f"la_via_{flag}.npy"
    args = ["solve", "g.bin", "-o", out, "--paths", via, "--block", "32", "--json"]
    if flag:
        args.append(flag)
    r = run(args, d, np_=2)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["lookahead"] is expected
    assert (d / out).read_bytes() == (d / "one.npy").read_bytes()
    assert (d / via).read_bytes() == (d / "one_via.npy").read_bytes()
    text = run(["solve", "g.bin", "--block", "32", *([flag] if flag else [])], d, np_=2)
    assert text.returncode == 0, text.stderr
    assert f"look-ahead       {'on' if expected else 'off'}" in text.stdout


def test_fewer_tiles_than_ranks(tmp_path):
    n = 45  # two tiles of 32 on a 3 x 1 grid: the third rank holds nothing
    edges = random_edges(n, 300, seed=5)
    write_course(tmp_path / "g.bin", n, edges)
    r = run(["solve", "g.bin", "-o", "d.npy", "--block", "32", "--grid", "3x1", "-q"], tmp_path,
            np_=3)
    assert r.returncode == 0, r.stderr
    dist = np.load(tmp_path / "d.npy")
    assert np.array_equal(np.where(dist >= 2**30 - 1, np.inf, dist), scipy_distances(n, edges))


@pytest.mark.parametrize("dtype", ["int32", "float32", "int64", "float64"])
def test_negative_weights_every_dtype(tmp_path, dtype):
    n = 150
    edges = random_edges(n, 1200, seed=7, potentials=True)
    assert min(w for _, _, w in edges) < 0
    write_dimacs(tmp_path / "g.gr", n, edges)
    one = run(["solve", "g.gr", "-o", "one.npy", "--paths", "one_via.npy", "--backend", "cpu",
               "--dtype", dtype, "--block", "32", "--no-map-output", "-q"], tmp_path)
    assert one.returncode == 0, one.stderr
    r = run(["solve", "g.gr", "-o", "d.npy", "--paths", "via.npy", "--dtype", dtype, "--block",
             "32", "-q"], tmp_path, np_=4)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "d.npy").read_bytes() == (tmp_path / "one.npy").read_bytes()
    assert (tmp_path / "via.npy").read_bytes() == (tmp_path / "one_via.npy").read_bytes()
    dist = np.load(tmp_path / "d.npy").astype(np.float64)
    ref = scipy_distances(n, edges)
    unreachable = dist >= (2**30 - 1 if dtype == "int32" else 2**62 - 1 if dtype == "int64"
                           else np.inf)
    assert np.allclose(np.where(unreachable, np.inf, dist), ref, rtol=1e-5)


def test_weights_no_path_takes_may_lie_beyond_int32(tmp_path):
    """Heavy positive self-loops and heavier parallel edges (beyond int32) are dropped, not
    refused or cast: the ranks' outputs are the one process's, and those of the graph without
    them."""
    n = 120
    light = random_edges(n, 900, seed=11)
    heavy = light + [(u, v, 5_000_000_000) for u, v, _ in light[::4]]
    heavy += [(v, v, 9_000_000_000) for v in range(0, n, 5)]
    write_dimacs(tmp_path / "light.gr", n, light)
    write_dimacs(tmp_path / "heavy.gr", n, heavy)
    want = run(["solve", "light.gr", "-o", "want.npy", "--paths", "want_via.npy", "--backend",
                "cpu", "--block", "32", "--no-map-output", "-q"], tmp_path)
    assert want.returncode == 0, want.stderr
    r = run(["solve", "heavy.gr", "-o", "d.npy", "--paths", "via.npy", "--block", "32", "-q"],
            tmp_path, np_=4)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "d.npy").read_bytes() == (tmp_path / "want.npy").read_bytes()
    assert (tmp_path / "via.npy").read_bytes() == (tmp_path / "want_via.npy").read_bytes()


def test_negative_cycle_reported_once_no_output(tmp_path):
    edges = [(0, 1, 2), (1, 2, -5), (2, 0, 1), (3, 4, 1)]
    write_dimacs(tmp_path / "g.gr", 5, edges)
    r = run(["solve", "g.gr", "-o", "d.npy", "--paths", "via.npy"], tmp_path, np_=2)
    assert r.returncode != 0
    errors = apsp_errors(r)
    assert len(errors) == 1, r.stderr  # the first rank speaks for all
    assert "negative cycle" in errors[0]
    assert "1" in errors[0]  # DIMACS ids, 1-based: vertex 1 lies on the cycle
    assert not list(tmp_path.glob("d.npy*")) and not list(tmp_path.glob("via.npy*"))


def test_course_binary_output_identical(graph301):
    d, _, _ = graph301
    one = run(["solve", "g.bin", "-o", "one.bin", "--backend", "cpu", "--block", "32",
               "--no-map-output", "-q"], d)
    assert one.returncode == 0, one.stderr
    r = run(["solve", "g.bin", "-o", "dist.bin", "--block", "32", "-q"], d, np_=4)
    assert r.returncode == 0, r.stderr
    assert (d / "dist.bin").read_bytes() == (d / "one.bin").read_bytes()


def test_rome99_checksum_and_path(tmp_path):
    r = run(["solve", REPO_DATA / "rome99.gr", "-o", "d.npy", "--paths", "via.npy", "--json"],
            tmp_path, np_=4)
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    # ../shared/data/README.md: rome99, w as given
    assert s["reachable_pairs"] == 11239256
    assert s["distance_sum"] == 160839610183
    assert s["max_distance"] == 77403
    p = run(["path", REPO_DATA / "rome99.gr", "1", "3353", "--dist", "d.npy", "--via", "via.npy",
             "--json"], tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["length"] == 30305
    v = run(["verify", REPO_DATA / "rome99.gr", "d.npy"], tmp_path)
    assert v.returncode == 0, v.stdout + v.stderr


def test_c_elegans_checksum(tmp_path):
    graph = REPO_DATA / "c_elegans_hermaphrodite" / "edgelist.csv.gz"
    if not graph.exists():
        pytest.skip(f"{graph} is missing")
    r = run(["solve", graph, "--weight-column", "weight", "--json"], tmp_path, np_=3)
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["reachable_pairs"] == 219952 and s["distance_sum"] == 5039308
    assert s["max_distance"] == 378


def wait_for_manifest(ck, proc, timeout=120):
    end = time.time() + timeout
    while time.time() < end:
        if (ck / "manifest").exists():
            text = (ck / "manifest").read_text()
            done = int(text.split("rounds_done ")[1].split()[0])
            total = int(text.split("rounds_total ")[1].split()[0])
            if 1 <= done < total:
                return done
        if proc.poll() is not None:
            pytest.fail("the solve ended before a checkpoint: " + proc.stderr.read().decode())
        time.sleep(0.02)
    pytest.fail("no checkpoint appeared")


def kill_all(proc, ck):
    """SIGKILL to the launcher and every rank (ranks may sit in process groups of their own)."""
    os.killpg(proc.pid, signal.SIGKILL)
    subprocess.run(["pkill", "-KILL", "-f", str(ck)], check=False)
    proc.wait()
    time.sleep(0.2)


@pytest.fixture(scope="module")
def graph1200(tmp_path_factory):
    d = tmp_path_factory.mktemp("g1200")
    n = 1200
    write_course(d / "g.bin", n, random_edges(n, 90000, seed=3, high=1000))
    r = run(["solve", "g.bin", "-o", "ref.npy", "--paths", "ref_via.npy", "--backend", "cpu",
             "--block", "32", "--no-map-output", "-q"], d)
    assert r.returncode == 0, r.stderr
    return d


@pytest.mark.parametrize("ranks", [None, 4])
def test_sigkill_then_resume_gives_identical_output(graph1200, ranks):
    d = graph1200
    ck = d / f"ck{ranks}"
    common = ["solve", "g.bin", "-o", f"k{ranks}.npy", "--paths", f"kv{ranks}.npy", "--block",
              "32", "--threads", "1", "-q"] + (["--backend", "cpu"] if ranks is None else [])
    cmd = [CLI, *map(str, common), "--checkpoint", str(ck), "--checkpoint-every", "0"]
    if ranks:
        cmd = [MPIEXEC, "-np", str(ranks), "--oversubscribe", *cmd]
    proc = subprocess.Popen(cmd, cwd=d, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    wait_for_manifest(ck, proc)
    kill_all(proc, ck)
    assert not (d / f"k{ranks}.npy").exists()
    r = run([*common, "--resume", ck], d, np_=ranks)
    assert r.returncode == 0, r.stderr
    assert (d / f"k{ranks}.npy").read_bytes() == (d / "ref.npy").read_bytes()
    assert (d / f"kv{ranks}.npy").read_bytes() == (d / "ref_via.npy").read_bytes()
    assert not ck.exists()  # removed after the successful solve


def test_resume_refuses_other_input(graph1200, tmp_path):
    d = graph1200
    ck = tmp_path / "ck"
    args = ["--block", "32", "--threads", "1", "--checkpoint-every", "0", "-q"]
    proc = subprocess.Popen([MPIEXEC, "-np", "2", "--oversubscribe", CLI, "solve", "g.bin", "-o",
                             tmp_path / "x.npy", "--checkpoint", ck, *args], cwd=d, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    wait_for_manifest(ck, proc)
    kill_all(proc, ck)
    write_course(tmp_path / "other.bin", 1200, random_edges(1200, 900, seed=99))
    r = run(["solve", tmp_path / "other.bin", "-o", tmp_path / "y.npy", "--resume", ck, *args],
            d, np_=2)
    assert r.returncode == 2
    assert any("different input" in e for e in apsp_errors(r)), r.stderr
    assert not (tmp_path / "y.npy").exists()


def test_sigterm_stops_at_a_round_and_leaves_no_output(tmp_path):
    # Long enough (a few seconds on 2 cores) that mpirun's forwarded SIGTERM lands mid-solve.
    d = tmp_path
    write_course(d / "g.bin", 4000, random_edges(4000, 400000, seed=8, high=1000))
    ref = run(["solve", "g.bin", "-o", "ref.npy", "--backend", "cpu", "--no-map-output", "-q"], d)
    assert ref.returncode == 0, ref.stderr
    ck = d / "ck_term"
    proc = subprocess.Popen([MPIEXEC, "-np", "2", "--oversubscribe", CLI, "solve", "g.bin", "-o",
                             "t.npy", "--block", "64", "--threads", "1",
                             "--checkpoint", ck, "--checkpoint-every", "0", "-q"], cwd=d,
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for_manifest(ck, proc)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=120)
    assert proc.returncode != 0
    time.sleep(0.5)
    assert not list(d.glob("t.npy*"))
    # What was saved resumes to the uninterrupted result.
    r = run(["solve", "g.bin", "-o", "t.npy", "--block", "64", "--resume", ck, "-q"], d, np_=2)
    assert r.returncode == 0, r.stderr
    assert (d / "t.npy").read_bytes() == (d / "ref.npy").read_bytes()


def test_info_prints_grid_and_refuses_what_does_not_fit(tmp_path):
    r = run(["info", REPO_DATA / "rome99.gr", "--json"], tmp_path, np_=4)
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)["distributed"]
    assert j["grid"] == "2x2" and j["ranks"] == 4 and j["fits"]
    big = tmp_path / "big.gr"
    big.write_text("p sp 500000 1\na 1 2 5\n")  # 1 TB of distances on 2 ranks
    r = run(["info", big], tmp_path, np_=2)
    assert r.returncode == 5, r.stdout + r.stderr
    assert len(apsp_errors(r)) == 1


@pytest.mark.parametrize("ranks,args", [
    (2, ["--block", "32", "--threads", "1"]),
    (4, ["--grid", "1x4", "--no-lookahead", "--dtype", "int64", "--paths", "v.npy"]),
    (3, ["--grid", "3x1", "--lookahead", "--dtype", "auto"]),
])
def test_info_shows_the_plan_the_ranks_run(graph301, ranks, args):
    """Under mpirun `apsp info` prints the plan the distributed solve runs, field for field, in
    the words of one process's plan (issue 33)."""
    d, n, _ = graph301
    info_args = [a for a in args if a not in ("--lookahead", "--no-lookahead")]
    if "--paths" in info_args:
        info_args.remove("v.npy")
    r = run(["info", "g.bin", "--json", *info_args], d, np_=ranks)
    assert r.returncode == 0, r.stderr
    planned = json.loads(r.stdout)["plan"]
    assert planned == json.loads(r.stdout)["distributed"]
    s = run(["solve", "g.bin", "--json", *args], d, np_=ranks)
    assert s.returncode == 0, s.stderr
    ran = json.loads(s.stdout)["plan"]
    lookahead = {"--lookahead": True, "--no-lookahead": False}
    asked = [lookahead[a] for a in args if a in lookahead]
    assert ran.pop("lookahead") == (asked[0] if asked else "auto")
    assert planned.pop("lookahead") == "auto"
    ran["driver"] = ran["driver"].rsplit(", look-ahead", 1)[0]
    planned["driver"] = planned["driver"].rsplit(", look-ahead", 1)[0]
    assert planned == ran
    assert ran["ranks"] == ranks and ran["n"] == n and ran["driver"].startswith("distributed")
    assert ran["backend"] == "cpu" and ran["algorithm"] == "fw" and ran["fits"]


def test_grid_must_match_the_ranks(graph301):
    d, _, _ = graph301
    r = run(["solve", "g.bin", "--grid", "3x1", "-q"], d, np_=4)
    assert r.returncode == 2
    assert any("--grid 3x1" in e for e in apsp_errors(r)), r.stderr
    one = run(["solve", "g.bin", "--grid", "2x2", "-q"], d)
    assert one.returncode == 2


def test_what_one_process_refuses_is_refused_on_ranks_too(graph301, tmp_path):
    d, _, _ = graph301
    cases = [
        (["solve", "g.bin", "-o", tmp_path / "s.npy", "--paths", tmp_path / "s.npy"], "same file"),
        (["solve", "g.bin", "-o", tmp_path / "s.bin", "--dtype", "float32"], "int32 distances"),
        (["solve", "g.bin", "--map-output"], "--map-output"),
        (["path", "g.bin", "1", "3"], "no distributed mode"),
        (["verify", "g.bin", tmp_path / "s.npy"], "no distributed mode"),
        (["solve", "g.bin", "-o", "/proc/no/x.npy"], "/proc/no"),
        (["solve", "g.bin", "-o", "/proc/x.npy"], "/proc/x.npy"),  # refused before the read
    ]
    for args, fragment in cases:
        r = run(args, d, np_=2)
        assert r.returncode == 2, (args, r.stderr)
        errors = apsp_errors(r)
        assert len(errors) == 1 and fragment in errors[0], (args, r.stderr)
        assert "partial" not in errors[0], errors
    assert list(tmp_path.iterdir()) == []
    # --grid 1x1 is one process's grid.
    assert run(["solve", "g.bin", "--grid", "1x1", "-q", "--backend", "cpu"], d).returncode == 0


def test_an_empty_graph_writes_empty_outputs(tmp_path):
    (tmp_path / "g0.gr").write_text("p sp 0 0\n")
    one = run(["solve", "g0.gr", "-o", "one.npy", "--paths", "onev.npy", "--backend", "cpu",
               "-q"], tmp_path)
    assert one.returncode == 0, one.stderr
    r = run(["solve", "g0.gr", "-o", "d.npy", "--paths", "v.npy", "-q"], tmp_path, np_=2)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "d.npy").read_bytes() == (tmp_path / "one.npy").read_bytes()
    assert (tmp_path / "v.npy").read_bytes() == (tmp_path / "onev.npy").read_bytes()
    assert np.load(tmp_path / "d.npy").shape == (0, 0)


def test_negative_cycle_names_one_cycle_as_one_process_does(tmp_path):
    write_dimacs(tmp_path / "g.gr", 5, [(0, 1, 1), (1, 2, -3), (2, 3, 1), (3, 1, 1), (4, 0, 2)])
    one = run(["solve", "g.gr", "-o", "d.npy", "--algorithm", "fw", "--backend", "cpu"], tmp_path)
    r = run(["solve", "g.gr", "-o", "d.npy"], tmp_path, np_=2)
    assert r.returncode == 4 and one.returncode == 4
    assert apsp_errors(r) == apsp_errors(one), (r.stderr, one.stderr)
    assert "a cycle: 2 -> 3 -> 4 -> 2, total weight -1" in apsp_errors(r)[0]


def test_sigterm_to_one_rank_is_reported_alike_by_all(tmp_path):
    d = tmp_path
    write_course(d / "g.bin", 3000, random_edges(3000, 300000, seed=9, high=1000))
    proc = subprocess.Popen([MPIEXEC, "-np", "2", "--oversubscribe", CLI, "solve", "g.bin", "-o",
                             "t.npy", "--block", "64", "--threads", "1", "--progress"], cwd=d,
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # The first round's progress line (after the line that says where rank 0 runs): the rounds run.
    first = [proc.stderr.readline() for _ in range(2)]
    assert "apsp: rank 0 of 2 runs on CPUs" in first[0], first
    line = first[1]
    assert "apsp: round" in line, line + proc.stderr.read()
    ranks = subprocess.run(["pgrep", "-f", "-P", str(proc.pid), "solve g.bin"],
                           capture_output=True, text=True).stdout.split()
    assert len(ranks) == 2, ranks
    os.kill(int(max(ranks, key=int)), signal.SIGTERM)  # one rank only
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    errors = [l for l in err.splitlines() if l.startswith("apsp: error: ")]
    assert len(errors) == 1 and "interrupted (SIGTERM)" in errors[0], err
    assert not list(d.glob("t.npy*"))


def test_a_signal_during_the_writes_leaves_no_output(graph301, tmp_path):
    d, _, _ = graph301
    env = dict(ENV, APSP_TEST_PAUSE_IN_WRITE="2")  # both outputs are in their partial files
    proc = subprocess.Popen([MPIEXEC, "-np", "2", "--oversubscribe", CLI, "solve", "g.bin", "-o",
                             tmp_path / "w.npy", "--paths", tmp_path / "wv.npy", "-q"], cwd=d,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    assert "paused after output 2" in line, line + proc.stderr.read()
    # To the ranks themselves (signalled, mpirun exits 1 whatever its ranks return).
    ranks = subprocess.run(["pgrep", "-f", "-P", str(proc.pid), "solve g.bin"],
                           capture_output=True, text=True).stdout.split()
    assert len(ranks) == 2, ranks
    for pid in ranks:
        os.kill(int(pid), signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert any("interrupted (SIGTERM)" in l for l in err.splitlines()), err
    assert list(tmp_path.iterdir()) == []
