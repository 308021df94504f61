"""Ctrl-C (SIGINT), SIGTERM and SIGHUP cancel with exit 128 + the signal and leave no output;
progress only on a terminal."""

import json
import os
import pty
import queue
import signal
import struct
import subprocess
import threading
import time

import numpy as np
import pytest

from graph_files import random_edges, write_gr, write_grid_gr

# Generous: a loaded two-core CI machine may be several times slower than a workstation.
TIMEOUT = 180


def catches(pid, sig):
    """Whether process pid has a handler installed for sig (Linux: SigCgt in /proc/PID/status),
    i.e. apsp's interrupt scope is active."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (sig - 1) & 1)
    except OSError:
        pass
    return False


def test_sigint_cancels_with_130_and_no_output(apsp_bin, tmp_path):
    rng = np.random.default_rng(9)
    n = 1500  # the one-thread reference solver needs seconds for this
    write_gr(tmp_path / "big.gr", n, random_edges(rng, n, 6 * n, 1, 100))
    proc = subprocess.Popen([apsp_bin, "solve", "big.gr", "-o", "d.npy", "--paths", "v.npy",
                             "--backend", "reference"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + TIMEOUT  # until apsp handles SIGINT (else it would just die)
    while not catches(proc.pid, signal.SIGINT) and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.005)
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
    # The command's stage first, then the engine's rounds.
    assert lines[0] == "apsp: reading g.gr ...", r
    rounds = lines[1:]
    assert all(line.startswith("apsp: round ") and "elapsed" in line for line in rounds), r
    assert rounds[-1].startswith("apsp: round 300/300 (100%)") and "ETA 0 s" in rounds[-1], r
    # The reference back end has no estimate, and the first round's time also holds the set-up:
    # no ETA is extrapolated from it.
    assert rounds[0].startswith("apsp: round 1/300 ") and "ETA --" in rounds[0], r
    r = apsp("solve", "g.gr", "--progress", "--quiet")
    assert r.rc == 2 and "excludes" in r.err, r


def test_progress_names_the_commands_stages(apsp, tmp_path):
    rng = np.random.default_rng(6)
    write_gr(tmp_path / "g.gr", 200, random_edges(rng, 200, 800))
    r = apsp("solve", "g.gr", "-o", "d.npy", "--progress", "--backend", "cpu")
    assert r.rc == 0, r
    lines = r.err.splitlines()
    assert lines[0] == "apsp: reading g.gr ...", r
    at = lines.index("apsp: writing d.npy ...")
    # The planner's ordering (when auto weighs the supernodal solver), then the rounds.
    counted = lines[2:at] if lines[1].startswith("apsp: ordering the graph ") else lines[1:at]
    assert counted and all(line.startswith(PROGRESS) for line in counted), r
    # Without --progress (not a terminal) neither is printed.
    quiet = apsp("solve", "g.gr", "-o", "d2.npy", "--backend", "cpu")
    assert quiet.rc == 0 and "apsp: reading" not in quiet.err, quiet


def test_progress_names_the_ordering_and_json_counts_sources(apsp, tmp_path):
    # A 40 x 40 grid: the supernodal solver orders it (nested dissection) while it is planned,
    # before any round; that stage gets a line of its own. --algorithm fw orders nothing.
    rng = np.random.default_rng(8)
    write_grid_gr(tmp_path / "grid.gr", 40, rng)
    r = apsp("solve", "grid.gr", "--progress", "--backend", "cpu", "--algorithm", "supernodal",
             "--json")
    assert r.rc == 0, r
    lines = r.err.splitlines()
    assert lines[0] == "apsp: reading grid.gr ...", r
    assert lines[1].startswith("apsp: ordering the graph (nested dissection) ...  elapsed "), r
    assert lines[2:] and all(line.startswith(PROGRESS) for line in lines[2:]), r
    s = json.loads(r.out)
    assert s["algorithm"] == "supernodal", s
    # Every summary counts sources a second: n rows over the solve's seconds.
    assert s["sources_per_second"] == pytest.approx(1600 / s["seconds"]["solve"], rel=1e-9), s
    fw = apsp("solve", "grid.gr", "--progress", "--backend", "cpu", "--algorithm", "fw")
    assert fw.rc == 0 and "ordering" not in fw.err, fw
    # A block cut from the supernodal solver's matrix: the same stage, once, before its rounds.
    block = apsp("solve", "grid.gr", "--sources", "1,2", "--progress", "--backend", "cpu",
                 "--algorithm", "supernodal", "-o", "b.npy")
    assert block.rc == 0, block
    assert block.err.count("apsp: ordering the graph (nested dissection) ...") == 1, block
    # A row engine's summary: Johnson's Dijkstra from every source.
    rows = apsp("solve", "grid.gr", "--backend", "cpu", "--algorithm", "johnson", "--json")
    assert rows.rc == 0, rows
    s = json.loads(rows.out)
    assert s["driver"].startswith("johnson"), s
    assert s["sources_per_second"] == pytest.approx(1600 / s["seconds"]["solve"], rel=1e-9), s


# --- SIGTERM and SIGHUP -----------------------------------------------------------------------

EXIT_CODE = {signal.SIGINT: 130, signal.SIGHUP: 129, signal.SIGTERM: 143}


@pytest.fixture(scope="module")
def big_graph(tmp_path_factory):
    """A graph whose one-thread cpu solve with paths takes seconds (24 rounds of n = 6000), kept
    outside each test's directory so that directory holds nothing but what apsp leaves."""
    rng = np.random.default_rng(11)
    n = 6000
    return write_gr(tmp_path_factory.mktemp("signal_graph") / "big.gr", n,
                    random_edges(rng, n, 6 * n, 1, 100))


class Child:
    """An apsp process whose stderr lines are collected by a thread, so the test can wait for a
    given line (with a deadline) before it signals."""

    def __init__(self, args, cwd, env=None, preexec_fn=None):
        self.proc = subprocess.Popen(args, cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True, env=env, preexec_fn=preexec_fn)
        self.lines = []
        self._queue = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.proc.stderr:
            self._queue.put(line)
        self._queue.put(None)

    def wait_for(self, text, timeout=TIMEOUT):
        """Returns once a stderr line contains text (or one of a tuple of texts); fails if apsp
        ends first or times out."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                pytest.fail(f"no stderr line with {text!r} after {timeout} s: {self.lines}")
            if line is None:
                self.proc.wait(timeout=TIMEOUT)
                pytest.fail(f"apsp ended (rc {self.proc.returncode}) before printing {text!r}: "
                            f"{self.lines}")
            self.lines.append(line)
            if any(t in line for t in ((text,) if isinstance(text, str) else text)):
                return

    def finish(self, timeout=TIMEOUT):
        """Waits for the exit; returns (rc, every stderr line)."""
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"apsp did not exit within {timeout} s of the signal: {self.lines}")
        self._reader.join(timeout=TIMEOUT)  # stderr closed at the exit: the reader is done
        while not self._queue.empty():
            line = self._queue.get_nowait()
            if line is not None:
                self.lines.append(line)
        return rc, self.lines

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def wait_until(self, condition, what, timeout=TIMEOUT):
        """Polls condition() until true; fails if apsp ends first or on the deadline."""
        deadline = time.monotonic() + timeout
        while not condition():
            if self.proc.poll() is not None:
                pytest.fail(f"apsp ended (rc {self.proc.returncode}) before {what}")
            if time.monotonic() > deadline:
                self.kill()
                pytest.fail(f"no {what} after {timeout} s")
            time.sleep(0.005)

    def catches(self, sig):
        return catches(self.proc.pid, sig)


# Progress lines: Floyd-Warshall's rounds, or the sources of the engines that make rows; and the
# command's stages around them.
PROGRESS = ("apsp: round ", "apsp: sources ")
STAGES = ("apsp: reading ", "apsp: ordering ", "apsp: writing ")


def solve_args(apsp_bin, graph, *extra):
    return [apsp_bin, "solve", str(graph), "--backend", "cpu", "--threads", "1", "--progress",
            *extra]


def assert_cancelled(rc, lines, sig, what):
    assert rc == EXIT_CODE[sig], (rc, lines)
    errors = [line for line in lines if not line.startswith(PROGRESS + STAGES)]
    assert len(errors) == 1, lines
    assert errors[0].startswith(f"apsp: error: interrupted ({sig.name}) while {what}"), lines
    assert errors[0].rstrip().endswith("no output was written"), lines


CASES = [  # signal, output, mode, whether OUT exists before the run
    (signal.SIGTERM, "d.npy", "--map-output", True),
    (signal.SIGTERM, "d.npy", "--no-map-output", False),
    (signal.SIGTERM, "d.bin", "--map-output", False),
    (signal.SIGTERM, "d.bin", "--no-map-output", True),
    (signal.SIGHUP, "d.npy", "--map-output", False),
    (signal.SIGHUP, "d.npy", "--no-map-output", True),
    (signal.SIGHUP, "d.bin", "--map-output", True),
    (signal.SIGHUP, "d.bin", "--no-map-output", False),
]


@pytest.mark.parametrize(
    "sig, out, mode, existing", CASES,
    ids=[f"{s.name}-{o}{m}{'-existing' if e else ''}" for s, o, m, e in CASES])
def test_signal_during_solve_cancels_and_leaves_nothing(apsp_bin, tmp_path, big_graph, sig, out,
                                                       mode, existing):
    old = b"an earlier result, to be left alone\n"
    if existing:
        (tmp_path / out).write_bytes(old)
    child = Child(solve_args(apsp_bin, big_graph, "-o", out, "--paths", "v.npy", mode), tmp_path)
    child.wait_for(PROGRESS)  # the solve runs (with --map-output, inside the partials)
    if mode == "--map-output":
        assert list(tmp_path.glob(out + ".apsp-partial-*"))
        assert list(tmp_path.glob("v.npy.apsp-partial-*"))
    t0 = time.monotonic()
    child.proc.send_signal(sig)
    rc, lines = child.finish()
    assert_cancelled(rc, lines, sig, f"solving {big_graph}")
    # Stopped at a round's end, not after the whole solve (a round takes well under a second).
    assert time.monotonic() - t0 < 60, lines
    left = sorted(p.name for p in tmp_path.iterdir())
    if existing:
        assert left == [out], left
        assert (tmp_path / out).read_bytes() == old
    else:
        assert left == [], left


@pytest.fixture(scope="module")
def grid_graph(tmp_path_factory):
    """A 250,000-vertex grid: `path` searches one pair quickly, but its million arcs take long
    enough to read for a signal to arrive meanwhile."""
    return write_grid_gr(tmp_path_factory.mktemp("signal_grid") / "grid.gr", 500,
                         np.random.default_rng(12))


def test_signal_while_path_solves(apsp_bin, tmp_path, grid_graph):
    child = Child([apsp_bin, "path", str(grid_graph), "1", "250000"], tmp_path)
    # `path` shows no progress: signal once its handlers are installed (during the read; a
    # signal then stops it before the search).
    child.wait_until(lambda: child.catches(signal.SIGHUP), "SIGHUP handler")
    child.proc.send_signal(signal.SIGHUP)
    rc, lines = child.finish()
    assert rc == 129, lines
    assert len(lines) == 1, lines
    assert lines[0].startswith("apsp: error: interrupted (SIGHUP)"), lines
    assert lines[0].rstrip().endswith("no output was written"), lines
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_ignored_sighup_stays_ignored(apsp_bin, tmp_path, big_graph):
    """Under nohup (SIGHUP ignored) a hangup must not cancel. SIGHUP and then SIGTERM are sent;
    a handled SIGHUP would be the first signal seen (exit 129), an ignored one leaves SIGTERM."""

    def ignore_sighup():
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    child = Child(solve_args(apsp_bin, big_graph, "-o", "d.npy"), tmp_path,
                  preexec_fn=ignore_sighup)
    child.wait_for(PROGRESS)
    assert child.catches(signal.SIGTERM) and child.catches(signal.SIGINT)
    assert not child.catches(signal.SIGHUP)
    child.proc.send_signal(signal.SIGHUP)
    time.sleep(0.2)
    assert child.proc.poll() is None
    child.proc.send_signal(signal.SIGTERM)
    rc, lines = child.finish()
    assert_cancelled(rc, lines, signal.SIGTERM, f"solving {big_graph}")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_signal_during_the_final_write_leaves_no_partial_file(apsp_bin, tmp_path):
    """A signal after the solve, while the matrices are written: either the command still sees
    it (exit 143, the earlier OUT and PATHS untouched) or it came after the last check (exit 0,
    both complete and new); never one new and one old file, a temporary or a partial file."""
    rng = np.random.default_rng(12)
    n = 3000
    graph = write_gr(tmp_path / "g.gr", n, random_edges(rng, n, 6 * n, 1, 100))
    old = {"d.npy": b"earlier distances\n", "v.npy": b"earlier paths\n"}
    for name, data in old.items():
        (tmp_path / name).write_bytes(data)
    child = Child([apsp_bin, "solve", "g.gr", "-o", "d.npy", "--paths", "v.npy", "--backend",
                   "cpu", "--threads", "2", "--no-map-output", "--quiet"], tmp_path,
                  env=dict(os.environ, APSP_TRACE="1"))
    child.wait_for(" solve: solved")  # APSP_TRACE: the write starts now
    child.proc.send_signal(signal.SIGTERM)
    rc, lines = child.finish()
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([graph.name, "d.npy", "v.npy"]), left
    if rc == 143:
        errors = [line for line in lines if line.startswith("apsp: error: ")]
        assert errors == ["apsp: error: interrupted (SIGTERM); no output was written\n"], lines
        for name, data in old.items():
            assert (tmp_path / name).read_bytes() == data, name
    else:
        assert rc == 0, lines
        assert np.load(tmp_path / "d.npy").shape == (n, n)
        assert np.load(tmp_path / "v.npy").shape == (n, n)


# --- A signal at a chosen point of the final write (APSP_TEST_PAUSE_IN_WRITE) -----------------
# With APSP_TEST_PAUSE_IN_WRITE=K, apsp stops after its K-th output is complete in its partial
# file, prints "apsp: test: paused after output K" and waits for a signal: the test signals
# exactly between two writes (K = 1) or after the last write, before the renames (K = 2).

@pytest.fixture(scope="module")
def small_graph(tmp_path_factory):
    rng = np.random.default_rng(21)
    return write_gr(tmp_path_factory.mktemp("small_graph") / "g.gr", 40,
                    random_edges(rng, 40, 160, 1, 9))


def interrupted_write(apsp_bin, cwd, args, pause_after, sig, old):
    """Runs apsp with the pause hook, signals at the pause and checks the outcome: exit
    128 + sig, one error line, every file of `old` unchanged byte for byte and nothing else
    in cwd (no partial or temporary file)."""
    for name, data in old.items():
        (cwd / name).write_bytes(data)
    child = Child([apsp_bin, *args], cwd,
                  env=dict(os.environ, APSP_TEST_PAUSE_IN_WRITE=str(pause_after)))
    child.wait_for(f"apsp: test: paused after output {pause_after}")
    child.proc.send_signal(sig)
    rc, lines = child.finish()
    assert rc == EXIT_CODE[sig], lines
    errors = [line for line in lines if line.startswith("apsp: error: ")]
    assert errors == [f"apsp: error: interrupted ({sig.name}); no output was written\n"], lines
    assert sorted(p.name for p in cwd.iterdir()) == sorted(old), sorted(cwd.iterdir())
    for name, data in old.items():
        assert (cwd / name).read_bytes() == data, name


# Every format `apsp solve -o` writes (docs/formats.md): .npy, course binary, CSV, gzipped CSV;
# written at the end (--no-map-output) or solved in place (--map-output: .npy, .bin).
WRITE_CASES = [  # output, mode, signal, pause after output K
    ("d.npy", "--no-map-output", signal.SIGTERM, 1),
    ("d.npy", "--no-map-output", signal.SIGHUP, 2),
    ("d.npy", "--no-map-output", signal.SIGINT, 1),
    ("d.bin", "--no-map-output", signal.SIGTERM, 2),
    ("d.bin", "--no-map-output", signal.SIGHUP, 1),
    ("d.bin", "--no-map-output", signal.SIGINT, 2),
    ("d.csv", "--no-map-output", signal.SIGTERM, 1),
    ("d.csv", "--no-map-output", signal.SIGHUP, 2),
    ("d.csv", "--no-map-output", signal.SIGINT, 1),
    ("d.csv.gz", "--no-map-output", signal.SIGTERM, 2),
    ("d.csv.gz", "--no-map-output", signal.SIGHUP, 1),
    ("d.csv.gz", "--no-map-output", signal.SIGINT, 2),
    ("d.npy", "--map-output", signal.SIGTERM, 2),
    ("d.npy", "--map-output", signal.SIGINT, 1),
    ("d.bin", "--map-output", signal.SIGHUP, 1),
    ("d.bin", "--map-output", signal.SIGTERM, 2),
]


@pytest.mark.parametrize(
    "out, mode, sig, pause_after", WRITE_CASES,
    ids=[f"{o}{m}-{s.name}-after{k}" for o, m, s, k in WRITE_CASES])
def test_signal_between_writes_keeps_the_old_outputs(apsp_bin, tmp_path, small_graph, out, mode,
                                                     sig, pause_after):
    old = {out: b"an earlier result, to be left alone\n", "v.npy": b"earlier paths\n"}
    interrupted_write(apsp_bin, tmp_path,
                      ["solve", str(small_graph), "-o", out, "--paths", "v.npy", mode,
                       "--backend", "cpu", "--quiet"], pause_after, sig, old)


@pytest.mark.parametrize("out", ["d.npy", "d.bin", "d.csv", "d.csv.gz"])
def test_outputs_replace_old_ones_when_not_signalled(apsp, tmp_path, small_graph, out):
    """The same staged write without a signal: both targets are replaced, nothing else left."""
    (tmp_path / out).write_bytes(b"old")
    (tmp_path / "v.npy").write_bytes(b"old")
    r = apsp("solve", small_graph, "-o", out, "--paths", "v.npy", "--quiet",
             env=dict(os.environ, APSP_TEST_PAUSE_IN_WRITE="3"))  # never reached: 2 outputs
    assert r.rc == 0, r
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([out, "v.npy"])
    assert np.load(tmp_path / "v.npy").shape == (40, 40)
    assert (tmp_path / out).read_bytes() != b"old"


@pytest.mark.parametrize("out, sig", [("g.mtx", signal.SIGTERM), ("g.txt.gz", signal.SIGHUP),
                                      ("g.bin", signal.SIGINT)])
def test_signal_after_convert_writes_keeps_the_old_file(apsp_bin, tmp_path, small_graph, out,
                                                        sig):
    interrupted_write(apsp_bin, tmp_path, ["convert", str(small_graph), out, "--quiet"], 1, sig,
                      {out: b"an earlier conversion\n"})


def test_signal_during_convert_leaves_no_file(apsp_bin, tmp_path):
    """apsp convert writes through the same machinery: SIGTERM while it writes (a gzip-compressed
    edge list of 2M edges takes a while) removes its output and its temporary file."""
    rng = np.random.default_rng(13)
    n, m = 100000, 2000000
    edges = np.stack([rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(1, 100, m)],
                     axis=1).astype("<i4")
    (tmp_path / "g.bin").write_bytes(struct.pack("<ii", n, m) + edges.tobytes())
    child = Child([apsp_bin, "convert", "g.bin", "out.txt.gz"], tmp_path)
    # The write has begun once its temporary file (..apsp-partial-PID-0.out.txt.gz.tmp-PID-N,
    # the temporary of the partial file) exists.
    child.wait_until(
        lambda: any(".out.txt.gz.tmp-" in p.name for p in tmp_path.iterdir()),
        "temporary output file")
    child.proc.send_signal(signal.SIGTERM)
    rc, lines = child.finish()
    left = sorted(p.name for p in tmp_path.iterdir())
    if rc == 143:
        errors = [line for line in lines if line.startswith("apsp: error: ")]
        assert errors == ["apsp: error: interrupted (SIGTERM); no output was written\n"], lines
        assert left == ["g.bin"], left
    else:  # the signal came after the last check: then the file is complete
        assert rc == 0, lines
        assert left == ["g.bin", "out.txt.gz"], left
