"""How `apsp` ends (cli/process_exit.hpp): after a GPU run, or with APSP_DETACHED_EXIT=1, a
helper that shares the process's memory takes the driver's teardown and the freeing of the
solve's data off the command's time. The outputs, the printed summary and the exit codes must be
the same either way, and the helper must end on its own once the tool is gone."""

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import assert_error
from graph_files import write_gr

EDGES = [(1, 2, 3), (2, 3, 4), (3, 4, 5), (4, 1, 6), (2, 5, 1), (5, 6, 2), (6, 7, 9)]


@pytest.fixture
def graph(tmp_path):
    return write_gr(tmp_path / "g.gr", 8, EDGES)


def env_with(**extra):
    env = dict(os.environ)
    env.update({k: str(v) for k, v in extra.items()})
    return env


def processes_running(token):
    """Live (not zombie) processes whose command line contains `token`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if token in cmdline and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("fmt", ["d.npy", "d.bin"])
def test_detached_exit_gives_the_same_outputs(apsp, graph, tmp_path, fmt):
    runs = {}
    for mode in ("0", "1"):
        out = f"{mode}{fmt}"
        r = apsp("solve", "g.gr", "-o", out, "--paths", f"via{mode}.npy", "--json",
                 env=env_with(APSP_DETACHED_EXIT=mode))
        assert r.rc == 0, r
        runs[mode] = json.loads(r.out)
    assert (tmp_path / f"0{fmt}").read_bytes() == (tmp_path / f"1{fmt}").read_bytes()
    assert np.array_equal(np.load(tmp_path / "via0.npy"), np.load(tmp_path / "via1.npy"))
    for key in ("n", "m", "reachable_pairs", "distance_sum", "max_distance"):
        assert runs["0"][key] == runs["1"][key], (key, runs)
    assert runs["1"]["distance_sum"] > 0


def test_detached_exit_keeps_the_summary_and_quiet_runs(apsp, graph, tmp_path):
    r = apsp("solve", "g.gr", env=env_with(APSP_DETACHED_EXIT=1))
    assert r.rc == 0 and "reachable" in r.out, r
    r = apsp("solve", "g.gr", "-o", "q.npy", "-q", env=env_with(APSP_DETACHED_EXIT=1))
    assert r.rc == 0 and r.out == "" and r.err == "", r
    assert np.load(tmp_path / "q.npy")[0, 3] == 12


def test_detached_exit_keeps_error_codes(apsp, tmp_path):
    (tmp_path / "bad.gr").write_text("p sp 3 1\na 1 2 x\n")
    r = apsp("solve", "bad.gr", "-o", "d.npy", env=env_with(APSP_DETACHED_EXIT=1))
    assert_error(r, 3, "bad.gr")
    assert not (tmp_path / "d.npy").exists()
    r = apsp("solve", "missing.gr", env=env_with(APSP_DETACHED_EXIT=1))
    assert r.rc == 3, r


def test_detached_exit_leaves_the_freeing_to_the_helper(apsp, graph):
    detached = apsp("solve", "g.gr", "-o", "d.npy", "-q",
                    env=env_with(APSP_DETACHED_EXIT=1, APSP_TRACE=1))
    kept = apsp("solve", "g.gr", "-o", "e.npy", "-q",
                env=env_with(APSP_DETACHED_EXIT=0, APSP_TRACE=1))
    assert detached.rc == 0 and kept.rc == 0, (detached, kept)
    assert "main: command done, exiting" in detached.err, detached
    assert "main: command done, exiting" in kept.err, kept
    assert "solve: data freed" not in detached.err, detached
    assert "solve: data freed" in kept.err, kept


def test_the_helper_ends_after_the_tool(apsp, graph, tmp_path):
    token = f"{tmp_path}/helper-{os.getpid()}.npy"
    r = apsp("solve", "g.gr", "-o", token, "-q", env=env_with(APSP_DETACHED_EXIT=1))
    assert r.rc == 0, r
    deadline = time.monotonic() + 10
    while processes_running(token) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert processes_running(token) == [], "the exit helper outlived the tool by 10 s"
    assert np.load(token)[3, 0] == 6


def test_gpu_run_detaches_by_default(apsp, graph):
    """On a GPU machine (run by hand there: the CLI suite carries the cpu label): a cuda solve
    leaves its teardown and freeing to the helper unless APSP_DETACHED_EXIT=0."""
    if not Path("/dev/nvidia0").exists():
        pytest.skip("no GPU device file")
    r = apsp("solve", "g.gr", "--backend", "cuda", "-o", "d.npy", "-q", env=env_with(APSP_TRACE=1))
    assert r.rc == 0, r
    assert "solve: data freed" not in r.err, r
    r = apsp("solve", "g.gr", "--backend", "cuda", "-o", "e.npy", "-q",
             env=env_with(APSP_TRACE=1, APSP_DETACHED_EXIT=0))
    assert r.rc == 0 and "solve: data freed" in r.err, r
