"""Ctrl-C cancels with exit 130 and leaves no output; progress only on a terminal."""

import os
import pty
import signal
import subprocess
import time

import numpy as np

from graph_files import random_edges, write_gr


def test_sigint_cancels_with_130_and_no_output(apsp_bin, tmp_path):
    rng = np.random.default_rng(9)
    n = 1500  # the one-thread reference solver needs seconds for this
    write_gr(tmp_path / "big.gr", n, random_edges(rng, n, 6 * n, 1, 100))
    proc = subprocess.Popen([apsp_bin, "solve", "big.gr", "-o", "d.npy", "--paths", "v.npy",
                             "--backend", "reference"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(0.6)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert time.monotonic() - t0 < 5, "cancellation should stop the solve within a round"
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("apsp: error: ") and "interrupt" in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.gr"]


def run_on_pty(args, cwd):
    """Runs with stderr on a pseudo-terminal; returns (rc, what it drew there)."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO once the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        return proc.wait(timeout=60), b"".join(chunks).decode(errors="replace")
    finally:
        os.close(master)


def test_progress_only_on_a_terminal_and_not_with_quiet(apsp_bin, apsp, tmp_path):
    rng = np.random.default_rng(4)
    write_gr(tmp_path / "g.gr", 200, random_edges(rng, 200, 800))
    rc, drawn = run_on_pty([apsp_bin, "solve", "g.gr"], tmp_path)
    assert rc == 0 and "round" in drawn and "updates/s" in drawn and "ETA" in drawn, drawn
    rc, drawn = run_on_pty([apsp_bin, "solve", "g.gr", "--quiet"], tmp_path)
    assert rc == 0 and drawn == "", drawn
    piped = apsp("solve", "g.gr")
    assert piped.rc == 0 and piped.err == "", piped


def test_progress_flag_logs_lines_when_not_a_terminal(apsp, tmp_path):
    rng = np.random.default_rng(5)
    write_gr(tmp_path / "g.gr", 300, random_edges(rng, 300, 1200))
    r = apsp("solve", "g.gr", "--progress", "--backend", "reference")
    assert r.rc == 0, r
    lines = r.err.splitlines()
    assert lines, r
    # Plain lines for a log (no carriage returns or escapes); the last says the solve finished.
    assert "\r" not in r.err and "\033" not in r.err, r
    assert all(line.startswith("apsp: round ") and "elapsed" in line for line in lines), r
    assert lines[-1].startswith("apsp: round 300/300 (100%)"), r
    r = apsp("solve", "g.gr", "--progress", "--quiet")
    assert r.rc == 2 and "excludes" in r.err, r
