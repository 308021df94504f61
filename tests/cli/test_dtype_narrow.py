"""--dtype auto and --dtype int16 (packed 16-bit arithmetic on the cuda back end)."""

import json

import numpy as np
import pytest

from conftest import assert_error
from graph_files import random_edges, write_gr


def cuda_available(apsp, tmp_path):
    write_gr(tmp_path / "probe.gr", 2, [(1, 2, 1)])
    r = apsp("info", "probe.gr", "--json")
    assert r.rc == 0, r
    plans = json.loads(r.out)["plans"]
    return any(p["backend"] == "cuda" and p["available"] for p in plans)


def hop_graph(tmp_path, seed=7, n=90, m=400):
    rng = np.random.default_rng(seed)
    edges = [(u, v, 1) for u, v, _ in random_edges(rng, n, m)]
    return write_gr(tmp_path / "hops.gr", n, edges), n


def test_auto_on_cpu_matches_int32_and_does_not_narrow(apsp, tmp_path):
    hop_graph(tmp_path)
    r32 = apsp("solve", "hops.gr", "--backend", "cpu", "-o", "d32.npy", "--json")
    ra = apsp("solve", "hops.gr", "--backend", "cpu", "--dtype", "auto", "-o", "da.npy", "--json")
    assert r32.rc == 0 and ra.rc == 0, (r32, ra)
    ja = json.loads(ra.out)
    assert ja["dtype"] == "int32" and ja["narrow"] is False and ja["backend"] == "cpu", ra
    assert json.loads(r32.out)["narrow"] is False
    d32 = np.load(tmp_path / "d32.npy")
    da = np.load(tmp_path / "da.npy")
    assert da.dtype == np.int32
    np.testing.assert_array_equal(da, d32)
    assert ja["distance_sum"] == json.loads(r32.out)["distance_sum"]


def test_auto_with_fractional_weights_solves_in_float32(apsp, tmp_path):
    write_gr(tmp_path / "frac.gr", 3, [(1, 2, 0.5), (2, 3, 1.25)])
    r = apsp("solve", "frac.gr", "--backend", "cpu", "--dtype", "auto", "-o", "d.npy", "--json")
    assert r.rc == 0, r
    assert json.loads(r.out)["dtype"] == "float32"
    d = np.load(tmp_path / "d.npy")
    assert d.dtype == np.float32 and d[0, 2] == np.float32(1.75)
    # `path` resolves auto the same way.
    r = apsp("path", "frac.gr", "1", "3", "--backend", "cpu", "--dtype", "auto", "--json")
    assert r.rc == 0, r
    assert json.loads(r.out)["length"] == 1.75


def test_int16_without_gpu_is_refused_naming_cuda(apsp, tmp_path):
    if cuda_available(apsp, tmp_path):
        pytest.skip("a CUDA device is present: --dtype int16 runs there")
    hop_graph(tmp_path)
    r = apsp("solve", "hops.gr", "--dtype", "int16", "-o", "d.npy")
    assert_error(r, 6, "cuda", "int16")
    assert not (tmp_path / "d.npy").exists()
    # `path` searches the one pair on the cpu, where int16 means nothing: a usage error, as
    # `apsp paths` gives.
    r = apsp("path", "hops.gr", "1", "2", "--dtype", "int16")
    assert_error(r, 2, "cuda", "int32")


@pytest.mark.parametrize("backend", ["cpu", "reference"])
def test_int16_on_a_host_back_end_is_refused(apsp, tmp_path, backend):
    hop_graph(tmp_path)
    r = apsp("solve", "hops.gr", "--dtype", "int16", "--backend", backend)
    assert_error(r, 6, "cuda back end only", backend)


def test_int16_with_long_paths_is_refused_as_overflow(apsp, tmp_path):
    # A chain of 3 edges of weight 6000: paths reach 18000 > 16383.
    write_gr(tmp_path / "long.gr", 4, [(1, 2, 6000), (2, 3, 6000), (3, 4, 6000)])
    r = apsp("solve", "long.gr", "--dtype", "int16", "-o", "d.npy")
    assert_error(r, 3, "16383", "long.gr")
    assert not (tmp_path / "d.npy").exists()


def test_unknown_dtype_lists_the_cli_names(apsp, tmp_path):
    hop_graph(tmp_path)
    r = apsp("solve", "hops.gr", "--dtype", "int8")
    assert r.rc == 2, r
    assert "auto" in r.err and "int16" in r.err, r


def test_help_documents_auto_and_int16(apsp):
    r = apsp("solve", "--help")
    assert r.rc == 0, r
    assert "auto" in r.out and "int16" in r.out and "packed 16-bit" in r.out, r


def test_info_with_int16_shows_what_solve_refuses(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 4), (2, 3, 1)])
    j = json.loads(apsp("info", "g.gr", "--dtype", "int16", "--json").out)
    plans = {p["backend"]: p for p in j["plans"]}
    for name in ("cpu", "reference"):
        assert plans[name]["fits"] is False and "cuda back end only" in plans[name]["reason"], j
    if plans["cuda"]["available"]:
        assert j["auto"] == "cuda", j
    else:
        assert j["auto"].startswith("none (") and "cuda back end only" in j["auto"], j
        assert apsp("solve", "g.gr", "--dtype", "int16").rc == 6
