"""A full disk is exit 5 whatever the output kind (a matrix solved in its file, one written at
the end, CSV, the --paths file, metrics tables and plots, converted graphs), with sizes in units that fit
them (not "0.00 GiB" for megabytes) and the file that did not fit named, never a partial."""

import re
import subprocess
from pathlib import Path

import pytest

from conftest import small_file_system

ROME = Path(__file__).resolve().parents[2] / "data" / "rome99.gr"
TIMEOUT = 120


def run_on_small(apsp_bin, tmp_path, size, *args):
    prefix = small_file_system(tmp_path, size)
    return subprocess.run([*prefix, apsp_bin, *map(str, args)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=TIMEOUT)


def error_line(r):
    lines = r.stderr.splitlines()
    assert r.returncode == 5 and len(lines) == 1 and lines[0].startswith("apsp: error: "), r
    return lines[0]


# The 3,353 x 3,353 int32 matrix takes 43 MiB; the file system has 2.5 MiB.
SOLVES = [
    (["-o", "small/d.npy"], "small/d.npy", "distance matrix was to live in the output file"),
    (["-o", "small/d.npy", "--no-map-output"], "small/d.npy", "No space left on device"),
    (["-o", "small/d.bin", "--no-map-output"], "small/d.bin", "No space left on device"),
    (["-o", "small/d.csv"], "small/d.csv", "No space left on device"),
    (["-o", "d.npy", "--paths", "small/v.npy"], "small/v.npy", "for the path matrix"),
    (["-o", "d.npy", "--paths", "small/v.npy", "--no-map-output"], "small/v.npy",
     "No space left on device"),
]


@pytest.mark.parametrize("args, named, says", SOLVES, ids=[" ".join(a) for a, _, _ in SOLVES])
def test_a_full_disk_is_exit_5_for_every_solve_output(apsp_bin, tmp_path, args, named, says):
    r = run_on_small(apsp_bin, tmp_path, "2600k", "solve", ROME, "-q", *args)
    line = error_line(r)
    assert named in line and says in line, line
    other = {"small/v.npy": "small/d.npy", "small/d.npy": "small/v.npy"}.get(named)
    assert other is None or f"cannot write {other}" not in line, line
    assert "GiB free" not in line and "0.00" not in line, line
    # Sizes with their exact bytes and a unit that fits them.
    assert re.search(r"\d{1,3}(,\d{3})* bytes( \(\d+\.\d (KiB|MiB)\))?", line), line
    assert not (tmp_path / "d.npy").exists()


def test_a_full_disk_is_exit_5_for_metrics_and_convert(apsp_bin, tmp_path):
    r = run_on_small(apsp_bin, tmp_path, "16k", "metrics", ROME, "-q", "-o", "small/m.csv")
    line = error_line(r)
    assert "cannot write small/m.csv: No space left on device after writing" in line, line
    assert "KiB" in line, line
    r = run_on_small(apsp_bin, tmp_path, "16k", "metrics", ROME, "-q", "-o", "small/m.json")
    line = error_line(r)
    assert "cannot write small/m.json: No space left on device" in line and "free" in line, line
    r = run_on_small(apsp_bin, tmp_path, "4k", "metrics", ROME, "-q", "--plot", "small/h.svg")
    line = error_line(r)
    assert "cannot write small/h.svg: No space left on device" in line, line
    r = run_on_small(apsp_bin, tmp_path, "16k", "convert", ROME, "small/g.txt")
    line = error_line(r)
    assert "cannot write small/g.txt: No space left on device" in line, line
