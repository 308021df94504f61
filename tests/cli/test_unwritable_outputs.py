"""An output that cannot be written is refused before the input is read, with exit 2 (docs/cli.md,
exit codes): -o, --paths, convert's OUT and the --checkpoint directory.

Root passes permission bits, so the cases that must hold in CI (as root) use a directory where no
file can be created whoever asks (/proc) or a file where a directory is expected; the permission
case itself runs only as another user."""

import os
import stat
import time

import numpy as np
import pytest

from conftest import assert_error
from graph_files import random_edges, write_gr

# Nobody, root included, can create a file in /proc's top directory.
NO_FILES_HERE = "/proc"


def errors(r):
    return [line for line in r.err.splitlines() if line.startswith("apsp: error: ")]


@pytest.fixture
def slow_graph(tmp_path):
    """A graph whose solve on the one-thread reference back end takes seconds."""
    rng = np.random.default_rng(11)
    n = 1500
    write_gr(tmp_path / "big.gr", n, random_edges(rng, n, 6 * n, 1, 100))
    return "big.gr"


@pytest.fixture
def proc_dir():
    if not os.path.ismount(NO_FILES_HERE):
        pytest.skip(f"{NO_FILES_HERE} is not mounted here")
    return NO_FILES_HERE


@pytest.mark.parametrize("option", ["-o", "--paths", "--checkpoint"])
def test_unwritable_output_is_refused_before_the_input_is_read(apsp, slow_graph, proc_dir, option):
    target = {"-o": "d.npy", "--paths": "v.npy", "--checkpoint": "ck"}[option]
    args = ["solve", slow_graph, "--backend", "reference", "--progress"]
    if option != "-o":
        args += ["-o", "d.npy"]
    args += [option, f"{proc_dir}/{target}"]
    t0 = time.monotonic()
    r = apsp(*args, env={**os.environ, "APSP_TRACE": "1"})
    seconds = time.monotonic() - t0
    assert r.rc == 2, r
    lines = errors(r)
    assert len(lines) == 1 and f"{proc_dir}/{target}" in lines[0], r
    assert "cannot" in lines[0] and proc_dir in lines[0], r
    # Refused before the read and the solve: no trace of either, no progress line.
    assert "solve: arguments checked" not in r.err, r
    assert "solve: input read" not in r.err and "round" not in r.err, r
    assert seconds < 30, seconds
    assert not os.path.exists(f"{proc_dir}/{target}")


def test_a_file_where_the_checkpoint_directory_should_be_is_refused(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 4), (2, 3, 5)])
    (tmp_path / "ck").write_text("not a directory\n")
    r = apsp("solve", "g.gr", "-o", "d.npy", "--checkpoint", "ck/inner")
    assert_error(r, 2, "ck", "not a directory")
    r = apsp("solve", "g.gr", "-o", "d.npy", "--checkpoint", "ck")
    assert_error(r, 2, "ck", "not a directory")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ck", "g.gr"]


def test_a_checkpoint_directory_still_to_be_made_is_accepted(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 4), (2, 3, 5)])
    r = apsp("solve", "g.gr", "-o", "d.npy", "--algorithm", "fw", "--backend", "cpu",
             "--checkpoint", "new/ck", "--checkpoint-every", "0", "-q")
    assert r.rc == 0, r
    assert (tmp_path / "d.npy").exists()
    # No probe file is left behind anywhere.
    assert not [p for p in tmp_path.rglob(".apsp-probe-*")]


def test_convert_refuses_an_unwritable_output_before_reading(apsp, tmp_path, proc_dir):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 4), (2, 3, 5)])
    r = apsp("convert", "g.gr", f"{proc_dir}/g.mtx")
    assert_error(r, 2, f"{proc_dir}/g.mtx")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
def test_a_read_only_directory_is_refused_before_the_solve(apsp, tmp_path, slow_graph):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        r = apsp("solve", slow_graph, "-o", "ro/d.npy", "--backend", "reference", "--progress")
        assert_error(r, 2, "ro/d.npy", "Permission denied")
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(stat.S_IRWXU)


def test_outputs_that_can_be_written_leave_no_probe(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 4), (2, 3, 5)])
    r = apsp("solve", "g.gr", "-o", "d.npy", "--paths", "v.npy", "-q")
    assert r.rc == 0, r
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.npy", "g.gr", "v.npy"]
