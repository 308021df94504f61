"""Progress callbacks, cancel, and Ctrl-C (SIGINT) during a solve with the GIL released."""

import os
import signal
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
