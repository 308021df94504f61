"""Output safety: two outputs that name one file, failed writes (exit 5, the user's file named,
nothing left), a lost stdout, checkpoint clean-up that touches only apsp's files, formats that
cannot hold a graph, and options that mean nothing where they are given."""

import os
import resource
import signal
import subprocess
import time

import numpy as np
import pytest

from conftest import CLI, assert_error
from graph_files import write_gr

GR = "p sp 3 3\na 1 2 5\na 1 2 3\na 2 3 4\n"


def leftover(tmp_path, keep):
    return sorted(p.name for p in tmp_path.iterdir() if p.name not in keep)


@pytest.mark.parametrize("paths", ["d.npy", "./d.npy", "sub/../d.npy"])
@pytest.mark.parametrize("mode", ["--map-output", "--no-map-output"])
def test_distances_and_paths_in_one_file_are_refused(apsp, tmp_path, paths, mode):
    (tmp_path / "g.gr").write_text(GR)
    (tmp_path / "sub").mkdir()
    assert_error(apsp("solve", "g.gr", "-o", "d.npy", "--paths", paths, mode), 2, "same file")
    assert leftover(tmp_path, {"g.gr", "sub"}) == []


def test_two_links_to_one_file_are_refused(apsp, tmp_path):
    (tmp_path / "g.gr").write_text(GR)
    (tmp_path / "d.npy").write_bytes(b"old")
    os.link(tmp_path / "d.npy", tmp_path / "v.npy")
    assert_error(apsp("solve", "g.gr", "-o", "d.npy", "--paths", "v.npy"), 2, "same file")
    assert (tmp_path / "d.npy").read_bytes() == b"old"


def test_map_output_refusals_come_before_the_read(apsp, tmp_path):
    # The input does not exist: a refusal that needs no input is a usage error (2), not 3.
    assert_error(apsp("solve", "missing.gr", "--map-output"), 2, "--map-output needs -o")
    assert_error(apsp("solve", "missing.gr", "-o", "d.csv", "--map-output"), 2, "CSV")
    assert leftover(tmp_path, set()) == []


def test_csv_output_above_its_limit_is_refused_before_the_read(apsp, tmp_path):
    # The header declares 10,001 vertices; the arcs after it are malformed, so a refusal that
    # came after the read would be exit 3 for them.
    (tmp_path / "g.gr").write_text("p sp 10001 2\na 1 2 1\na 1 99999 1\n")
    assert_error(apsp("solve", "g.gr", "-o", "d.csv"), 2, "CSV output is limited to 10000")
    assert leftover(tmp_path, {"g.gr"}) == []
    # Without a declared count (an edge list) it still comes, after the read
    (tmp_path / "e.txt").write_text("".join(f"{i} {i + 1} 1\n" for i in range(10001)))
    assert_error(apsp("solve", "e.txt", "-o", "e.csv"), 2, "CSV output is limited to 10000")


def small_file_limit():
    """Run the child with files capped at 4 KiB, as `ulimit -f 4` does: SIGXFSZ at its default
    action (the process exec'd restores it), which would kill apsp mid-write unless it ignores
    the signal itself, so that writes fail with EFBIG."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)


# A file too large for its file system is exit 5 whatever the output: a write that fails, or an
# output file that cannot be reserved to solve in, as a matrix that does not fit in memory.
@pytest.mark.parametrize("args, code", [
    (["solve", "big.gr", "-o", "d.npy", "--no-map-output"], 5),
    (["solve", "big.gr", "-o", "d.csv"], 5),
    (["convert", "big.gr", "d.mtx"], 5),
    (["solve", "big.gr", "-o", "d.npy", "--map-output"], 5),
    (["solve", "big.gr", "-o", "d.bin", "--paths", "v.npy", "--map-output"], 5),
])
def test_a_failed_write_names_the_output_and_leaves_nothing(apsp, tmp_path, args, code):
    n = 60
    write_gr(tmp_path / "big.gr", n, [(i % n + 1, i * 7 % n + 1, i) for i in range(1, 1000)])
    r = apsp(*args, "-q", preexec_fn=small_file_limit)
    out = args[3] if args[0] == "solve" else args[2]
    assert_error(r, code, "File too large")
    # It names the output that failed (with --paths, the path file is reserved first), never a
    # partial file.
    names = [out] + ([args[args.index("--paths") + 1]] if "--paths" in args else [])
    assert any(name in r.err for name in names), r
    assert "partial" not in r.err and ".tmp" not in r.err, r
    assert leftover(tmp_path, {"big.gr"}) == []


def test_a_lost_stdout_is_exit_1(apsp_bin, tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    (tmp_path / "g.gr").write_text(GR)
    for args in (["info", "g.gr"], ["path", "g.gr", "1", "3", "--json"]):
        with open("/dev/full", "w") as full:
            r = subprocess.run([apsp_bin, *args], cwd=tmp_path, stdout=full,
                               stderr=subprocess.PIPE, text=True, timeout=60)
        assert r.returncode == 1, r.stderr
        assert "cannot write the output to stdout" in r.stderr


def test_checkpoint_clean_up_keeps_files_that_are_not_apsps(apsp, tmp_path):
    (tmp_path / "g.gr").write_text(GR)
    ck = tmp_path / "ck"
    ck.mkdir()
    mine = {"manifest.txt": "notes\n", "rank-list.csv": "a,b\n", "other.txt": "x\n",
            "rank-00000-of-00001.r0000000x": "y\n"}
    for name, text in mine.items():
        (ck / name).write_text(text)
    args = ["solve", "g.gr", "-o", "d.npy", "--backend", "cpu", "--algorithm", "fw",
            "--checkpoint-every", "0", "-q"]
    r = apsp(*args, "--checkpoint", "ck")
    assert r.rc == 0, r
    assert {p.name: p.read_text() for p in ck.iterdir()} == mine
    # A file named like the manifest that is not apsp's would be written over: refused.
    (ck / "manifest").write_text("my own notes\n")
    assert_error(apsp(*args, "--checkpoint", "ck"), 2, "manifest", "not an apsp checkpoint")
    assert (ck / "manifest").read_text() == "my own notes\n"
    # A directory apsp's files alone were in goes with them.
    r = apsp(*args, "--checkpoint", "ck2")
    assert r.rc == 0, r
    assert not (tmp_path / "ck2").exists()


def test_resume_names_the_option_that_differs(apsp_bin, apsp, tmp_path):
    n = 700
    rng = np.random.default_rng(5)
    edges = [(int(u) + 1, int(v) + 1, int(w)) for u, v, w in
             zip(rng.integers(0, n, 20000), rng.integers(0, n, 20000), rng.integers(1, 90, 20000))]
    write_gr(tmp_path / "g.gr", n, edges)
    args = ["solve", "g.gr", "-o", "d.npy", "--backend", "cpu", "--algorithm", "fw", "--block",
            "32", "--threads", "1", "-q"]
    proc = subprocess.Popen([apsp_bin, *args, "--checkpoint", "ck", "--checkpoint-every", "0"],
                            cwd=tmp_path, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (tmp_path / "ck" / "manifest").exists():
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    proc.kill()
    proc.wait()
    r = apsp(*args, "--resume", "ck", "--dtype", "int64")
    assert_error(r, 2, "dtype")
    r = apsp(*args, "--resume", "ck", "--dtype", "int32")
    assert r.rc == 0, r


@pytest.mark.parametrize("out", ["g.txt", "g.csv"])
def test_edge_files_refuse_a_vertex_on_no_edge(apsp, tmp_path, out):
    (tmp_path / "iso.gr").write_text("p sp 3 1\na 1 3 5\n")
    assert_error(apsp("convert", "iso.gr", out), 2, "'2'", "no edge", "dimacs")
    assert leftover(tmp_path, {"iso.gr"}) == []
    (tmp_path / "ok.gr").write_text("p sp 3 2\na 1 3 5\na 2 1 1\n")
    assert apsp("convert", "ok.gr", out, "-q").rc == 0


@pytest.mark.parametrize("command", [["info", "g.gr"], ["path", "g.gr", "1", "3"]])
def test_grid_outside_mpirun_is_refused_everywhere(apsp, tmp_path, command):
    (tmp_path / "g.gr").write_text(GR)
    assert_error(apsp(*command, "--grid", "2x1"), 2, "--grid")
    assert apsp(*command, "--grid", "1x1").rc == 0  # one process's grid


def test_a_weight_below_the_smallest_double_reads_as_its_nearest_double(apsp, tmp_path):
    (tmp_path / "t.gr").write_text("p sp 2 1\na 1 2 1e-400\n")
    r = apsp("solve", "t.gr", "-o", "d.npy", "--dtype", "float64", "-q")
    assert r.rc == 0, r
    assert np.load(tmp_path / "d.npy")[0, 1] == 0.0
    (tmp_path / "h.gr").write_text("p sp 2 1\na 1 2 1e400\n")
    assert_error(apsp("solve", "h.gr", "-o", "d.npy", "--dtype", "float64"), 3, "out of range")


def test_solving_in_place_leaves_a_users_partial_named_file_alone(apsp, tmp_path):
    (tmp_path / "g.gr").write_text(GR)
    (tmp_path / "d.npy.apsp-partial").write_bytes(b"mine")
    r = apsp("solve", "g.gr", "-o", "d.npy", "--map-output", "-q")
    assert r.rc == 0, r
    assert (tmp_path / "d.npy.apsp-partial").read_bytes() == b"mine"
    assert np.load(tmp_path / "d.npy")[0, 2] == 7
