"""Feedback that tells the truth: a sampled verify says so, bad counts are refused in words,
options the run will not honour are warned about, an interrupt with --checkpoint says what was
saved and how to go on, and the ETA waits for the pace of the rounds after the set-up."""

import json
import os
import re
import shlex
import signal
import subprocess
import time

import numpy as np
import pytest

from conftest import assert_error
from graph_files import random_edges, write_gr
from test_signals import run_on_pty

TIMEOUT = 180


def warnings(r):
    return [line for line in r.err.splitlines() if line.startswith("apsp: warning: ")]


@pytest.fixture
def small(tmp_path):
    rng = np.random.default_rng(21)
    write_gr(tmp_path / "g.gr", 60, random_edges(rng, 60, 240, low=1, high=50))
    return "g.gr"


def test_a_sampled_verify_says_that_it_sampled_and_how_to_check_all(apsp, tmp_path, small):
    assert apsp("solve", small, "-o", "d.npy", "-q").rc == 0
    d = np.load(tmp_path / "d.npy")
    sampled = apsp("verify", small, "d.npy", "--sources", "4", "--seed", "3")
    assert sampled.rc == 0 and sampled.out.startswith("OK: 4 of 60 rows"), sampled
    assert "--sources all" in sampled.out and "56" in sampled.out, sampled
    # A wrong entry in a row outside the sample passes the sample (which says so) ...
    checked = {0}
    for row in range(1, 60):
        bad = d.copy()
        bad[row, (row + 1) % 60] += 1
        np.save(tmp_path / "bad.npy", bad)
        r = apsp("verify", small, "bad.npy", "--sources", "4", "--seed", "3")
        if r.rc == 7:
            checked.add(row)
            continue
        assert r.rc == 0 and "were not" in r.out, r
        # ... and --sources all finds it.
        assert_error(apsp("verify", small, "bad.npy", "--sources", "all"), 7, "verification failed",
                     f"d[{row + 1}][{(row + 1) % 60 + 1}]")
        break
    else:
        pytest.fail(f"every row was in a sample of 4: {sorted(checked)}")
    full = apsp("verify", small, "d.npy", "--sources", "all")
    assert full.rc == 0 and full.out.startswith("OK: 60 of 60 rows"), full
    assert "--sources all" not in full.out and "not" not in full.out, full


@pytest.mark.parametrize("value", ["0", "-3", "al", "1.5"])
def test_verify_refuses_a_bad_source_count(apsp, small, value):
    assert apsp("solve", small, "-o", "d.npy", "-q").rc == 0
    assert_error(apsp("verify", small, "d.npy", "--sources", value), 2, value, "all")


@pytest.mark.parametrize("option, value", [("--threads", "-1"), ("--block", "-1"),
                                           ("--threads", "2.5"),
                                           ("--checkpoint-every", "-1")])
def test_a_negative_count_is_refused_in_words(apsp, small, option, value):
    r = apsp("solve", small, option, value)
    assert_error(r, 2, option, f"'{value}'", ">= 0")
    # No range up to the largest double (a 300-digit number) in the message.
    assert not any(len(word) > 20 and word.isdigit() for word in r.err.split()), r
    assert len(r.err) < 200, r


def test_more_threads_than_cores_is_warned_about_once(apsp, small):
    cores = len(os.sched_getaffinity(0))
    r = apsp("solve", small, "--backend", "cpu", "--threads", str(cores + 1), "-q")
    assert r.rc == 0, r
    lines = warnings(r)
    assert len(lines) == 1 and f"--threads {cores + 1}" in lines[0], r
    assert f"{cores} cores" in lines[0], r
    r = apsp("solve", small, "--backend", "cpu", "--threads", str(cores), "-q")
    assert r.rc == 0 and warnings(r) == [], r


def cuda_usable(apsp, graph):
    info = json.loads(apsp("info", graph, "--json").out)
    return any(p["backend"] == "cuda" and p["available"] for p in info["plans"])


@pytest.mark.parametrize("gpu_options", [["--gpu-memory", "1G"], ["--devices", "0"],
                                         ["--gpu-memory", "1G", "--devices", "0"]])
def test_gpu_options_the_run_cannot_honour_are_warned_about(apsp, small, gpu_options):
    names = [o for o in gpu_options if o.startswith("--")]
    # With a host back end named, whatever the machine.
    r = apsp("solve", small, "--backend", "cpu", *gpu_options, "-q")
    assert r.rc == 0, r
    lines = warnings(r)
    assert len(lines) == len(names), r
    for name, line in zip(names, lines):
        assert line.startswith(f"apsp: warning: {name} is ignored") and "--backend cpu" in line, r
    r = apsp("path", small, "1", "2", "--backend", "cpu", *gpu_options)
    assert r.rc == 0 and len(warnings(r)) == len(names), r
    # Without a GPU the automatic back end cannot use them either.
    if cuda_usable(apsp, small):
        return
    r = apsp("solve", small, *gpu_options, "-q")
    assert r.rc == 0, r
    lines = warnings(r)
    assert len(lines) == len(names) and all("no GPU" in line for line in lines), r


def test_no_warning_without_gpu_options(apsp, small):
    r = apsp("solve", small, "-q")
    assert r.rc == 0 and warnings(r) == [], r


def run_until_checkpointed(apsp_bin, tmp_path, args, ck):
    """Starts `apsp *args`, interrupts it once a checkpoint is in `ck`; returns (rc, stderr)."""
    proc = subprocess.Popen([apsp_bin, *args], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + TIMEOUT
    while not (tmp_path / ck / "manifest").exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err


def test_an_interrupt_with_checkpoint_names_the_round_and_the_resume_command(apsp_bin, apsp,
                                                                            tmp_path):
    rng = np.random.default_rng(5)
    n = 1000  # 63 rounds of 16, each saved: long enough to be interrupted
    write_gr(tmp_path / "my graph.gr", n, random_edges(rng, n, 20000, 1, 90))
    args = ["solve", "my graph.gr", "-o", "d.npy", "--backend", "cpu", "--algorithm", "fw",
            "--block", "16", "--threads", "1", "--checkpoint-every", "0", "--checkpoint", "ck"]
    rc, err = run_until_checkpointed(apsp_bin, tmp_path, args, "ck")
    if rc == 0:
        pytest.skip("the solve ended before the interrupt reached it")
    assert rc == 130, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("apsp: error: interrupted (SIGINT)"), err
    manifest = dict(line.split(" ", 1) for line in
                    (tmp_path / "ck" / "manifest").read_text().splitlines())
    done, total = manifest["rounds_done"], manifest["rounds_total"]
    assert f"the checkpoint in ck holds {done} of {total} rounds" in lines[0], err
    command = lines[0].split("continue with: ", 1)[1]
    words = shlex.split(command)
    assert words[0] == apsp_bin and "'my graph.gr'" in command, command
    assert "--checkpoint" not in words and words[-2:] == ["--resume", "ck"], command
    # The command it gives finishes the solve, as an uninterrupted one would.
    r = subprocess.run(words, cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode == 0, r.stderr
    resumed = np.load(tmp_path / "d.npy")
    assert apsp("solve", "my graph.gr", "-o", "fresh.npy", "--backend", "cpu", "-q").rc == 0
    assert np.array_equal(resumed, np.load(tmp_path / "fresh.npy"))
    assert not (tmp_path / "ck").exists()


def test_the_first_eta_waits_for_the_pace_and_is_within_2x_of_the_solve(apsp, tmp_path):
    # One thread, 47 rounds of 128: a solve of a few seconds (n^3 = 2.2e11 updates), logged
    # every 2 s.
    rng = np.random.default_rng(22)
    n = 6000
    write_gr(tmp_path / "g.gr", n, random_edges(rng, n, 4 * n, low=1, high=50))
    r = apsp("solve", "g.gr", "--progress", "--backend", "cpu", "--algorithm", "fw", "--block",
             "128", "--threads", "1", timeout=TIMEOUT)
    assert r.rc == 0, r
    lines = [line for line in r.err.splitlines() if line.startswith("apsp: round ")]
    # The first line (round 1, its time mostly set-up) has no pace to go by yet.
    assert lines[0].startswith("apsp: round 1/47 ") and "ETA --" in lines[0], r
    timed = [(float(m.group(1)), float(m.group(2))) for m in
             (re.search(r"ETA ([\d.]+) s  elapsed ([\d.]+) s", line) for line in lines[1:-1]) if m]
    if not timed:
        pytest.skip("the solve ended within one log interval: " + r.err)
    total = float(re.search(r"elapsed ([\d.]+) s", lines[-1]).group(1))
    eta, at = timed[0]
    assert total / 2 <= at + eta <= 2 * total, (lines, total)


def test_a_terminal_gets_an_eta_from_the_later_rounds(apsp_bin, tmp_path):
    rng = np.random.default_rng(7)
    n = 900  # the one-thread reference solver takes about a second: several redraws
    write_gr(tmp_path / "g.gr", n, random_edges(rng, n, 4 * n))
    rc, drawn = run_on_pty([apsp_bin, "solve", "g.gr", "--backend", "reference"], tmp_path)
    assert rc == 0, drawn
    frames = [re.search(r"round (\d+)/(\d+) .*ETA (--|[\d.]+ s)", f) for f in drawn.split("\r")]
    frames = [f for f in frames if f]
    assert frames and frames[0].group(3) == "--", drawn
    later = [f.group(3) for f in frames[1:] if f.group(1) != f.group(2)]
    if not later:
        pytest.skip("the solve ended within one redraw")
    assert all(eta.endswith(" s") and float(eta.split()[0]) < 600 for eta in later), drawn
