"""`python -m apsp` is the command-line tool: same output, same exit codes, the checksum of
rome99 that data/README.md (and ../shared/data/README.md) give."""

import json
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import apsp
from conftest import data_file


def run_module(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "apsp", *map(str, args)], capture_output=True,
                          text=True, timeout=300, **kwargs)


def documented_rome99_checksum():
    """(pairs, sum) of the row 'rome99, w as given' in ../shared/data/README.md when that
    folder exists, else in the bundled data/README.md (the same table, copied)."""
    shared = os.environ.get("APSP_SHARED_DATA")
    candidates = [pathlib.Path(shared) / "README.md"] if shared else []
    bundled = data_file("README.md")
    candidates += [bundled] if bundled else []
    for readme in candidates:
        if readme.is_file():
            for line in readme.read_text(encoding="utf-8").splitlines():
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if cells and cells[0] == "rome99, w as given":
                    return int(cells[2].replace(",", "")), int(cells[3].replace(",", ""))
    pytest.skip("no README.md with the rome99 checksums: neither ../shared/data (absent on "
                "users' machines) nor the bundled data/ folder was found")


def test_version_is_the_package_version():
    out = run_module("--version")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"apsp {apsp.__version__}"
    assert re.fullmatch(r"\d+\.\d+\.\d+", apsp.__version__)


def test_solve_rome99_gives_the_documented_checksum():
    rome = data_file("rome99.gr")
    if rome is None:
        pytest.skip("data/rome99.gr not found (set APSP_TEST_DATA to the data folder)")
    pairs, total = documented_rome99_checksum()
    out = run_module("solve", rome, "--json", "--backend", "cpu")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert (summary["n"], summary["m"]) == (3353, 8870)
    assert summary["reachable_pairs"] == pairs
    assert summary["distance_sum"] == total


def test_path_subcommand():
    rome = data_file("rome99.gr")
    if rome is None:
        pytest.skip("data/rome99.gr not found (set APSP_TEST_DATA to the data folder)")
    out = run_module("path", rome, 1, 3353, "--json")
    assert out.returncode == 0, out.stderr
    route = json.loads(out.stdout)
    assert route["length"] == 30305  # directed d[0][n-1] of data/README.md
    assert route["path"][0] == 1 and route["path"][-1] == 3353


def test_convert_solve_verify(tmp_path):
    graph = tmp_path / "tiny.gr"
    graph.write_text("p sp 4 4\na 1 2 3\na 2 3 4\na 3 4 5\na 4 1 6\n")
    out = run_module("convert", graph, tmp_path / "tiny.mtx")
    assert out.returncode == 0, out.stderr
    assert apsp.read_graph(tmp_path / "tiny.mtx").num_edges == 4
    dist = tmp_path / "dist.npy"
    out = run_module("solve", tmp_path / "tiny.mtx", "-o", dist, "-q")
    assert out.returncode == 0 and out.stdout == "", out.stderr
    d = np.load(dist)
    assert d[0, 3] == 12 and d[3, 2] == 13
    assert run_module("verify", graph, dist).returncode == 0
    d[0, 3] = 11  # shorter than possible: verification must fail, exit 7
    np.save(dist, d)
    out = run_module("verify", graph, dist)
    assert out.returncode == 7, out.stdout + out.stderr


def test_exit_codes_and_streams_pass_through(tmp_path):
    # Usage error: exit 2, message on stderr only.
    out = run_module("solve")
    assert out.returncode == 2 and out.stdout == "" and "apsp:" in out.stderr
    # Missing input file: exit 3 (docs/cli.md).
    out = run_module("info", tmp_path / "missing.gr")
    assert out.returncode == 3 and out.stdout == "" and "missing.gr" in out.stderr
    # A negative cycle: exit 4.
    bad = tmp_path / "cycle.gr"
    bad.write_text("p sp 3 3\na 1 2 1\na 2 3 -2\na 3 1 0\n")
    out = run_module("solve", bad, "-q")
    assert out.returncode == 4, out.stderr
    assert "negative cycle" in out.stderr.lower()


def test_help_lists_every_subcommand():
    out = run_module("--help")
    assert out.returncode == 0
    for command in ("solve", "path", "info", "convert", "verify"):
        assert re.search(rf"^\s+{command}\b", out.stdout, re.M), command


def test_stdin_reaches_the_tool(tmp_path):
    # The tool replaces the Python process, so its standard input is the caller's (here a
    # file, which the tool reads as /dev/stdin; it refuses pipes, needing a regular file).
    graph = tmp_path / "tiny.gr"
    graph.write_text("p sp 3 2\na 1 2 5\na 2 3 7\n")
    with open(graph) as stdin:
        out = run_module("info", "/dev/stdin", "--format", "dimacs", stdin=stdin)
    assert out.returncode == 0, out.stderr
    assert re.search(r"^vertices\s+3$", out.stdout, re.M), out.stdout
    assert re.search(r"^edges\s+2\b", out.stdout, re.M), out.stdout
