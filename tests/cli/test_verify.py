"""apsp verify: accepts correct matrices, names the first wrong entry of tampered ones."""

import numpy as np
import pytest

from conftest import assert_error
from graph_files import random_edges, reference_distances, write_gr


@pytest.fixture
def solved(apsp, tmp_path):
    rng = np.random.default_rng(3)
    edges = random_edges(rng, 60, 240, low=1, high=50)
    write_gr(tmp_path / "g.gr", 60, edges)
    assert apsp("solve", "g.gr", "-o", "d.npy", "-q").rc == 0
    return tmp_path, edges


def test_verify_ok(apsp, solved):
    r = apsp("verify", "g.gr", "d.npy")
    assert r.rc == 0 and r.out.startswith("OK: 16 of 60 rows") and "Dijkstra" in r.out, r
    r = apsp("verify", "g.gr", "d.npy", "--sources", "1000")
    assert r.rc == 0 and r.out.startswith("OK: 60 of 60 rows"), r


def test_verify_accepts_a_scipy_matrix_of_another_dtype(apsp, solved):
    tmp_path, edges = solved
    np.save(tmp_path / "ref.npy", reference_distances(60, edges))
    r = apsp("verify", "g.gr", "ref.npy", "--sources", "60")
    assert r.rc == 0 and "OK" in r.out, r


@pytest.mark.parametrize("row, col, delta", [(0, 7, 1), (0, 0, 1), (0, 33, -1)])
def test_verify_finds_tampered_entry_in_row_0(apsp, solved, row, col, delta):
    tmp_path, _ = solved
    d = np.load(tmp_path / "d.npy")
    d[row, col] += delta
    np.save(tmp_path / "bad.npy", d)
    r = apsp("verify", "g.gr", "bad.npy", "--sources", "1")
    assert_error(r, 7, "verification failed", "bad.npy", f"d[{row + 1}][{col + 1}] = {d[row, col]}")


def test_verify_finds_a_wrong_unreachable_entry(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 5)])
    assert apsp("solve", "g.gr", "-o", "d.bin", "-q").rc == 0
    assert apsp("verify", "g.gr", "d.bin", "--sources", "3").rc == 0
    raw = bytearray((tmp_path / "d.bin").read_bytes())
    raw[4 * 2:4 * 3] = (9).to_bytes(4, "little")  # d[0][2]: unreachable -> 9
    (tmp_path / "bad.bin").write_bytes(raw)
    assert_error(apsp("verify", "g.gr", "bad.bin"), 7, "d[1][3] = 9", "unreachable")


def test_verify_float_tolerance_and_size(apsp, solved):
    tmp_path, _ = solved
    d = np.load(tmp_path / "d.npy").astype(np.float64)
    d[d >= 1073741823] = np.inf
    assert np.isfinite(d[0, 5]) and d[0, 5] > 0
    d[0, 5] *= 1 + 1e-9
    np.save(tmp_path / "close.npy", d)
    assert apsp("verify", "g.gr", "close.npy").rc == 0
    d[0, 5] *= 1 + 1e-3
    np.save(tmp_path / "far.npy", d)
    assert_error(apsp("verify", "g.gr", "far.npy"), 7, "far.npy")
    np.save(tmp_path / "small.npy", d[:10, :10])
    assert_error(apsp("verify", "g.gr", "small.npy"), 7, "small.npy", "60")


def test_verify_with_negative_weights_uses_bellman_ford(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 4, [(1, 2, 3), (2, 3, -2), (1, 3, 2), (3, 4, -1), (4, 2, 4)])
    assert apsp("solve", "g.gr", "-o", "d.npy", "-q").rc == 0
    r = apsp("verify", "g.gr", "d.npy")
    assert r.rc == 0 and "Bellman-Ford" in r.out, r
    d = np.load(tmp_path / "d.npy")
    assert d[0, 3] == 0  # 1 -> 2 -> 3 -> 4 = 3 - 2 - 1


def test_verify_sample_is_deterministic_and_seeded(apsp, solved):
    tmp_path, _ = solved
    d = np.load(tmp_path / "d.npy")
    d[1:, :] = 0  # only row 0 is right
    np.save(tmp_path / "row0.npy", d)
    assert apsp("verify", "g.gr", "row0.npy", "--sources", "1").rc == 0
    a = apsp("verify", "g.gr", "row0.npy", "--sources", "2", "--seed", "5")
    b = apsp("verify", "g.gr", "row0.npy", "--sources", "2", "--seed", "5")
    assert a.rc == b.rc == 7 and a.err == b.err, (a, b)


def test_float32_rounding_of_long_paths_is_within_the_default_tolerance(apsp, tmp_path):
    n = 1200  # a two-way path graph: shortest paths of up to n - 1 float32 additions
    rng = np.random.default_rng(3)
    w = np.round(rng.uniform(0.1, 1.0, n - 1), 3)
    edges = [(i + 1, i + 2, w[i]) for i in range(n - 1)] + [(i + 2, i + 1, w[i])
                                                             for i in range(n - 1)]
    write_gr(tmp_path / "p.gr", n, edges)
    assert apsp("solve", "p.gr", "--dtype", "float32", "--algorithm", "fw", "--backend", "cpu",
                "-o", "f.npy", "-q").rc == 0
    r = apsp("verify", "p.gr", "f.npy", "--sources", "64")
    assert r.rc == 0, r
    assert f"relative tolerance {(n - 1) * 2.0**-24:.17g}"[:24] in r.out, r


@pytest.mark.parametrize("dtype, bad", [("float64", -np.inf), ("float32", np.nan),
                                        ("int32", 2**31 - 1), ("int64", 2**62)])
def test_unreachable_must_be_exactly_the_no_path_value(apsp, tmp_path, dtype, bad):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 4), (2, 3, 1)])
    assert apsp("solve", "g.gr", "-o", "d.npy", "--dtype", dtype, "-q").rc == 0
    d = np.load(tmp_path / "d.npy")
    d[2, 0] = bad  # 3 -> 1 has no path
    np.save(tmp_path / "d.npy", d)
    r = apsp("verify", "g.gr", "d.npy", "--sources", "3")
    assert_error(r, 7, "d[3][1]", "has length unreachable")
    assert "= unreachable" not in r.err, r


def test_tolerance_must_be_a_finite_number(apsp, solved):
    for bad in ("nan", "inf", "-1"):
        assert_error(apsp("verify", "g.gr", "d.npy", "--tolerance", bad), 2, "--tolerance")


def test_a_heavy_negative_cycle_is_reported_not_overflowed(apsp, tmp_path):
    # 99 arcs of -2^53 and one of +2^53 on a 100-cycle among 1,500 vertices: Bellman-Ford's
    # rounds would take the int64 sums past their range before the n-th; the check stops at the
    # first distance no simple path can have, and reports the cycle (exit 4).
    heavy = 2**53
    edges = [(v + 1, (v + 1) % 100 + 1, heavy if v == 99 else -heavy) for v in range(100)]
    # A positive self-loop on the last vertex (no distance changes): the header's 1,500 are used,
    # so no warning about an inflated header joins the error line.
    edges.append((1500, 1500, 1))
    write_gr(tmp_path / "g.gr", 1500, edges)
    np.save(tmp_path / "d.npy", np.zeros((1500, 1500), dtype=np.int64))
    assert_error(apsp("verify", "g.gr", "d.npy", "--sources", "3"), 4, "negative cycle")
    r = apsp("solve", "g.gr", "-o", "e.npy", "--dtype", "int64", "--algorithm", "johnson")
    assert_error(r, 4, "negative cycle")


def test_a_matrix_of_unknown_format_is_a_usage_error_naming_the_option(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 2, [(1, 2, 1)])
    (tmp_path / "d.dat").write_bytes(b"\x00" * 16)
    assert_error(apsp("verify", "g.gr", "d.dat"), 2, "'d.dat'", "--matrix-format")
    assert_error(apsp("verify", "g.gr", "missing.npy"), 3, "missing.npy", "cannot open")


@pytest.mark.parametrize("out, dtype", [("b.npy", "int32"), ("b.npy", "float64"),
                                        ("b.bin", "int32")])
def test_verify_checks_a_block_of_sources_and_targets(apsp, tmp_path, out, dtype):
    rng = np.random.default_rng(11)
    write_gr(tmp_path / "g.gr", 80, random_edges(rng, 80, 400, 1, 30))
    (tmp_path / "s.txt").write_text("3\n7\n7\n80\n")
    sets = ["--sources", "@s.txt", "--targets", "1,5,80"]
    r = apsp("solve", "g.gr", *sets, "-o", out, "--dtype", dtype, "-q")
    assert r.rc == 0, r
    block = ["--block-sources", "@s.txt", "--block-targets", "1,5,80"]
    r = apsp("verify", "g.gr", out, *block)
    assert r.rc == 0 and r.out.startswith(f"OK: all 4 x 3 entries of {out}"), r
    # One wrong entry is found and named in the file's ids (row 7, column 5).
    if out.endswith(".npy"):
        b = np.load(tmp_path / out)
        b[1, 1] += 1
        np.save(tmp_path / out, b)
    else:
        b = np.fromfile(tmp_path / out, dtype=np.int32).reshape(4, 3)
        b[1, 1] += 1
        b.tofile(tmp_path / out)
    r = apsp("verify", "g.gr", out, *block)
    assert_error(r, 7, f"{out} gives d[7][5] = ")
    # The shape must be the block's; --sources (a sample of a whole matrix) does not go with it.
    assert_error(apsp("verify", "g.gr", out, "--block-sources", "3,7"), 3, out, "2 x 80")
    r = apsp("verify", "g.gr", out, *block, "--sources", "3")
    assert r.rc == 2 and "excludes" in r.err, r


def test_verify_checks_a_block_of_targets_only(apsp, tmp_path):
    rng = np.random.default_rng(12)
    write_gr(tmp_path / "g.gr", 50, random_edges(rng, 50, 200, 1, 30))
    assert apsp("solve", "g.gr", "--targets", "2,9", "-o", "c.npy", "-q").rc == 0
    r = apsp("verify", "g.gr", "c.npy", "--block-targets", "2,9")
    assert r.rc == 0 and r.out.startswith("OK: all 50 x 2 entries of c.npy"), r
    assert_error(apsp("verify", "g.gr", "c.npy", "--block-targets", "2,99"), 2, "99")
