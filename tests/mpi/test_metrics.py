"""`apsp metrics` under mpirun (issue 36): cpu ranks on 1-4 processes and grids 2x2, 1x4, 4x1
each reduce their own tiles, an MPI reduction combines them, and the first rank writes what
one process writes. Every metric is compared with the one-process reference back end's."""

import json
import subprocess

import numpy as np
import pytest

from mpi_env import CLI, ENV, MPIEXEC, need_binary


@pytest.fixture(scope="module", autouse=True)
def binary():
    need_binary()


def run(args, cwd, np_=None):
    cmd = [CLI, *map(str, args)]
    if np_ is not None:
        cmd = [MPIEXEC, "-np", str(np_), "--oversubscribe", *cmd]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300, env=ENV)


def write_graph(path, n, edges, weight=str):
    lines = [f"p sp {n} {len(edges)}"] + [f"a {u + 1} {v + 1} {weight(w)}" for u, v, w in edges]
    path.write_text("\n".join(lines) + "\n")


def random_graph(n, m, seed, negative=False):
    """Directed, not strongly connected (the last 5 vertices have no in-edges from the rest and
    vertex n-1 no edges at all), with parallel edges and self-loops."""
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n - 5, m)
    dst = rng.integers(0, n - 5, m)
    w = rng.integers(1, 50, m)
    if negative:  # w + p[u] - p[v]: negative weights, no negative cycle
        p = rng.integers(0, 30, n)
        w = w + p[src] - p[dst]
    edges = [(int(a), int(b), int(c)) for a, b, c in zip(src, dst, w)]
    edges += [(n - 5 + k, int(rng.integers(0, n - 5)), 7) for k in range(4)]
    return edges


PER_VERTEX = ["out-eccentricity", "in-eccentricity", "closeness", "harmonic", "reach-out",
              "reach-in"]
GRAPH_LEVEL = ["diameter", "radius", "average-path-length", "global-efficiency"]


def metrics(cwd, graph, out, *extra, np_=None):
    r = run(["metrics", graph, "-o", out, "-q", *extra], cwd, np_=np_)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads((cwd / out).read_text())


def assert_same_metrics(got, ref):
    assert got["n"] == ref["n"] and got["vertices"] == ref["vertices"]
    assert got["metrics"] == ref["metrics"]
    for name in PER_VERTEX:
        assert np.allclose(got[name], ref[name], rtol=1e-12, atol=0), name
    for name in ["out-eccentricity", "in-eccentricity", "reach-out", "reach-in"]:
        assert got[name] == ref[name], name  # maxima and counts are exact
    for name in GRAPH_LEVEL:
        assert got[name] == pytest.approx(ref[name], rel=1e-12, abs=0), name
    assert got["reachable-pairs"] == ref["reachable-pairs"]
    assert got["histogram"] == ref["histogram"]


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    d = tmp_path_factory.mktemp("metrics")
    n = 61  # 8 tiles of 8 with a partial last one
    write_graph(d / "int.gr", n, random_graph(n, 300, seed=5))
    write_graph(d / "neg.gr", n, random_graph(n, 300, seed=6, negative=True))
    write_graph(d / "frac.gr", n, random_graph(n, 250, seed=7), weight=lambda w: f"{w / 8}")
    refs = {}
    for name, dtype in [("int.gr", "int32"), ("neg.gr", "int64"), ("frac.gr", "float64")]:
        refs[name] = metrics(d, name, f"ref_{name}.json", "--backend", "reference",
                             "--dtype", dtype)
    return d, refs


@pytest.mark.parametrize("ranks,grid", [(1, None), (2, None), (3, None), (4, "2x2"),
                                        (4, "1x4"), (4, "4x1")])
def test_every_metric_matches_the_reference(graphs, ranks, grid):
    d, refs = graphs
    extra = ["--backend", "cpu", "--block", "8"] + (["--grid", grid] if grid else [])
    for name, dtype in [("int.gr", "int32"), ("neg.gr", "int64"), ("frac.gr", "float64")]:
        out = f"m{ranks}{grid}_{name}.json"
        got = metrics(d, name, out, "--dtype", dtype, *extra, np_=ranks)
        assert_same_metrics(got, refs[name])


def test_runs_on_ranks_and_writes_once(graphs):
    d, refs = graphs
    r = run(["metrics", "int.gr", "--json", "--backend", "cpu", "--block", "8", "-o", "r.csv",
             "--metrics", "closeness,diameter"], d, np_=3)
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)  # one JSON document: only the first rank prints
    assert j["driver"].startswith("distributed, 3 ranks (grid 1x3)"), j
    assert j["diameter"] == refs["int.gr"]["diameter"]
    rows = (d / "r.csv").read_text().splitlines()
    assert rows[0] == "vertex,closeness" and len(rows) == 1 + refs["int.gr"]["n"]
    assert not list(d.glob("r.csv?*"))


def test_a_negative_cycle_is_reported_as_one_process_reports_it(tmp_path):
    write_graph(tmp_path / "cyc.gr", 6, [(0, 1, 2), (1, 2, -5), (2, 0, 1), (3, 4, 1)])
    one = run(["metrics", "cyc.gr", "--backend", "cpu"], tmp_path)
    many = run(["metrics", "cyc.gr", "--backend", "cpu"], tmp_path, np_=2)
    assert one.returncode == many.returncode != 0
    err = [l for l in many.stderr.splitlines() if l.startswith("apsp: error: ")]
    assert len(err) == 1 and "negative cycle" in err[0], many.stderr


@pytest.fixture(scope="module")
def gpu_graphs(tmp_path_factory):
    """Graphs of several 128-wide tiles for GPU ranks, or a skip where no GPU solves."""
    d = tmp_path_factory.mktemp("gpu_metrics")
    n = 300  # tiles of 128: 3 tile rows and columns, the last one partial
    write_graph(d / "int.gr", n, random_graph(n, 2000, seed=8))
    write_graph(d / "frac.gr", n, random_graph(n, 2000, seed=9), weight=lambda w: f"{w / 8}")
    probe = run(["metrics", "int.gr", "--backend", "cuda", "-q", "-o", "probe.json"], d)
    if probe.returncode != 0:
        pytest.skip("no GPU here (apsp metrics --backend cuda exited "
                    f"{probe.returncode}): GPU ranks are tested on GPU machines")
    refs = {name: metrics(d, name, f"ref_{name}.json", "--backend", "reference", "--dtype", dtype)
            for name, dtype in [("int.gr", "int32"), ("frac.gr", "float32")]}
    return d, refs


@pytest.mark.parametrize("ranks,grid", [(2, "1x2"), (2, "2x1"), (4, "2x2"), (3, "1x3")])
def test_gpu_ranks_reduce_their_tiles_on_the_devices(gpu_graphs, ranks, grid):
    """GPU ranks reduce their tiles where they are (each rank holds parts of rows and columns
    of the block-cyclic layout); every metric equals the reference's."""
    d, refs = gpu_graphs
    for name, dtype in [("int.gr", "int32"), ("frac.gr", "float32")]:
        out = f"g{ranks}{grid}_{name}.json"
        got = metrics(d, name, out, "--dtype", dtype, "--backend", "cuda", "--block", "128",
                      "--grid", grid, np_=ranks)
        # Eighths below 2^21 are exact in float32: its distances are the reference's too.
        assert_same_metrics(got, refs[name])
    r = run(["metrics", "int.gr", "--backend", "cuda", "--block", "128", "--grid", grid], d,
            np_=ranks)
    assert r.returncode == 0, r.stderr
    assert "reduced on the GPUs" in r.stdout, r.stdout
