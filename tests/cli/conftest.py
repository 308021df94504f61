"""Shared fixtures for the CLI tests: the binary under test and a helper to run it."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CLI = os.environ.get("APSP_CLI")
SHARED_DATA = Path(os.environ.get(
    "APSP_SHARED_DATA", Path(__file__).resolve().parents[3] / "shared" / "data"))


class Run:
    """Result of one `apsp` invocation."""

    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def __repr__(self):
        return f"rc={self.rc}\nstdout:\n{self.out}\nstderr:\n{self.err}"


@pytest.fixture(scope="session")
def apsp_bin():
    if not CLI or not Path(CLI).exists():
        pytest.skip("APSP_CLI is not set to a built apsp binary (run the tests through ctest)")
    return CLI


@pytest.fixture
def apsp(apsp_bin, tmp_path):
    """apsp(*args) runs the binary in tmp_path and returns a Run."""

    def run(*args, timeout=120, **kwargs):
        proc = subprocess.run([apsp_bin, *map(str, args)], cwd=tmp_path, capture_output=True,
                              text=True, timeout=timeout, **kwargs)
        return Run(proc)

    return run


@pytest.fixture
def shared_data():
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real graphs not found at {SHARED_DATA} (the ../shared/data checkout)")
    return SHARED_DATA


def assert_error(r, code, *fragments):
    """The run failed with `code` and a single 'apsp: error: ' line containing `fragments`."""
    assert r.rc == code, r
    lines = r.err.splitlines()
    assert len(lines) == 1, r
    assert lines[0].startswith("apsp: error: "), r
    for f in fragments:
        assert f in lines[0], r


def small_file_system(tmp_path, size):
    """A command prefix that runs a command with a tmpfs of `size` mounted on tmp_path/'small'
    (in a mount namespace of its own), or a skip where namespaces cannot be made."""
    small = tmp_path / "small"
    small.mkdir(exist_ok=True)
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1)")
    prefix = ["unshare", "-rm", "sh", "-c",
              'mount -t tmpfs -o size="$1" none "$2" && shift 2 && exec "$@"', "sh", size,
              str(small)]
    probe = subprocess.run([*prefix, "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip("cannot mount a small tmpfs in a mount namespace: " + probe.stderr)
    return prefix
