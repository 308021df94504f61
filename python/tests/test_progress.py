"""Progress callbacks, cancel, and Ctrl-C (SIGINT) during a solve with the GIL released."""

import io
import os
import re
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import apsp
from conftest import random_dense


def test_progress_reports_every_round():
    calls = []
    a = random_dense(200, 0.05, 101)
    dist = apsp.floyd_warshall(a, progress=lambda *args: calls.append(args))
    assert np.isfinite(dist).any()
    assert len(calls) >= 2
    done = [c[0] for c in calls]
    total = {c[1] for c in calls}
    assert len(total) == 1 and done[-1] == total.pop()
    assert done == sorted(done) and done[0] >= 1
    assert all(isinstance(c[2], float) and c[2] >= 0 for c in calls)


def test_returning_false_cancels(backend):
    calls = []

    def stop_at_third(done, total, rate):
        calls.append(done)
        return len(calls) < 3

    a = random_dense(300, 0.05, 102)
    with pytest.raises(apsp.Cancelled, match="cancelled"):
        apsp.floyd_warshall(a, backend=backend, progress=stop_at_third,
                            dtype="float32" if backend == "cuda" else None)
    assert len(calls) == 3
    # Nothing is left in a broken state: the next solve works.
    assert apsp.floyd_warshall(a, backend=backend, dtype="float32").shape == (300, 300)


def test_exception_in_callback_propagates():
    def boom(done, total, rate):
        raise LookupError(f"stop at {done}")

    with pytest.raises(LookupError, match="stop at"):
        apsp.solve(random_dense(100, 0.1, 103), progress=boom)


def test_sigint_interrupts_a_long_solve():
    # The reference back end needs seconds for n = 1500 here; SIGINT arrives after 0.2 s
    # while the GIL is released, and the per-round check turns it into KeyboardInterrupt.
    n = 1500
    a = random_dense(n, 0.01, 104)
    armed = threading.Event()
    armed.set()

    def on_sigint(signum, frame):
        if armed.is_set():  # a late signal (after the test) must not hit pytest
            raise KeyboardInterrupt

    rounds = []
    previous = signal.signal(signal.SIGINT, on_sigint)
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    try:
        timer.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            apsp.floyd_warshall(a, backend="reference",
                                progress=lambda done, total, rate: rounds.append(done))
        elapsed = time.monotonic() - start
    finally:
        armed.clear()
        timer.cancel()
        timer.join()
        signal.signal(signal.SIGINT, previous)
    assert 0 < len(rounds) < n, f"stopped after {len(rounds)} of {n} rounds in {elapsed:.2f} s"
    assert apsp.floyd_warshall(random_dense(10, 0.5, 105)).shape == (10, 10)


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self):
        return True


def test_progress_true_draws_a_tqdm_bar_on_a_terminal(monkeypatch):
    pytest.importorskip("tqdm", reason="python3-tqdm is not installed (Makefile DEB_PACKAGES)")
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    dist = apsp.floyd_warshall(random_dense(200, 0.05, 106), progress=True)
    assert np.isfinite(dist).any()
    err = screen.getvalue()
    # tqdm's bar: the description, the bar's percentage and done/total rounds.
    assert "apsp:" in err and "100%" in err and "\r" in err
    assert re.search(r"\b(\d+)/\1 \[", err), err
    assert "updates/s" in err


LOGGED_SOLVE = """
import numpy as np, apsp
rng = np.random.default_rng(5)
a = rng.integers(1, 9, size=(400, 400)).astype(float)
apsp.floyd_warshall(a, progress=True, backend="reference")
apsp.dijkstra(a, indices=[0, 1, 2], progress=True)
"""


def test_progress_true_writes_plain_lines_into_a_log_file(tmp_path):
    # stderr is a file, as under nohup or a batch system: lines, never carriage returns (tqdm
    # installed or not), and the last one says 100 %.
    log = tmp_path / "solve.log"
    with open(log, "w") as f:
        subprocess.run([sys.executable, "-c", LOGGED_SOLVE], stderr=f, check=True)
    text = log.read_text()
    assert "\r" not in text and "\033" not in text, repr(text[:200])
    lines = text.splitlines()
    assert len(lines) >= 2 and all(line.startswith("apsp: round ") for line in lines), lines
    assert re.search(r"round (\d+)/\1 \(100%\)", lines[-1]), lines[-1]


def test_progress_true_without_tqdm_prints_the_plain_line(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now raises ImportError
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    apsp.solve(random_dense(200, 0.05, 107), progress=True)
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert lines, "no progress line"
    last = re.fullmatch(r"apsp: round (\d+)/(\d+) \(100%\)  [\d.]+ [kMGTP]?updates/s  ETA 0 s"
                        r"  elapsed [\d.]+ s", lines[-1])
    assert last and last.group(1) == last.group(2), lines[-1]


def test_progress_false_and_none_print_nothing(capsys):
    a = random_dense(100, 0.1, 108)
    apsp.floyd_warshall(a, progress=False)
    apsp.floyd_warshall(a, progress=None)
    assert capsys.readouterr().err == ""


def test_plain_line_on_a_terminal_is_redrawn_and_ended():
    from apsp import _progress

    screen = Terminal()
    line = _progress._PlainLine(screen)
    line(1, 4, 2.5e9)
    line(2, 4, 2.5e9)  # within 0.1 s of the first: not redrawn
    line.close()  # a solve that stops here (cancelled) still ends the line
    text = screen.getvalue()
    assert text.startswith("\r\033[Kapsp: round 1/4 (25%)  2.50 Gupdates/s  ETA ")
    assert "round 2/4" not in text and text.endswith("\n") and text.count("\n") == 1


def test_bad_progress_argument():
    with pytest.raises(TypeError, match="progress must be True, False, None or a callable"):
        apsp.floyd_warshall(random_dense(10, 0.5, 110), progress="yes")
