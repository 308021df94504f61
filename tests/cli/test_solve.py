"""apsp solve: outputs checked against SciPy, the course-binary layout, the JSON summary."""

import json
import struct

import numpy as np
import pytest

from conftest import assert_error
from graph_files import random_edges, reference_distances, write_course, write_gr

INT32_INF = 1073741823


def expected_int(n, edges, one_based=True, inf=INT32_INF):
    d = reference_distances(n, edges, one_based)
    return np.where(np.isinf(d), inf, d).astype(np.int64)


@pytest.mark.parametrize("seed, n, m, low", [(1, 1, 0, 0), (2, 31, 120, 0), (3, 65, 400, 0),
                                              (4, 150, 900, 0), (5, 97, 500, -20)])
def test_solve_npy_matches_scipy(apsp, tmp_path, seed, n, m, low):
    rng = np.random.default_rng(seed)
    edges = random_edges(rng, n, m, low=low, high=100)
    if low < 0:
        # Negative edges without negative cycles: reweight non-negative weights by potentials.
        p = rng.integers(0, 60, n + 1)
        edges = [(u, v, abs(w) + p[u] - p[v]) for u, v, w in edges if u != v]
    write_gr(tmp_path / "g.gr", n, edges)
    r = apsp("solve", "g.gr", "-o", "d.npy", "--paths", "via.npy", "--quiet")
    assert r.rc == 0 and r.out == "" and r.err == "", (seed, r)
    d = np.load(tmp_path / "d.npy")
    assert d.dtype == np.int32 and d.shape == (n, n)
    np.testing.assert_array_equal(d, expected_int(n, edges), err_msg=f"seed {seed}")
    via = np.load(tmp_path / "via.npy")
    assert via.dtype == np.int32 and via.shape == (n, n)
    assert ((via >= -1) & (via < n)).all()


@pytest.mark.parametrize("dtype, np_dtype, inf", [("float32", np.float32, np.inf),
                                                  ("float64", np.float64, np.inf),
                                                  ("int64", np.int64, 2**62 - 1)])
def test_solve_keeps_the_dtype(apsp, tmp_path, dtype, np_dtype, inf):
    rng = np.random.default_rng(7)
    edges = random_edges(rng, 40, 150)
    write_gr(tmp_path / "g.gr", 40, edges)
    assert apsp("solve", "g.gr", "-o", "d.npy", "--dtype", dtype, "-q").rc == 0
    d = np.load(tmp_path / "d.npy")
    assert d.dtype == np_dtype
    ref = reference_distances(40, edges)
    got = np.where(d >= inf, np.inf, d.astype(np.float64)) if dtype == "int64" else d
    np.testing.assert_array_equal(got, ref)


def test_course_binary_output_byte_layout(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 5), (2, 3, 7)])
    expected = struct.pack("<9i", 0, 5, 12, INT32_INF, 0, 7, INT32_INF, INT32_INF, 0)
    assert apsp("solve", "g.gr", "-o", "out.bin", "-q").rc == 0
    assert (tmp_path / "out.bin").read_bytes() == expected
    # Any name with --output-format.
    assert apsp("solve", "g.gr", "-o", "out.dat", "--output-format", "course-binary").rc == 0
    assert (tmp_path / "out.dat").read_bytes() == expected


def test_course_binary_in_and_out_matches_scipy(apsp, tmp_path):
    rng = np.random.default_rng(11)
    n = 70
    edges = random_edges(rng, n, 300, one_based=False)
    write_course(tmp_path / "g.bin", n, edges)
    assert apsp("solve", "g.bin", "-o", "out.course", "-q").rc == 0
    raw = (tmp_path / "out.course").read_bytes()
    assert len(raw) == 4 * n * n
    d = np.frombuffer(raw, dtype="<i4").reshape(n, n)
    np.testing.assert_array_equal(d, expected_int(n, edges, one_based=False))


def test_csv_output(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 5), (2, 3, 7)])
    assert apsp("solve", "g.gr", "-o", "d.csv", "-q").rc == 0
    text = (tmp_path / "d.csv").read_text()
    assert "12" in text and len(text.strip().splitlines()) >= 3


def test_summary_and_json(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 4, [(1, 2, 1), (2, 3, 2), (1, 3, 5), (3, 4, 1), (4, 1, -1)])
    r = apsp("solve", "g.gr")
    assert r.rc == 0 and r.err == "", r
    # d = [[0,1,3,4],[2,0,2,3],[0,1,0,1],[-1,0,2,0]]: 12 pairs, sum 18, max 4.
    assert "12 of 12" in r.out and "sum 18" in r.out and "max 4" in r.out, r
    r = apsp("solve", "g.gr", "--json", "-o", "d.npy", "--paths", "v.npy", "--backend",
             "reference")
    assert r.rc == 0 and r.err == "", r
    s = json.loads(r.out)
    assert s["n"] == 4 and s["m"] == 4 + 1 and s["backend"] == "reference"
    assert s["dtype"] == "int32" and s["rounds"] >= 1 and s["block"] >= 1
    assert s["reachable_pairs"] == 12 and s["distance_sum"] == 18 and s["max_distance"] == 4
    assert set(s["seconds"]) == {"read", "setup", "solve", "finish", "write"}
    assert s["peak_memory_bytes"] > 0 and s["updates_per_second"] >= 0
    assert s["outputs"] == {"distances": "d.npy", "paths": "v.npy"}
    assert isinstance(s["device"], str) and s["device"]


def test_negative_cycle_is_exit_4_in_file_ids_and_writes_nothing(apsp, tmp_path):
    write_gr(tmp_path / "neg.gr", 4, [(1, 2, 1), (2, 3, -2), (3, 2, 1), (3, 4, 1)])
    for backend in ["reference", "cpu"]:
        r = apsp("solve", "neg.gr", "-o", "d.npy", "--paths", "v.npy", "--backend", backend)
        assert_error(r, 4, "neg.gr", "negative cycle", "vertices 2, 3 (")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["neg.gr"]
    # Edge lists keep their own ids.
    (tmp_path / "neg.txt").write_text("100 200 1\n200 300 -2\n300 200 1\n300 400 1\n")
    assert_error(apsp("path", "neg.txt", "100", "400"), 4, "vertices 200, 300 (")
    assert_error(apsp("verify", "neg.txt", "missing.npy"), 3, "missing.npy")


def test_solve_without_output_writes_no_file(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 5)])
    assert apsp("solve", "g.gr", "-q").rc == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.gr"]


def test_course_binary_refuses_unrepresentable_float_result(apsp, tmp_path):
    (tmp_path / "f.csv").write_text("source,target,weight\na,b,0.5\n")
    r = apsp("solve", "f.csv", "--dtype", "float64", "-o", "d.bin")
    assert r.rc != 0 and r.err.startswith("apsp: error: "), r
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.csv"]


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_summary_statistics_match_the_written_matrix(apsp, tmp_path, dtype):
    # Negative distances (the largest off-diagonal one is below 0 in the last component, so a
    # diagonal 0 must not count as the max), unreachable pairs and rows of every length class.
    edges = [(1, 2, -3), (2, 1, 4), (3, 4, -2), (4, 5, -2), (5, 3, 5)]
    rng = np.random.default_rng(5)
    edges += [(u, v, w) for u, v, w in random_edges(rng, 37, 200) if u > 5 and v > 5]
    write_gr(tmp_path / "g.gr", 37, edges)
    r = apsp("solve", "g.gr", "--json", "-o", "d.npy", "--dtype", dtype, "--backend", "cpu",
             "--algorithm", "fw")
    assert r.rc == 0, r
    s = json.loads(r.out)
    d = np.load(tmp_path / "d.npy").astype(np.float64)
    off = ~np.eye(37, dtype=bool)
    unreachable = np.isinf(d) if dtype.startswith("float") else d >= 2**30 - 1 if \
        dtype == "int32" else d >= 2**62 - 1
    finite = off & ~unreachable
    assert s["reachable_pairs"] == int(finite.sum())
    assert s["distance_sum"] == pytest.approx(float(d[finite].sum()), rel=1e-12)
    assert s["max_distance"] == pytest.approx(float(d[finite].max()))
    # Only one finite off-diagonal distance, and it is negative: the diagonal's 0 is no pair.
    write_gr(tmp_path / "g2.gr", 3, [(1, 2, -3)])
    r = apsp("solve", "g2.gr", "--json", "--dtype", dtype, "--backend", "cpu")
    s = json.loads(r.out)
    assert (s["reachable_pairs"], s["distance_sum"], s["max_distance"]) == (1, -3, -3), s
