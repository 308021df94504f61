"""--gpu-memory and --devices: parsed everywhere (a machine without a GPU accepts them with the
cpu back end), bad values exit 2 before anything is read."""

import json
import os

import numpy as np
import pytest

from conftest import assert_error
from graph_files import write_gr


@pytest.fixture
def small(tmp_path):
    return write_gr(tmp_path / "g.gr", 4, [(1, 2, 3), (2, 3, 4), (3, 4, 5), (4, 1, 6)])


@pytest.mark.parametrize("cap", ["2G", "512M", "1536K", "1048576", "2GiB", "1T", "3g"])
def test_gpu_memory_accepted_with_cpu_backend(apsp, small, tmp_path, cap):
    r = apsp("solve", "g.gr", "--backend", "cpu", "--gpu-memory", cap, "-o", "d.npy", "--json")
    assert r.rc == 0, r
    d = np.load(tmp_path / "d.npy")
    assert d[0, 3] == 12 and d[3, 2] == 13


@pytest.mark.parametrize("cap", ["", "0", "-1", "2X", "G", "2.5G", "1e9", "99999999999T"])
def test_bad_gpu_memory_exits_2(apsp, small, cap):
    r = apsp("solve", "g.gr", "--backend", "cpu", "--gpu-memory", cap)
    assert r.rc == 2, r
    assert "gpu-memory" in r.err or "byte size" in r.err, r


@pytest.mark.parametrize("devices", ["all", "0", "0,1", "3,1,2"])
def test_devices_accepted_with_cpu_backend(apsp, small, devices):
    r = apsp("solve", "g.gr", "--backend", "cpu", "--devices", devices, "-o", "d.npy")
    assert r.rc == 0, r


@pytest.mark.parametrize("devices", ["", "x", "0,", ",1", "-1", "0,0", "1;2", "all,0"])
def test_bad_devices_exit_2(apsp, small, devices):
    r = apsp("solve", "g.gr", "--backend", "cpu", "--devices", devices)
    assert r.rc == 2, r


def test_info_plans_with_gpu_options(apsp, small):
    r = apsp("info", "g.gr", "--gpu-memory", "64M", "--devices", "all", "--json")
    assert r.rc == 0, r
    assert json.loads(r.out)["plans"], r


# --- CUDA's work queues (CUDA_DEVICE_MAX_CONNECTIONS) -------------------------------------------
# `apsp solve` asks CUDA for 1 work queue before it starts for graphs that declare at most
# 10,000 vertices, 2 up to 20,000, for a solve on at most one named device without a memory cap,
# unless the variable is already set; APSP_TRACE=1 prints the decision. Without a GPU the cuda
# back end is refused after it, which these tests accept: they check the decision only.
QUEUES_LINE = "solve: CUDA_DEVICE_MAX_CONNECTIONS=1"


def traced(extra=None):
    env = {k: v for k, v in os.environ.items() if k != "CUDA_DEVICE_MAX_CONNECTIONS"}
    env["APSP_TRACE"] = "1"
    env.update(extra or {})
    return env


def test_queues_narrowed_for_a_small_graph(apsp, small, tmp_path):
    r = apsp("solve", "g.gr", "-o", "d.npy", env=traced())
    assert r.rc == 0, r
    assert QUEUES_LINE in r.err, r
    assert np.load(tmp_path / "d.npy")[0, 3] == 12


@pytest.mark.parametrize("n, queues", [(10000, "1"), (10001, "2"), (20000, "2"), (20001, None)])
def test_queues_follow_the_declared_vertex_count(apsp, tmp_path, n, queues):
    write_gr(tmp_path / "big.gr", n, [(1, 2, 3)])
    r = apsp("solve", "big.gr", "--backend", "cuda", "-q", env=traced())
    lines = [x for x in r.err.splitlines() if "CUDA_DEVICE_MAX_CONNECTIONS" in x]
    if queues is None:
        assert lines == [], r
    else:
        assert len(lines) == 1 and lines[0].endswith("CUDA_DEVICE_MAX_CONNECTIONS=" + queues), r


@pytest.mark.parametrize("args, extra", [
    (["--backend", "cpu"], None),
    (["--devices", "0,1", "--backend", "cuda"], None),
    (["--gpu-memory", "1G", "--backend", "cuda"], None),
    ([], {"CUDA_DEVICE_MAX_CONNECTIONS": "8"}),
])
def test_queues_left_alone(apsp, small, args, extra):
    r = apsp("solve", "g.gr", *args, "-q", env=traced(extra))
    assert "trace: " in r.err, r
    assert "CUDA_DEVICE_MAX_CONNECTIONS" not in r.err, r


# --- Which runs start CUDA's driver at all ----------------------------------------------------
# CUDA's runtime loads the driver (libcuda.so.1) when first asked anything, even only whether a
# device exists, and that start (cuInit) and its teardown at the exit cost 0.1-0.3 s. The glibc
# loader's LD_DEBUG=libs names every library it looks for, found or not, so these hold on
# machines without a driver too.
def loader_trace():
    return dict(os.environ, LD_DEBUG="libs")


def test_named_cpu_backend_never_starts_cuda(apsp, small):
    r = apsp("solve", "g.gr", "--backend", "cpu", "-q", env=loader_trace())
    assert r.rc == 0, r
    assert "libcuda.so" not in r.err, r.err[-2000:]


def test_small_graph_under_auto_never_starts_cuda(apsp, small):
    r = apsp("solve", "g.gr", "-q", env=loader_trace())
    assert r.rc == 0, r
    assert "libcuda.so" not in r.err, r.err[-2000:]


def test_named_cuda_backend_looks_for_the_driver(apsp, small):
    # The control for the two above: the loader's trace does show the driver's search.
    r = apsp("solve", "g.gr", "--backend", "cuda", "-q", env=loader_trace())
    assert "libcuda.so" in r.err, r
