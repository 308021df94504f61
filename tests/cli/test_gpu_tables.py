"""`apsp info/solve G --sources S --targets T --backend cuda` on a road-like int32 graph: RPHAST's
table on the GPU (drivers::cuda_table, algorithm "rphast", engine "cuda_rphast_table"), equal to
SciPy's Dijkstra and to the cpu's table, where a GPU is present; without one the solve is refused
as unavailable (exit 6). Other weight types never plan it (checked where a GPU is)."""

import json

import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra

from conftest import assert_error
from test_dtype_narrow import cuda_available
from test_table_tiles import ids_file, loaded, road_grid


def table_args(tmp_path, n):
    rng = np.random.default_rng(5)
    sources = rng.integers(0, n, 333)  # repeats likely; no multiple of the lanes
    targets = rng.integers(0, n, 250)
    args = ["g.gr", "--sources", ids_file(tmp_path / "s.txt", sources), "--targets",
            ids_file(tmp_path / "t.txt", targets), "--threads", "2"]
    return args, sources, targets


def test_backend_cuda_tables_run_rphast_on_the_gpu(apsp, tmp_path):
    n, csr = road_grid(tmp_path, 80, 6)  # 6,400 vertices: road-like
    args, sources, targets = table_args(tmp_path, n)
    if not cuda_available(apsp, tmp_path):
        r = apsp("solve", *args, "--backend", "cuda", "-o", "d.npy")
        assert_error(r, 6, "back end 'cuda' is unavailable")
        return
    r = apsp("info", *args, "--backend", "cuda", "--json")
    assert r.rc == 0, r
    plan = json.loads(r.out)["block"]["plan"]
    assert plan["driver"].startswith("cuda rphast table, device 0"), plan
    assert plan["algorithm"] == "rphast" and plan["backend"] == "cuda", plan
    r = apsp("solve", *args, "--backend", "cuda", "-o", "d.npy", "--json")
    assert r.rc == 0, r
    report = json.loads(r.out)
    assert report["engine"] == "cuda_rphast_table", report
    got = loaded(tmp_path / "d.npy")
    np.testing.assert_array_equal(got, dijkstra(csr, indices=sources)[:, targets])
    r = apsp("solve", *args, "--backend", "cpu", "-o", "c.npy")
    assert r.rc == 0, r
    assert (np.load(tmp_path / "c.npy") == np.load(tmp_path / "d.npy")).all()


def test_other_types_never_plan_rphast_on_the_gpu(apsp, tmp_path):
    n, _ = road_grid(tmp_path, 80, 6)
    args, _, _ = table_args(tmp_path, n)
    if not cuda_available(apsp, tmp_path):
        pytest.skip("no CUDA device: apsp info plans nothing for --backend cuda")
    for dtype in ("float32", "int64"):
        r = apsp("info", *args, "--backend", "cuda", "--dtype", dtype, "--json")
        assert r.rc == 0, r
        plan = json.loads(r.out)["block"]["plan"]
        assert "rphast" not in plan["driver"], plan
