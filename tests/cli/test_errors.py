"""Exit codes and messages: usage errors, every class of malformed input, memory limits."""

import os
import resource
import struct
import subprocess
import sys

import pytest

from conftest import assert_error
from graph_files import write_course, write_gr

GOOD_GR = "p sp 3 2\na 1 2 5\na 2 3 7\n"

# name -> file contents; each must be refused as bad input (exit 3).
MALFORMED = {
    "empty.gr": b"",
    "bad_header.gr": b"p xx 3 2\na 1 2 1\na 2 3 1\n",
    "arc_before_header.gr": b"a 1 2 1\np sp 3 1\n",
    "vertex_out_of_range.gr": b"p sp 3 1\na 1 7 2\n",
    "vertex_zero.gr": b"p sp 3 1\na 0 1 2\n",
    "negative_n.gr": b"p sp -3 1\na 1 2 1\n",
    "absurd_n.gr": b"p sp 99999999999999999999 1\na 1 2 1\n",
    "absurd_m.gr": b"p sp 3 999999999999999\na 1 2 1\n",
    "negative_m.gr": b"p sp 3 -1\n",
    "fewer_records.gr": b"p sp 3 3\na 1 2 1\na 2 3 1\n",
    "non_numeric.gr": b"p sp 3 1\na 1 x 2\n",
    "nan_weight.gr": b"p sp 2 1\na 1 2 nan\n",
    "nan_weight.txt": b"1 2 nan\n2 3 1\n",
    "inf_weight.txt": b"1 2 inf\n",
    "non_numeric_weight.csv": b"source,target,weight\na,b,heavy\n",
    "nan_weight.csv": b"source,target,weight\na,b,NaN\n",
    "short_row.csv": b"source,target,weight\na\n",
    "fewer_entries.mtx": b"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.5\n",
    "bad_banner.mtx": b"%%NotMatrixMarket\n3 3 1\n1 2 1\n",
    "truncated.bin": struct.pack("<iiiii", 3, 2, 0, 1, 5),
    "header_only.bin": struct.pack("<i", 3),
    "empty.bin": b"",
    "negative_n.bin": struct.pack("<ii", -5, 0),
    "absurd_m.bin": struct.pack("<ii", 3, 2**31 - 1),
    "vertex_out_of_range.bin": struct.pack("<iiiii", 2, 1, 0, 5, 1),
    "bad_magic.npy": b"NOTNUMPY" + b"\0" * 120,
}


def leftover(tmp_path, keep):
    return sorted(p.name for p in tmp_path.iterdir() if p.name not in keep)


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_input_is_exit_3_names_file_and_leaves_nothing(apsp, tmp_path, name):
    (tmp_path / name).write_bytes(MALFORMED[name])
    r = apsp("solve", name, "-o", "out.npy", "--paths", "via.npy")
    assert_error(r, 3, name)
    assert leftover(tmp_path, {name}) == []


@pytest.mark.parametrize("name", ["fewer_records.gr", "truncated.bin", "nan_weight.txt"])
def test_malformed_input_also_fails_info_path_convert_verify(apsp, tmp_path, name):
    (tmp_path / name).write_bytes(MALFORMED[name])
    assert_error(apsp("info", name), 3, name)
    assert_error(apsp("path", name, "1", "2"), 3, name)
    assert_error(apsp("convert", name, "out.gr"), 3, name)
    assert_error(apsp("verify", name, "whatever.npy"), 3, name)
    assert leftover(tmp_path, {name}) == []


def test_missing_input_file_is_exit_3(apsp, tmp_path):
    assert_error(apsp("solve", "no_such.gr"), 3, "no_such.gr", "cannot open")


def test_unreadable_input_file_is_exit_3(apsp, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root can read any file")
    p = tmp_path / "locked.gr"
    p.write_text(GOOD_GR)
    p.chmod(0)
    assert_error(apsp("solve", "locked.gr"), 3, "locked.gr")


def run_measured(apsp_bin, args, cwd):
    """Runs apsp from a fresh Python so RUSAGE_CHILDREN is this one process's peak RSS (KiB)."""
    probe = (
        "import resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=60)\n"
        "print(r.returncode)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.stderr.write(r.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", probe, apsp_bin, *args], cwd=cwd,
                          capture_output=True, text=True, timeout=90)
    rc, max_rss_kib = (int(x) for x in proc.stdout.split())
    return rc, max_rss_kib, proc.stderr


@pytest.mark.parametrize("n, dtype, codes", [
    (3_000_000, "int32", (3, 5)),  # the example: 36 TB
    (500_000, "int64", (5,)),      # 2 TB: readable, refused by the plan's memory check
])
def test_matrix_larger_than_memory_fails_fast_without_allocating(apsp_bin, tmp_path, n, dtype,
                                                                 codes):
    (tmp_path / "huge.gr").write_text(f"p sp {n} 1\na 1 2 1\n")
    rc, max_rss_kib, err = run_measured(
        apsp_bin, ["solve", "huge.gr", "-o", "out.npy", "--dtype", dtype], tmp_path)
    assert rc in codes, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("apsp: error: "), err
    assert "huge.gr" in lines[0], err
    assert "memory" in lines[0] or "too large" in lines[0], err
    assert max_rss_kib < 256 * 1024, f"apsp touched {max_rss_kib} KiB"
    assert leftover(tmp_path, {"huge.gr"}) == []


def test_huge_course_binary_fails_fast(apsp, tmp_path):
    write_course(tmp_path / "huge.bin", 3_000_000, [(0, 1, 1)])
    r = apsp("solve", "huge.bin", "-o", "out.bin", timeout=60)
    assert r.rc in (3, 5), r
    assert_error(r, r.rc, "huge.bin")
    assert leftover(tmp_path, {"huge.bin"}) == []


def test_info_reports_that_a_huge_matrix_does_not_fit(apsp, tmp_path):
    (tmp_path / "huge.gr").write_text("p sp 500000 1\na 1 2 1\n")
    r = apsp("info", "huge.gr", "--json", "--dtype", "int64", timeout=60)
    assert r.rc == 0, r
    import json
    info = json.loads(r.out)
    assert info["n"] == 500_000
    cpu = next(p for p in info["plans"] if p["backend"] == "cpu")
    assert cpu["fits"] is False and cpu["host_bytes"] >= 8 * 500_000**2 and cpu["reason"]


@pytest.mark.parametrize("args, fragment", [
    ([], "subcommand"),
    (["bogus", "g.gr"], "unknown command 'bogus'"),
    (["solve"], "INPUT"),
    (["solve", "g.gr", "--bogus"], "--bogus"),
    (["solve", "g.gr", "--dtype", "int8"], "int8"),
    (["solve", "g.gr", "--backend", "gpu"], "gpu"),
    (["solve", "g.gr", "--block", "-4"], "--block"),
    (["solve", "g.gr", "--format", "xml"], "xml"),
    (["solve", "g.gr", "-o", "out.xyz"], "out.xyz"),
    (["solve", "g.gr", "-o", "out.gr"], "out.gr"),
    (["solve", "g.gr", "-o", "no_dir/out.npy"], "no_dir"),
    (["solve", "g.gr", "--output-format", "npy"], "-o"),
    (["path", "g.gr", "1"], "DST"),
    (["path", "g.gr", "1", "4"], "'4'"),
    (["path", "g.gr", "1", "3", "--dist", "d.npy"], "--via"),
    (["convert", "g.gr", "out.unknown"], "out.unknown"),
    (["verify", "g.gr", "d.npy", "--sources", "0"], "at least 1"),
])
def test_usage_errors_are_exit_2(apsp, tmp_path, args, fragment):
    (tmp_path / "g.gr").write_text(GOOD_GR)
    r = apsp(*args)
    assert_error(r, 2, fragment)
    assert leftover(tmp_path, {"g.gr"}) == []


def test_overflowing_int32_is_exit_3_and_int64_works(apsp, tmp_path):
    write_gr(tmp_path / "big.gr", 3, [(1, 2, 1_000_000_000), (2, 3, 1_000_000_000)])
    assert_error(apsp("solve", "big.gr", "-o", "d.npy"), 3, "big.gr", "int64")
    assert leftover(tmp_path, {"big.gr"}) == []
    r = apsp("path", "big.gr", "1", "3", "--dtype", "int64", "--json")
    assert r.rc == 0, r
    assert r.out.strip() == '{"source": 1, "target": 3, "length": 2000000000, "path": [1, 2, 3]}'


def test_weights_no_path_takes_do_not_refuse_int32(apsp, tmp_path):
    # A positive self-loop and the heavier of two parallel arcs lie on no shortest path: their
    # weights (beyond int32) are not counted, and the answer is that of the graph without them.
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 1), (1, 2, 5_000_000_000), (2, 3, 2),
                                    (3, 3, 9_000_000_000)])
    r = apsp("solve", "g.gr", "-o", "d.csv", "--no-csv-labels", "-q")
    assert r.rc == 0, r
    assert (tmp_path / "d.csv").read_text().split() == ["0,1,3", "inf,0,2", "inf,inf,0"]
    # ... while a heavy arc that a path takes is still refused
    write_gr(tmp_path / "h.gr", 3, [(1, 2, 1), (2, 3, 5_000_000_000), (3, 3, 1)])
    assert_error(apsp("solve", "h.gr", "-o", "h.csv"), 3, "h.gr", "5000000001")


def test_fractional_weights_need_a_float_dtype(apsp, tmp_path):
    (tmp_path / "f.csv").write_text("source,target,weight\na,b,0.5\n")
    assert_error(apsp("solve", "f.csv"), 3, "f.csv", "float")
    assert apsp("solve", "f.csv", "--dtype", "float32").rc == 0


def test_cuda_without_a_gpu_is_exit_6(apsp, tmp_path):
    import json
    (tmp_path / "g.gr").write_text(GOOD_GR)
    info = json.loads(apsp("info", "g.gr", "--json").out)
    if next(p for p in info["plans"] if p["backend"] == "cuda")["available"]:
        pytest.skip("this machine has a usable CUDA device")
    r = apsp("solve", "g.gr", "--backend", "cuda", "-o", "d.npy")
    assert_error(r, 6, "cuda")
    assert leftover(tmp_path, {"g.gr"}) == []
    # `path` searches the one pair on the cpu: the back end is ignored, with a warning.
    r = apsp("path", "g.gr", "1", "3", "--backend", "cuda")
    assert r.rc == 0 and r.err.startswith("apsp: warning: --backend cuda is ignored"), r


def test_help_lists_exit_codes_and_every_command_has_examples(apsp):
    r = apsp("--help")
    assert r.rc == 0 and "Exit codes:" in r.out and "130" in r.out, r
    for cmd in ["solve", "path", "info", "convert", "verify"]:
        assert cmd in r.out
        sub = apsp(cmd, "--help")
        assert sub.rc == 0 and "Examples:" in sub.out and f"apsp {cmd}" in sub.out, sub


def test_version(apsp):
    r = apsp("--version")
    assert r.rc == 0 and r.out.startswith("apsp 0."), r
