"""Under mpirun, as in one process (tests/cli/test_checkpoints.py): a checkpoint larger than the
free space of its directory's file system is refused before any rank allocates, exit 5 with
both sizes, one error line, no rounds and no output. The file system is a 1 MiB tmpfs mounted in
a mount namespace of its own, around mpirun and its ranks."""

import importlib.util
import subprocess
from pathlib import Path

import numpy as np
import pytest

from mpi_env import CLI, ENV, MPIEXEC, need_binary


@pytest.fixture(scope="module", autouse=True)
def binary():
    need_binary()


def small_file_system(tmp_path, size):
    """tests/cli/conftest.py's: a command prefix mounting a tmpfs of `size` on tmp_path/'small'
    in a mount namespace of its own (or a skip)."""
    path = Path(__file__).resolve().parents[1] / "cli" / "conftest.py"
    spec = importlib.util.spec_from_file_location("apsp_cli_conftest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.small_file_system(tmp_path, size)


def write_graph(path, n, m, seed):
    rng = np.random.default_rng(seed)
    lines = [f"p sp {n} {m}"]
    lines += [f"a {u} {v} {w}" for u, v, w in zip(rng.integers(1, n + 1, m),
                                                   rng.integers(1, n + 1, m),
                                                   rng.integers(1, 50, m))]
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("ranks", [1, 2])
def test_a_checkpoint_larger_than_the_free_space_is_refused_on_every_rank(tmp_path, ranks):
    # n = 600 int32: 600 * 600 * 4 bytes = 1.4 MiB a checkpoint (every rank's file), on 1 MiB.
    prefix = small_file_system(tmp_path, "1m")
    write_graph(tmp_path / "g.gr", 600, 6000, 5)
    cmd = [*prefix, MPIEXEC, "-np", str(ranks), "--oversubscribe", CLI, "solve", "g.gr",
           "--backend", "cpu", "-o", "d.npy", "--checkpoint", "small/ck", "--progress"]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120, env=ENV)
    assert r.returncode == 5, r
    errors = [line for line in r.stderr.splitlines() if line.startswith("apsp: error: ")]
    assert len(errors) == 1, r.stderr
    size = (600 * 600 * 4 + 64 * ranks + 4096) / 2**20  # the values, a header a rank, manifest
    assert errors[0].startswith("apsp: error: --checkpoint small/ck: a checkpoint of this solve "
                                f"takes {size:.1f} MiB (n = 600, int32 distances)"), errors
    assert "has 1.0 MiB free" in errors[0], errors
    assert "round" not in r.stderr, r.stderr
    assert not (tmp_path / "d.npy").exists()
