"""What the Python benchmarks share: the commit they measured and the CSV rows they append.
Imported by the scripts beside it (run as ``python3 bench/python/NAME.py``)."""

import csv
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def commit():
    """``git describe --always --dirty`` of the checkout, or 'unknown'."""
    try:
        return subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu_model():
    """The CPU's model name from /proc/cpuinfo, or 'unknown CPU'."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return model


def append_csv(path, fields, rows):
    """Appends `rows` (dicts) to the CSV at `path`, with a header first when the file is new."""
    path = pathlib.Path(path)
    new = not path.exists()
    with path.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        if new:
            w.writeheader()
        w.writerows(rows)
