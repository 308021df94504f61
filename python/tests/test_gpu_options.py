"""apsp.solve(devices=..., gpu_memory=...): checked in Python, accepted (and without effect) by
the cpu and reference back ends, honoured by the cuda one (tests/cli/test_gpu_options.py does
the same for the CLI's --devices and --gpu-memory)."""

import numpy as np
import pytest
import scipy.sparse as sp

import apsp
from conftest import cuda_available, random_dense


@pytest.mark.parametrize("backend", ["cpu", "reference"])
@pytest.mark.parametrize("kwargs", [
    dict(devices=[0], gpu_memory="1G"),
    dict(devices="all", gpu_memory=1 << 20),
    dict(devices=(3, 1, 2), gpu_memory="2GiB"),
    dict(devices=np.array([1, 0]), gpu_memory="1536k"),
    dict(devices=None, gpu_memory="512MB"),
    dict(devices=[np.int64(0)], gpu_memory=None),
])
def test_accepted_and_without_effect_off_cuda(backend, kwargs):
    a = random_dense(40, 0.2, 301)
    expect = apsp.solve(a, backend=backend)
    r = apsp.solve(a, backend=backend, **kwargs)
    assert r.backend == backend
    np.testing.assert_array_equal(r.distances, expect.distances)
    np.testing.assert_array_equal(r.predecessors, expect.predecessors)


def test_accepted_for_every_input_kind():
    a = random_dense(30, 0.2, 302)
    expect = apsp.floyd_warshall(a, backend="cpu")
    src, dst = np.nonzero(a)
    graph_file = apsp.Graph(30, src, dst, a[src, dst])
    for graph in (a, np.ma.masked_equal(a, 0), sp.csr_matrix(a), graph_file):
        r = apsp.solve(graph, backend="cpu", devices=[0], gpu_memory="1G")
        np.testing.assert_array_equal(r.distances, expect)


@pytest.mark.parametrize("cap, expect", [
    ("2G", 2 << 30), ("512M", 512 << 20), ("1536K", 1536 << 10), ("2GiB", 2 << 30),
    ("1T", 1 << 40), ("3g", 3 << 30), ("4mib", 4 << 20), ("7kB", 7 << 10), ("1048576", 1 << 20),
    ("100B", 100), (" 2 G ", 2 << 30), (4096, 4096), (np.uint64(8), 8),
])
def test_gpu_memory_spellings(cap, expect):
    from apsp import _inputs
    assert _inputs.normalize_gpu_memory(cap) == expect
    apsp.solve(np.eye(3), backend="cpu", gpu_memory=cap)


@pytest.mark.parametrize("cap", [
    "", "0", "-1", "2X", "G", "2.5G", "1e9", "1iB", "2GiBs", "0x10", "2 G B", "99999999999T",
    0, -5, 2**64,
])
def test_bad_gpu_memory_is_value_error(cap):
    with pytest.raises(ValueError, match="gpu_memory"):
        apsp.solve(np.eye(3), backend="cpu", gpu_memory=cap)


@pytest.mark.parametrize("cap", [1.5e9, 2.0, True, [1], b"2G"])
def test_gpu_memory_of_wrong_type_is_type_error(cap):
    with pytest.raises(TypeError, match="gpu_memory"):
        apsp.solve(np.eye(3), backend="cpu", gpu_memory=cap)


@pytest.mark.parametrize("devices, error, match", [
    (0, TypeError, r"devices=\[0\]"),
    (1.0, TypeError, "devices"),
    (object(), TypeError, "devices"),
    ([0, "1"], TypeError, "ints"),
    ([0.0], TypeError, "ints"),
    ([True], TypeError, "ints"),
    ("0,1", ValueError, "'all'"),
    ("ALL", ValueError, "'all'"),
    ([-1], ValueError, ">= 0"),
    ([0, -2], ValueError, ">= 0"),
    ([0, 1, 0], ValueError, "listed twice"),
    ([], ValueError, "at least one"),
    ([2**31], ValueError, "out of range"),
])
def test_bad_devices(devices, error, match):
    with pytest.raises(error, match=match):
        apsp.solve(np.eye(3), backend="cpu", devices=devices)


def test_only_solve_takes_them():
    # floyd_warshall and shortest_path keep SciPy's signatures.
    for f in (apsp.floyd_warshall, apsp.shortest_path):
        with pytest.raises(TypeError):
            f(np.eye(3), devices=[0])
        with pytest.raises(TypeError):
            f(np.eye(3), gpu_memory="1G")


@pytest.mark.skipif(not cuda_available(), reason="no usable cuda back end")
def test_cuda_gpu_memory_cap_solves_out_of_core():
    # 600 float32 vertices pad to 640 x 640 (1.6 MB) on the device: above a 1 MiB cap, so the
    # matrix stays in host memory and streams through the GPU in 128-wide outer blocks.
    a = random_dense(600, 0.05, 303)
    expect = apsp.solve(a, backend="cpu", dtype="float32", paths=False).distances
    r = apsp.solve(a, backend="cuda", dtype="float32", paths=False, devices=[0],
                   gpu_memory="1M")
    assert r.backend == "cuda"
    assert "out-of-core" in r.device, r.device
    np.testing.assert_array_equal(r.distances, expect)


def test_release_devices_between_solves():
    # Off the GPU a no-op; on one, the next cuda solve starts its context again.
    a = random_dense(300, 0.05, 303)
    expect = apsp.floyd_warshall(a, backend="cpu")
    apsp.release_devices()
    apsp.release_devices()
    np.testing.assert_array_equal(apsp.floyd_warshall(a, backend="cpu"), expect)
    if cuda_available():
        first = apsp.floyd_warshall(a, backend="cuda", dtype="float32")
        apsp.release_devices()
        again = apsp.floyd_warshall(a, backend="cuda", dtype="float32")
        np.testing.assert_allclose(first, expect, rtol=1e-5)
        np.testing.assert_array_equal(again, first)


@pytest.mark.skipif(not cuda_available(), reason="no usable cuda back end")
def test_cuda_supernodal_from_python():
    # The supernodal Floyd-Warshall on the GPU, asked for and chosen by auto on a lattice (a
    # road network's shape): the cpu's answers and a valid path.
    n = 30
    rng = np.random.default_rng(7)
    rows, cols = [], []
    for i in range(n * n):
        if (i + 1) % n:
            rows += [i, i + 1]
            cols += [i + 1, i]
        if i + n < n * n:
            rows += [i, i + n]
            cols += [i + n, i]
    w = rng.integers(1, 100, len(rows)).astype(np.float64)
    g = sp.csr_matrix((w, (rows, cols)), shape=(n * n, n * n))
    expect = apsp.solve(g, backend="cpu", algorithm="fw", dtype="int32", paths=False).distances
    r = apsp.solve(g, backend="cuda", algorithm="supernodal", dtype="int32")
    assert r.backend == "cuda" and r.algorithm == "supernodal", (r.backend, r.algorithm)
    np.testing.assert_array_equal(r.distances, expect)
    p = r.path(0, n * n - 1)
    assert p[0] == 0 and p[-1] == n * n - 1
    assert sum(g[a, b] for a, b in zip(p, p[1:])) == expect[0, n * n - 1]
