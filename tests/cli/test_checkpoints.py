"""`apsp solve --checkpoint` tells its user what checkpoints cost before the solve: the faster
engine auto gives up for them (with both estimates, on stderr and in --json), a checkpoint too
large for its file system (exit 5 with both sizes); while it runs, a save that fails is a
warning and the solve goes on (a SIGINT then still exits 130); no empty directory stays."""

import json
import signal
import subprocess
import time

import numpy as np
import pytest

from conftest import small_file_system
from graph_files import random_edges, write_gr

TIMEOUT = 120


def warnings(r):
    return [line for line in r.err.splitlines() if line.startswith("apsp: warning: ")]


def test_auto_says_what_it_gives_up_for_checkpoints(apsp, tmp_path):
    # A sparse random graph: without checkpoints auto runs Johnson (test_algorithm.py), which
    # saves none; with them it runs Floyd-Warshall and says so, with both estimates.
    rng = np.random.default_rng(7)
    write_gr(tmp_path / "sparse.gr", 1500, random_edges(rng, 1500, 6000))
    r = apsp("solve", "sparse.gr", "--backend", "cpu", "--json", "-o", "plain.npy")
    assert r.rc == 0, r
    chosen = json.loads(r.out)["algorithm"]
    assert chosen != "fw", r
    assert warnings(r) == [], r
    r = apsp("solve", "sparse.gr", "--backend", "cpu", "--json", "-o", "ck.npy",
             "--checkpoint", "ck")
    assert r.rc == 0, r
    s = json.loads(r.out)
    assert s["algorithm"] == "fw", s
    displaced = s["plan"]["checkpoint_displaced"]
    assert displaced["algorithm"] == chosen and displaced["backend"] == "cpu", s
    assert 0 < displaced["estimated_seconds"] < displaced["fw_estimated_seconds"], s
    (line,) = warnings(r)
    assert line.startswith("apsp: warning: --checkpoint: auto runs Floyd-Warshall on cpu"), r
    assert "which saves no checkpoints" in line, r
    for seconds in (displaced["estimated_seconds"], displaced["fw_estimated_seconds"]):
        assert f"~{seconds:.3g} s" in line, (seconds, line)
    np.testing.assert_array_equal(np.load(tmp_path / "plain.npy"), np.load(tmp_path / "ck.npy"))
    # Asked for by name, or where auto keeps Floyd-Warshall anyway: nothing to say.
    r = apsp("solve", "sparse.gr", "--backend", "cpu", "--algorithm", "fw", "--json",
             "--checkpoint", "ck")
    assert r.rc == 0 and warnings(r) == [], r
    assert "checkpoint_displaced" not in json.loads(r.out)["plan"], r
    assert not (tmp_path / "ck").exists()


def test_a_checkpoint_larger_than_the_free_space_is_refused_first(apsp_bin, tmp_path):
    # n = 600 int32 with paths: 600 * 600 * 8 bytes = 2.7 MiB per checkpoint, on 1 MiB.
    prefix = small_file_system(tmp_path, "1m")
    rng = np.random.default_rng(3)
    write_gr(tmp_path / "g.gr", 600, random_edges(rng, 600, 6000, 1, 50))
    r = subprocess.run([*prefix, apsp_bin, "solve", "g.gr", "-o", "d.npy", "--paths", "v.npy",
                        "--algorithm", "fw", "--checkpoint", "small/ck"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode == 5, r
    (line,) = r.stderr.splitlines()
    size = (600 * 600 * 8 + 64 + 4096) / 2**20  # the values, a file header, the manifest
    assert line.startswith("apsp: error: --checkpoint small/ck: a checkpoint of this solve "
                           f"takes {size:.1f} MiB (n = 600, int32 distances and int32 paths)"), line
    assert "has 1.0 MiB free" in line, line
    assert not (tmp_path / "d.npy").exists()


def test_a_failed_save_is_a_warning_and_the_solve_goes_on(apsp_bin, tmp_path):
    # n = 400 int32: 625 KiB per checkpoint, on 1 MiB: the first save fits, the second (written
    # beside it) does not, every round saves (--checkpoint-every 0).
    prefix = small_file_system(tmp_path, "1m")
    rng = np.random.default_rng(4)
    write_gr(tmp_path / "g.gr", 400, random_edges(rng, 400, 4000, 1, 50))
    args = ["solve", "g.gr", "--algorithm", "fw", "--backend", "cpu", "--block", "32",
            "--checkpoint-every", "0"]
    r = subprocess.run([*prefix, apsp_bin, *args, "-o", "d.npy", "--checkpoint", "small/ck"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode == 0, r
    lines = [line for line in r.stderr.splitlines() if line.startswith("apsp: warning: ")]
    assert len(lines) == 2, r.stderr
    assert "the first save fits, but a later one" in lines[0], lines
    assert lines[1].startswith("apsp: warning: the checkpoint after round 2 was not saved"), lines
    assert "the solve goes on" in lines[1], lines
    r2 = subprocess.run([apsp_bin, *args, "-o", "plain.npy"], cwd=tmp_path, capture_output=True,
                        text=True, timeout=TIMEOUT)
    assert r2.returncode == 0, r2
    np.testing.assert_array_equal(np.load(tmp_path / "d.npy"), np.load(tmp_path / "plain.npy"))


def test_sigint_after_a_failed_save_exits_130(apsp_bin, tmp_path):
    prefix = small_file_system(tmp_path, "1m")
    rng = np.random.default_rng(5)
    n = 400  # 625 KiB per checkpoint: the first save fits, the later ones do not
    write_gr(tmp_path / "g.gr", n, random_edges(rng, n, 4000, 1, 50))
    # One thread and small blocks: 25 rounds, long enough to be interrupted after round 2.
    proc = subprocess.Popen([*prefix, apsp_bin, "solve", "g.gr", "-o", "d.npy", "--algorithm",
                             "fw", "--backend", "cpu", "--block", "16", "--threads", "1",
                             "--checkpoint-every", "0", "--checkpoint", "small/ck",
                             "--progress"],
                            cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    seen = []
    deadline = time.monotonic() + TIMEOUT
    for line in proc.stderr:
        seen.append(line)
        if "was not saved" in line:
            break
        assert time.monotonic() < deadline
    else:
        pytest.fail("no failed save was reported: " + "".join(seen))
    proc.send_signal(signal.SIGINT)
    rest = proc.stderr.read()
    proc.wait(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the solve ended before the interrupt reached it")
    assert proc.returncode == 130, "".join(seen) + rest
    assert "apsp: error: interrupted (SIGINT)" in rest, rest
    assert not (tmp_path / "d.npy").exists()


def test_no_checkpoint_directory_is_left_when_nothing_was_saved(apsp, tmp_path):
    # A solve that ends before its first checkpoint is due makes no directory.
    rng = np.random.default_rng(6)
    write_gr(tmp_path / "g.gr", 200, random_edges(rng, 200, 2000, 1, 50))
    r = apsp("solve", "g.gr", "-o", "d.npy", "--algorithm", "fw", "--checkpoint", "ck/inner",
             "-q")
    assert r.rc == 0, r
    assert not (tmp_path / "ck").exists()
    # Nor does a failed one (a negative cycle) whose first save never came.
    write_gr(tmp_path / "neg.gr", 3, [(1, 2, -5), (2, 1, 1)])
    r = apsp("solve", "neg.gr", "--algorithm", "fw", "--checkpoint", "ck2")
    assert r.rc == 4, r
    assert not (tmp_path / "ck2").exists()
