"""--algorithm: Johnson's output equals Floyd-Warshall's and SciPy's, its path matrix works with
`apsp path`, auto picks per graph and says why, and negative cycles are named in order."""

import json

import numpy as np
import pytest

from conftest import assert_error
from graph_files import grid_edges, random_edges, reference_distances, write_gr

INT32_INF = 1073741823


def negative_edges(rng, n, m):
    """Negative weights without negative cycles: non-negative ones shifted by potentials."""
    p = rng.integers(0, 60, n + 1)
    return [(u, v, w + p[u] - p[v]) for u, v, w in random_edges(rng, n, m) if u != v]


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("negative", [False, True])
def test_johnson_equals_fw_and_scipy(apsp, tmp_path, dtype, negative):
    rng = np.random.default_rng(21 if negative else 20)
    n = 120
    edges = negative_edges(rng, n, 500) if negative else random_edges(rng, n, 500)
    write_gr(tmp_path / "g.gr", n, edges)
    for algorithm in ("fw", "johnson"):
        r = apsp("solve", "g.gr", "--algorithm", algorithm, "--dtype", dtype, "-o",
                 f"{algorithm}.npy", "--json")
        assert r.rc == 0, r
        assert json.loads(r.out)["algorithm"] == algorithm
    fw = np.load(tmp_path / "fw.npy")
    johnson = np.load(tmp_path / "johnson.npy")
    assert johnson.dtype == fw.dtype
    ref = reference_distances(n, edges)
    if dtype.startswith("int"):
        np.testing.assert_array_equal(johnson, fw)  # bit-identical
        inf = INT32_INF if dtype == "int32" else 2**62 - 1
        finite = np.where(np.isinf(ref), 0, ref).astype(np.int64)  # 2**62 - 1 is not a double
        np.testing.assert_array_equal(np.where(np.isinf(ref), inf, finite), johnson)
    else:
        np.testing.assert_allclose(johnson, ref, rtol=1e-6)


def path_weight(edges, path):
    lightest = {}
    for u, v, w in edges:
        lightest[(u, v)] = min(w, lightest.get((u, v), w))
    return sum(lightest[(a, b)] for a, b in zip(path, path[1:]))


def test_johnson_paths_work_with_apsp_path(apsp, tmp_path):
    rng = np.random.default_rng(5)
    n = 80
    edges = negative_edges(rng, n, 300)
    write_gr(tmp_path / "g.gr", n, edges)
    r = apsp("solve", "g.gr", "--algorithm", "johnson", "-o", "d.npy", "--paths", "via.npy", "-q")
    assert r.rc == 0, r
    d = np.load(tmp_path / "d.npy")
    via = np.load(tmp_path / "via.npy")
    assert ((via >= -1) & (via < n)).all() and (np.diag(via) == -1).all()
    assert (via[d == INT32_INF] == -1).all()
    for src, dst in [(1, 2), (3, 70), (80, 1), (17, 45), (60, 60)]:
        r = apsp("path", "g.gr", str(src), str(dst), "--json", "--dist", "d.npy", "--via",
                 "via.npy")
        j = json.loads(r.out)
        if d[src - 1, dst - 1] == INT32_INF:
            assert j["path"] == [], r
            continue
        assert j["path"][0] == src and j["path"][-1] == dst, r
        assert j["length"] == d[src - 1, dst - 1] == path_weight(edges, j["path"]), r


@pytest.mark.parametrize("algorithm", ["johnson", "supernodal"])
def test_sparse_algorithms_in_a_mapped_output_file(apsp, tmp_path, algorithm):
    # Mapped (forced, and the default for outputs this small) and in RAM: the same bytes.
    rng = np.random.default_rng(8)
    edges = random_edges(rng, 150, 600)
    write_gr(tmp_path / "g.gr", 150, edges)
    for name, extra in (("ram.npy", ["--no-map-output"]), ("mapped.npy", ["--map-output"]),
                        ("auto.npy", [])):
        r = apsp("solve", "g.gr", "--algorithm", algorithm, "-o", name, "--paths", "v" + name,
                 "-q", *extra)
        assert r.rc == 0, r
    for name in ("mapped.npy", "auto.npy"):
        assert (tmp_path / name).read_bytes() == (tmp_path / "ram.npy").read_bytes(), name
        assert (tmp_path / ("v" + name)).read_bytes() == (tmp_path / "vram.npy").read_bytes()
    assert not list(tmp_path.glob("*.apsp-partial*"))


def test_auto_picks_per_graph_and_says_why(apsp, tmp_path):
    rng = np.random.default_rng(9)
    write_gr(tmp_path / "sparse.gr", 2000, random_edges(rng, 2000, 8000))
    write_gr(tmp_path / "dense.gr", 200, random_edges(rng, 200, 30000))
    for name, want in (("sparse.gr", "johnson"), ("dense.gr", "fw")):
        r = apsp("solve", name, "--backend", "cpu", "--json")
        assert r.rc == 0, r
        s = json.loads(r.out)
        assert s["algorithm"] == want, s
        assert s["algorithm_reason"].startswith("auto: n = "), s
        r = apsp("info", name, "--json")
        info = json.loads(r.out)
        assert info["auto_algorithm"] == want, info
        cpu = [p for p in info["plans"] if p["backend"] == "cpu"][0]
        assert cpu["algorithm"] == want, info
    # Checkpoints are Floyd-Warshall's, so auto keeps it there.
    r = apsp("solve", "sparse.gr", "--backend", "cpu", "--json", "--checkpoint", "ck")
    assert r.rc == 0 and json.loads(r.out)["algorithm"] == "fw", r


def test_auto_back_end_keeps_small_graphs_off_the_gpu(apsp, tmp_path):
    # Under --backend auto a graph the cpu solves before a GPU could start runs on the cpu, and
    # says so (on machines with and without a GPU); --devices names GPUs and turns the rule off.
    rng = np.random.default_rng(10)
    write_gr(tmp_path / "small.gr", 300, random_edges(rng, 300, 20000))
    r = apsp("solve", "small.gr", "-o", "d.npy", "--json")
    assert r.rc == 0, r
    s = json.loads(r.out)
    assert s["backend"] == "cpu", s
    assert "sooner than a GPU that has to start" in s["algorithm_reason"], s
    r = apsp("solve", "small.gr", "-o", "e.npy", "--devices", "0", "--json")
    assert r.rc == 0, r
    assert "sooner than a GPU" not in json.loads(r.out)["algorithm_reason"], r
    assert np.array_equal(np.load(tmp_path / "d.npy"), np.load(tmp_path / "e.npy"))


def test_negative_cycle_is_named_in_order(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 6, [(1, 2, 1), (2, 3, 2), (3, 4, -4), (4, 2, 1), (5, 6, 1)])
    for algorithm in ("johnson", "fw", "supernodal"):  # the same report from all
        r = apsp("solve", "g.gr", "--algorithm", algorithm)
        assert_error(r, 4, "through vertices 2, 3, 4 (ids as in the file); a cycle: "
                     "2 -> 3 -> 4 -> 2, total weight -1")


def test_johnson_refuses_what_it_cannot_do(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 5), (2, 3, 7)])
    r = apsp("solve", "g.gr", "--algorithm", "johnson", "--backend", "reference")
    assert_error(r, 6, "Johnson's algorithm runs on the cpu back end")
    r = apsp("solve", "g.gr", "--algorithm", "supernodal", "--backend", "reference")
    assert_error(r, 6, "the supernodal Floyd-Warshall runs on the cpu and cuda back ends")
    # On the GPU where there is one; refused as unavailable where there is none.
    r = apsp("solve", "g.gr", "-o", "d.npy", "--algorithm", "supernodal", "--backend", "cuda",
             "--json")
    if r.rc == 0:
        assert '"driver": "cuda supernodal, device 0"' in r.out, r
    else:
        assert_error(r, 6, "back end 'cuda' is unavailable")
    r = apsp("solve", "g.gr", "--algorithm", "supernodal", "--checkpoint", "ck")
    assert r.rc != 0 and "supernodal Floyd-Warshall has none" in r.err, r
    r = apsp("solve", "g.gr", "--algorithm", "dijkstra")
    assert r.rc == 2 and "dijkstra" in r.err, r
    r = apsp("solve", "--help")
    assert "--algorithm" in r.out and "johnson" in r.out, r


def test_supernodal_matches_fw_and_auto_picks_it_for_a_grid(apsp, tmp_path):
    rng = np.random.default_rng(21)
    write_gr(tmp_path / "grid.gr", 60 * 50, grid_edges(60, 50, rng))
    outs = {}
    for algorithm in ("fw", "supernodal"):
        r = apsp("solve", "grid.gr", "--backend", "cpu", "--algorithm", algorithm, "-o",
                 algorithm + ".npy", "--paths", "v" + algorithm + ".npy", "--json")
        assert r.rc == 0, r
        s = json.loads(r.out)
        assert s["algorithm"] == algorithm
        outs[algorithm] = np.load(tmp_path / (algorithm + ".npy"))
    have_metis = "METIS nested dissection" in s["device"]
    np.testing.assert_array_equal(outs["fw"], outs["supernodal"])
    r = apsp("path", "grid.gr", "1", "3000", "--json", "--dist", "supernodal.npy", "--via",
             "vsupernodal.npy")
    assert r.rc == 0 and json.loads(r.out)["length"] == outs["fw"][0, 2999], r
    if not have_metis:
        pytest.skip("built without METIS: auto does not weigh the supernodal solver")
    r = apsp("info", "grid.gr", "--json")
    info = json.loads(r.out)
    cpu = [p for p in info["plans"] if p["backend"] == "cpu"][0]
    assert cpu["algorithm"] == "supernodal", info
    assert "METIS nested dissection" in cpu["device"], info
    r = apsp("solve", "grid.gr", "--backend", "cpu", "--json")
    s = json.loads(r.out)
    assert s["algorithm"] == "supernodal" and "supernodal FW on cpu" in s["algorithm_reason"], s
