"""The real graphs of ../shared/data against the independently computed checksums in its
README (skipped when the data checkout is absent)."""

import json

import pytest


def solve_json(apsp, path, *extra):
    r = apsp("solve", path, "--json", *extra, timeout=240)
    assert r.rc == 0, r
    return json.loads(r.out)


def test_c_elegans_checksums(apsp, shared_data):
    path = shared_data / "c_elegans_hermaphrodite" / "edgelist.csv.gz"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    s = solve_json(apsp, path)
    assert (s["n"], s["reachable_pairs"], s["distance_sum"], s["max_distance"]) == (
        473, 219_952, 5_039_308, 378)
    # Without a weight column every edge weighs 1.
    s = solve_json(apsp, path, "--weight-column", "no_such_column")
    assert (s["reachable_pairs"], s["distance_sum"], s["max_distance"]) == (219_952, 978_234, 24)


def test_rome99_checksums_path_and_verify(apsp, shared_data, tmp_path):
    path = shared_data / "rome99.gr"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    s = solve_json(apsp, path, "-o", tmp_path / "d.npy", "--paths", tmp_path / "v.npy")
    assert (s["n"], s["reachable_pairs"], s["distance_sum"], s["max_distance"]) == (
        3353, 11_239_256, 160_839_610_183, 77_403)
    r = apsp("path", path, "1", "3353", "--json", "--dist", tmp_path / "d.npy", "--via",
             tmp_path / "v.npy")
    j = json.loads(r.out)
    assert j["length"] == 30_305 and j["path"][0] == 1 and j["path"][-1] == 3353, r
    r = apsp("verify", path, tmp_path / "d.npy", "--sources", "8")
    assert r.rc == 0 and r.out.startswith("OK"), r


@pytest.mark.parametrize("algorithm", ["johnson", "supernodal"])
def test_rome99_sparse_algorithm_checksums_and_paths(apsp, shared_data, tmp_path, algorithm):
    path = shared_data / "rome99.gr"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    s = solve_json(apsp, path, "--algorithm", algorithm, "-o", tmp_path / "d.npy", "--paths",
                   tmp_path / "v.npy")
    assert s["algorithm"] == algorithm
    assert (s["n"], s["reachable_pairs"], s["distance_sum"], s["max_distance"]) == (
        3353, 11_239_256, 160_839_610_183, 77_403)
    for src, dst, length in (("1", "3353", 30_305), ("785", "2982", 77_403)):
        r = apsp("path", path, src, dst, "--json", "--dist", tmp_path / "d.npy", "--via",
                 tmp_path / "v.npy")
        j = json.loads(r.out)
        assert j["length"] == length and j["path"][0] == int(src) and j["path"][-1] == int(dst), r
    r = apsp("verify", path, tmp_path / "d.npy", "--sources", "8")
    assert r.rc == 0 and r.out.startswith("OK"), r
