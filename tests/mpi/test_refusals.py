"""Under mpirun, what cannot be written is refused on every rank before the input is read,
as in one process (tests/cli/test_unwritable_outputs.py): exit 2, one error line, no rounds."""

import subprocess

import pytest

from mpi_env import CLI, ENV, MPIEXEC, need_binary


@pytest.fixture(scope="module", autouse=True)
def binary():
    need_binary()


@pytest.mark.parametrize("extra", [["-o", "/proc/apsp-d.npy"],
                                   ["--checkpoint", "/proc/apsp-ck"],
                                   ["--checkpoint", "FILE"]])
def test_unwritable_outputs_are_refused_before_the_read(tmp_path, extra):
    g = tmp_path / "g.gr"
    g.write_text("p sp 3 2\na 1 2 4\na 2 3 5\n")
    (tmp_path / "FILE").write_text("a file where a directory should be\n")
    extra = [str(tmp_path / "FILE") if x == "FILE" else x for x in extra]
    cmd = [MPIEXEC, "-np", "2", "--oversubscribe", CLI, "solve", str(g), "--backend", "cpu",
           "--progress", *extra]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=ENV)
    assert r.returncode == 2, r.stderr
    errors = [l for l in r.stderr.splitlines() if l.startswith("apsp: error: ")]
    assert len(errors) == 1, r.stderr
    assert "round" not in r.stderr
