"""apsp solve --map-output: the solve works inside the output file (memory-mapped), which must
end byte-identical to the ordinary output; failures leave nothing behind."""

import numpy as np
import pytest

from conftest import assert_error
from graph_files import random_edges, write_gr


@pytest.mark.parametrize("out, dtype", [("d.npy", "int32"), ("d.npy", "float64"),
                                        ("d.npy", "float32"), ("d.bin", "int32")])
def test_map_output_is_byte_identical(apsp, tmp_path, out, dtype):
    rng = np.random.default_rng(7)
    edges = random_edges(rng, 80, 500, low=0, high=50)
    write_gr(tmp_path / "g.gr", 80, edges)
    plain = apsp("solve", "g.gr", "-o", "plain_" + out, "--dtype", dtype, "--quiet")
    assert plain.rc == 0, plain
    mapped = apsp("solve", "g.gr", "-o", out, "--dtype", dtype, "--map-output", "--quiet")
    assert mapped.rc == 0, mapped
    assert (tmp_path / out).read_bytes() == (tmp_path / ("plain_" + out)).read_bytes()
    assert not list(tmp_path.glob("*.apsp-partial*"))


def test_map_output_puts_the_path_matrix_in_its_file_too(apsp, tmp_path):
    rng = np.random.default_rng(8)
    edges = random_edges(rng, 90, 700, low=0, high=30)
    write_gr(tmp_path / "g.gr", 90, edges)
    plain = apsp("solve", "g.gr", "-o", "plain.npy", "--paths", "plain_via.npy", "--quiet")
    assert plain.rc == 0, plain
    mapped = apsp("solve", "g.gr", "-o", "d.npy", "--paths", "via.npy", "--map-output", "--quiet")
    assert mapped.rc == 0, mapped
    assert (tmp_path / "via.npy").read_bytes() == (tmp_path / "plain_via.npy").read_bytes()
    assert (tmp_path / "d.npy").read_bytes() == (tmp_path / "plain.npy").read_bytes()
    via = np.load(tmp_path / "via.npy")
    assert via.dtype == np.int32 and via.shape == (90, 90) and (via >= 0).any()
    assert not list(tmp_path.glob("*.apsp-partial*"))


def test_map_output_with_paths_negative_cycle_leaves_nothing(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 1), (2, 3, -3), (3, 1, 1)])
    r = apsp("solve", "g.gr", "-o", "d.npy", "--paths", "v.npy", "--map-output")
    assert_error(r, 4, "negative cycle")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.gr"]


def test_map_output_refuses_csv_and_leaves_nothing(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 4), (2, 3, 1)])
    r = apsp("solve", "g.gr", "-o", "d.csv", "--map-output")
    assert r.rc == 2, r
    assert "in place" in r.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.gr"]


def test_map_output_refuses_a_course_binary_of_another_dtype_before_reading(apsp, tmp_path):
    # Known from the arguments: refused (exit 2) before the input is read, so a malformed or
    # missing input does not hide it.
    r = apsp("solve", "missing.gr", "-o", "d.bin", "--dtype", "float64", "--map-output")
    assert_error(r, 2, "a float64 distance matrix in place as course-binary")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_map_output_negative_cycle_leaves_nothing(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 1), (2, 3, -3), (3, 1, 1)])
    r = apsp("solve", "g.gr", "-o", "d.npy", "--map-output")
    assert_error(r, 4, "negative cycle")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.gr"]


def test_map_output_needs_an_output(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 2, [(1, 2, 4)])
    r = apsp("solve", "g.gr", "--map-output")
    assert r.rc == 2, r


# --- The output prefilled while a GPU starts (APSP_OUTPUT_PREFILL=1 forces it on any machine) --
# apsp solve creates the in-place output file and puts its pages in memory before it knows
# whether the solve will work in it; kept when it does, removed when it does not.
def prefill_env(mode):
    import os
    env = dict(os.environ)
    env.update({"APSP_OUTPUT_PREFILL": mode, "APSP_TRACE": "1"})
    return env


@pytest.mark.parametrize("extra", [["--map-output"], [], ["--map-output", "--paths", "via.npy"],
                                   ["--paths", "via.npy"]])
def test_prefilled_output_is_byte_identical(apsp, tmp_path, extra):
    rng = np.random.default_rng(11)
    write_gr(tmp_path / "g.gr", 150, random_edges(rng, 150, 1500, low=1, high=40))
    plain = apsp("solve", "g.gr", "-o", "plain.npy", "--quiet", *[x.replace("via", "plain_via")
                                                                   for x in extra],
                 env=prefill_env("0"))
    assert plain.rc == 0, plain
    assert "output prefill" not in plain.err, plain
    r = apsp("solve", "g.gr", "-o", "d.npy", "--quiet", *extra, env=prefill_env("1"))
    assert r.rc == 0, r
    assert "solve: output prefill started" in r.err and "solve: output prefill joined" in r.err, r
    assert (tmp_path / "d.npy").read_bytes() == (tmp_path / "plain.npy").read_bytes()
    if "--paths" in extra:
        assert (tmp_path / "via.npy").read_bytes() == (tmp_path / "plain_via.npy").read_bytes()
    # Kept or dropped, no partial file stays behind.
    assert not list(tmp_path.glob("*apsp-partial*")), list(tmp_path.iterdir())


def test_prefilled_output_of_a_failed_solve_leaves_nothing(apsp, tmp_path):
    write_gr(tmp_path / "neg.gr", 4, [(1, 2, 1), (2, 3, -5), (3, 1, 1), (3, 4, 2)])
    (tmp_path / "d.npy").write_bytes(b"old")
    r = apsp("solve", "neg.gr", "-o", "d.npy", "--map-output", "--paths", "via.npy",
             env=prefill_env("1"))
    assert r.rc == 4, r
    assert "solve: output prefill started" in r.err, r
    assert (tmp_path / "d.npy").read_bytes() == b"old"
    assert not (tmp_path / "via.npy").exists()
    assert not list(tmp_path.glob("*apsp-partial*")), list(tmp_path.iterdir())


def test_prefill_skips_outputs_it_cannot_solve_in(apsp, tmp_path):
    # CSV (written at the end) and --no-map-output never get a prefilled file.
    rng = np.random.default_rng(12)
    write_gr(tmp_path / "g.gr", 30, random_edges(rng, 30, 100, low=1, high=9))
    for args in (["-o", "d.csv"], ["-o", "d.npy", "--no-map-output"]):
        r = apsp("solve", "g.gr", "--quiet", *args, env=prefill_env("1"))
        assert r.rc == 0, r
        assert "output prefill" not in r.err, r
