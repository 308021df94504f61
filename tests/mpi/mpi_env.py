"""What the tests of tests/mpi share: the apsp binary and mpirun (from ctest's environment) and
the environment the ranks run in (as root in CI; one OpenMP thread per rank)."""

import os
import shutil
from pathlib import Path

import pytest

CLI = os.environ.get("APSP_CLI")
MPIEXEC = os.environ.get("APSP_MPIEXEC", "mpirun")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMP_NUM_THREADS="1")


def need_binary():
    """Skips the calling module's tests without a built apsp (run them through ctest)."""
    if not CLI or not Path(CLI).exists():
        pytest.skip("APSP_CLI is not set to a built apsp binary (run the tests through ctest)")
    if shutil.which(MPIEXEC) is None and not Path(MPIEXEC).exists():
        pytest.skip(f"{MPIEXEC} not found")
