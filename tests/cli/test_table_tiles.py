"""`apsp solve --sources S --targets T -o FILE.npy` for a table larger than the host memory
budget (--host-memory): planned in tiles of sources, written tile by tile, equal to SciPy's
Dijkstra; --checkpoint keeps the tiles done through a SIGINT and --resume makes only the rest;
without -o .npy such a table is refused (exit 5), and --checkpoint needs -o .npy (exit 2)."""

import json
import signal
import subprocess
import time

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from conftest import assert_error
from graph_files import grid_arcs

INT32_INF = 1073741823


def road_grid(tmp_path, side, seed):
    """A side x side grid (both arcs of each edge, weights 1..30) in g.gr, and SciPy's graph."""
    u, v, w = grid_arcs(side, np.random.default_rng(seed), 1, 30)
    n = side * side
    with open(tmp_path / "g.gr", "w") as f:
        f.write(f"p sp {n} {u.size}\n")
        np.savetxt(f, np.column_stack([u, v, w]), fmt="a %d %d %d")
    return n, coo_matrix((w.astype(float), (u - 1, v - 1)), shape=(n, n)).tocsr()


def ids_file(path, ids):
    path.write_text("\n".join(str(i + 1) for i in ids) + "\n")
    return "@" + path.name


def expected(csr, sources, targets):
    d = dijkstra(csr, indices=sources)[:, targets]
    return d


def loaded(path):
    got = np.load(path).astype(float)
    got[got == INT32_INF] = np.inf
    return got


def budget_for(apsp, args, rows_a_tile, cols):
    """A --host-memory that holds the plan's working memory and about `rows_a_tile` rows."""
    r = apsp("info", *args, "--json")
    assert r.rc == 0, r
    working = json.loads(r.out)["block"]["plan"]["working_host_bytes"]
    return str(working + rows_a_tile * cols * 4)


@pytest.mark.parametrize("engine", ["auto", "johnson"])
def test_a_table_above_the_budget_is_written_in_tiles(apsp, tmp_path, engine):
    n, csr = road_grid(tmp_path, 90, 3)  # 8,100 vertices: road-like, the hierarchy under auto
    rng = np.random.default_rng(4)
    sources = rng.integers(0, n, 400)
    targets = rng.integers(0, n, 300)
    args = ["g.gr", "--sources", ids_file(tmp_path / "s.txt", sources), "--targets",
            ids_file(tmp_path / "t.txt", targets), "--threads", "2", "--algorithm", engine]
    budget = budget_for(apsp, args, 90, len(targets))
    r = apsp("info", *args, "--host-memory", budget, "--json")
    plan = json.loads(r.out)["block"]["plan"]
    assert plan["tiled"] and plan["fits"] and plan["block"] < len(sources), plan
    r = apsp("solve", *args, "--host-memory", budget, "-o", "d.npy", "--json")
    assert r.rc == 0, r
    report = json.loads(r.out)
    assert report["tiles"] == -(-len(sources) // report["tile_rows"]) and report["tiles"] > 2
    want = expected(csr, sources, targets)
    np.testing.assert_array_equal(loaded(tmp_path / "d.npy"), want)
    off_diagonal = sources[:, None] != targets[None, :]
    assert report["pairs"] == off_diagonal.sum()
    assert report["reachable_pairs"] == (np.isfinite(want) & off_diagonal).sum()
    # Without an .npy output the same table is refused before the solve.
    assert_error(apsp("solve", *args, "--host-memory", budget, "-o", "d.csv"), 5, "-o FILE.npy")
    assert_error(apsp("solve", *args, "--host-memory", budget), 5, "-o FILE.npy")


def test_a_checkpointed_table_resumes_where_it_stopped(apsp, apsp_bin, tmp_path):
    n, csr = road_grid(tmp_path, 160, 5)  # 25,600 vertices
    rng = np.random.default_rng(6)
    sources = rng.integers(0, n, 600)
    targets = rng.integers(0, n, 250)
    args = ["g.gr", "--sources", ids_file(tmp_path / "s.txt", sources), "--targets",
            ids_file(tmp_path / "t.txt", targets), "--threads", "1", "--algorithm", "johnson"]
    budget = budget_for(apsp, args, 10, len(targets))
    run = args + ["--host-memory", budget, "-o", "d.npy", "--checkpoint", "ck",
                  "--checkpoint-every", "0", "--json"]
    proc = subprocess.Popen([apsp_bin, "solve", *run], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    manifest = tmp_path / "ck" / "table.manifest"
    deadline = time.monotonic() + 60
    while not manifest.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert (tmp_path / "d.npy.apsp-table-partial").exists() and manifest.exists()
    assert not (tmp_path / "d.npy").exists()
    done = [line for line in manifest.read_text().splitlines() if line.startswith("tile ")]
    assert done
    # --resume makes the other tiles only, and the table is Dijkstra's.
    r = apsp("solve", *args, "--host-memory", budget, "-o", "d.npy", "--resume", "ck", "--json")
    assert r.rc == 0, r
    report = json.loads(r.out)
    assert report["resumed_tiles"] == len(done) and report["resumed_tiles"] < report["tiles"]
    np.testing.assert_array_equal(loaded(tmp_path / "d.npy"), expected(csr, sources, targets))
    assert not manifest.exists() and not (tmp_path / "d.npy.apsp-table-partial").exists()
    # Another table refuses the checkpoint.
    r = apsp("solve", *args, "--host-memory", budget, "-o", "e.npy", "--checkpoint", "ck2",
             "--checkpoint-every", "0")
    assert r.rc == 0, r
    other = ["g.gr", "--sources", "1,2", "--targets", "3", "-o", "f.npy", "--resume", "ck2"]
    assert_error(apsp("solve", *other), 3, "no table checkpoint")


def test_checkpoints_need_an_npy_output_before_the_read(apsp, tmp_path):
    # The input does not exist: the refusal must come before it is read.
    for out in ["d.csv", None]:
        r = apsp("solve", "missing.gr", "--sources", "1,2", "--targets", "3",
                 *(["-o", out] if out else []), "--checkpoint", "ck")
        assert_error(r, 2, "--checkpoint", "-o FILE.npy")
    assert_error(apsp("solve", "missing.gr", "--sources", "1", "-o", "d.npy", "--resume", "ck",
                      "--second-weight", "length", "--second-output", "l.npy"), 2, "--resume")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_prepared_hierarchys_table_in_tiles(apsp, tmp_path):
    n, csr = road_grid(tmp_path, 70, 8)
    rng = np.random.default_rng(9)
    sources = rng.integers(0, n, 500)
    targets = rng.integers(0, n, 200)
    assert apsp("prepare", "g.gr", "-o", "g.ch").rc == 0
    args = ["g.gr", "--sources", ids_file(tmp_path / "s.txt", sources), "--targets",
            ids_file(tmp_path / "t.txt", targets), "--hierarchy", "g.ch", "--threads", "2",
            "-o", "d.npy", "--json"]
    # The sweeps' lanes (16 int32 a vertex a thread) and the slot map, and about 60 rows.
    budget = n * (4 + 16 * 4 * 2) + 60 * len(targets) * 4
    r = apsp("solve", *args, "--host-memory", str(budget))
    assert r.rc == 0, r
    report = json.loads(r.out)
    assert report["hierarchy"] == "g.ch" and report["tiles"] > 5, report
    want = expected(csr, sources, targets)
    np.testing.assert_array_equal(loaded(tmp_path / "d.npy"), want)
    # With --checkpoint (the table fits: tiles all the same), and a changed graph refused (8).
    r = apsp("solve", *args, "--checkpoint", "ck")
    assert r.rc == 0 and json.loads(r.out)["tiles"] >= 1, r
    np.testing.assert_array_equal(loaded(tmp_path / "d.npy"), want)
    road_grid(tmp_path, 70, 10)  # other weights
    assert_error(apsp("solve", *args, "--checkpoint", "ck"), 8, "g.ch")
