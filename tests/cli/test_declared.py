"""Plans from the vertex count a header declares, before the edges are read: exit 5 with the
sizes for what cannot fit; a warning for a header far above the vertices its arcs use; a note
before a large automatic in-place output is made."""

import os

import pytest

from conftest import assert_error
from graph_files import write_gr

BIGGEST = 2**31 - 1  # the most vertices a graph may have


def mem_total_gib():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 2**20
    return 0


def unreadable_body(path, n):
    """A header declaring n vertices, then an arc no reader accepts (exit 3 if it were read)."""
    path.write_text(f"c edges that are never read\np sp {n} 2\na 1 2 1\na 1 two 1\n")
    return path


@pytest.mark.parametrize("args, least_gib", [
    (["path", "h.gr", "1", "2"], 160),                                  # two searches' labels
    (["paths", "h.gr", "--sources", "1", "--targets", "2"], 90),       # a row and predecessors
    (["solve", "h.gr", "--sources", ",".join(map(str, range(1, 101)))], 800),  # 100 rows of n
    (["metrics", "h.gr"], 180),                                         # a thread's scratch
])
def test_a_huge_declared_n_is_refused_before_the_edges_are_read(apsp, tmp_path, args,
                                                                  least_gib):
    if mem_total_gib() >= least_gib:
        pytest.skip(f"this machine has {mem_total_gib():.0f} GiB: the plan fits")
    unreadable_body(tmp_path / "h.gr", BIGGEST)
    r = apsp(*args)
    assert_error(r, 5, f"h.gr declares {BIGGEST} vertices", f"apsp {args[0]}", "GiB",
                 "no edge was read")


def test_a_full_solve_is_refused_from_the_header_with_the_other_commands_named(apsp, tmp_path):
    n = 500_000  # within the matrix formats' limit: 931 GiB of int32
    if mem_total_gib() >= 931:
        pytest.skip("this machine holds the matrix")
    unreadable_body(tmp_path / "h.gr", n)
    assert_error(apsp("solve", "h.gr"), 5, "h.gr declares 500000 vertices", "931.3 GiB",
                 "host memory", "--sources/--targets", "apsp paths", "apsp metrics")
    # In place in the output: the file system's free space is named too.
    r = apsp("solve", "h.gr", "-o", "d.npy")
    if r.rc == 5:
        assert_error(r, 5, "free where d.npy would hold them", "no edge was read")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.gr"]


def test_an_inflated_header_is_warned_about(apsp, tmp_path):
    write_gr(tmp_path / "w.gr", 5000, [(1, 2, 1), (2, 3, 1)])
    r = apsp("path", "w.gr", "1", "3", "--json")
    assert r.rc == 0 and '"length": 2' in r.out, r
    assert r.err == ("apsp: warning: w.gr declares 5000 vertices, but no arc names a vertex "
                     "above 3: the others are isolated, and every array of n entries pays for "
                     "them\n"), r
    # Not more than 1,000 above, or not 10 times: no warning.
    for n in (1003, 30):
        write_gr(tmp_path / "ok.gr", n, [(1, 2, 1), (2, 3, 1)])
        r = apsp("path", "ok.gr", "1", "3")
        assert r.rc == 0 and r.err == "", r
    # Edge lists name their vertices: nothing to warn about.
    (tmp_path / "e.txt").write_text("1 2 1\n2 5000 1\n")
    r = apsp("path", "e.txt", "1", "5000")
    assert r.rc == 0 and r.err == "", r


def test_a_large_automatic_in_place_output_is_announced(apsp, tmp_path):
    n = 15_900  # 1.01 GB of int32: Johnson's rows are solved in the output file
    write_gr(tmp_path / "g.gr", n, [(1, 2, 1), (2, n, 1)])
    try:
        r = apsp("solve", "g.gr", "-o", "d.npy", "-q")
    finally:
        (tmp_path / "d.npy").unlink(missing_ok=True)  # a gigabyte: not kept with the tmp dirs
    assert r.rc == 0, r
    lines = r.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("apsp: note: "), r
    assert f"the {n} x {n} distance matrix (964.4 MiB)" in lines[0], r
    assert os.fspath(tmp_path / "d.npy.apsp-partial-") in lines[0], r
    assert "renamed to d.npy" in lines[0] and "--no-map-output" in lines[0], r
    # Small outputs are not announced.
    write_gr(tmp_path / "s.gr", 40, [(1, 2, 1), (2, 40, 1)])
    r = apsp("solve", "s.gr", "-o", "s.npy", "-q")
    assert r.rc == 0 and r.err == "", r
