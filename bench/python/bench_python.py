#!/usr/bin/env python3
"""apsp vs SciPy vs NetworkX all-pairs shortest paths from Python, on random dense graphs.

Usage (from the repository root, after building the module):
    PYTHONPATH=build-py/python /usr/bin/python3 bench/python/bench_python.py [--sizes 500 1000 2000]

Writes bench/results/python_<date>.csv (date, device, commit, command, n, impl, seconds) and
prints a Markdown table for docs/python.md. Each timing is the best of up to --repeat runs of
the whole call (input conversion included), stopping early once a size has taken 10 s. NetworkX
is skipped where its n^3 extrapolation from the smaller size exceeds --max-seconds.
"""

import argparse
import csv
import datetime
import os
import pathlib
import platform
import shlex
import subprocess
import sys
import time

import numpy as np
from scipy.sparse.csgraph import floyd_warshall as scipy_fw

import apsp

try:
    import networkx as nx
except ImportError:
    nx = None

ROOT = pathlib.Path(__file__).resolve().parents[2]


def random_graph(n, seed=0):
    """Dense SciPy-style matrix: half the pairs have an edge of integer weight 1..1000."""
    rng = np.random.default_rng(seed)
    w = rng.integers(1, 1001, size=(n, n)).astype(np.float64)
    w[rng.random((n, n)) < 0.5] = 0
    return w


def networkx_fw(a):
    # A user starting from a matrix pays for building the graph, so that is timed too.
    g = nx.from_numpy_array(a, create_using=nx.DiGraph)
    return nx.floyd_warshall_numpy(g)


IMPLS = {
    "apsp float64": lambda a: apsp.floyd_warshall(a),
    "apsp float32": lambda a: apsp.floyd_warshall(a, dtype="float32"),
    "apsp int32": lambda a: apsp.floyd_warshall(a, dtype="int32"),
    "apsp float64 + predecessors": lambda a: apsp.floyd_warshall(a, return_predecessors=True)[0],
    "scipy float64": lambda a: scipy_fw(a),
    "scipy float64 + predecessors": lambda a: scipy_fw(a, return_predecessors=True)[0],
    "networkx floyd_warshall_numpy": networkx_fw,
}
CUDA_IMPLS = {
    "apsp cuda float32": lambda a: apsp.floyd_warshall(a, dtype="float32", backend="cuda"),
    "apsp cuda int32": lambda a: apsp.floyd_warshall(a, dtype="int32", backend="cuda"),
}
CUDA = next((b for b in apsp.backends() if b["name"] == "cuda" and b["available"]), None)
if CUDA is not None:
    IMPLS.update(CUDA_IMPLS)


def time_call(fn, a, repeat):
    best, total, out = float("inf"), 0.0, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn(a)
        dt = time.perf_counter() - t0
        best, total = min(best, dt), total + dt
        if total > 10:
            break
    return best, out


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()} ({os.cpu_count()} threads)"
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def git_commit():
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def check_same(reference, got, impl, n):
    finite = np.isfinite(reference)
    ok = np.array_equal(finite, np.isfinite(got)) and np.allclose(
        np.asarray(got, dtype=np.float64)[finite], reference[finite])
    if not ok:
        sys.exit(f"{impl} disagrees with SciPy at n = {n}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--max-seconds", type=float, default=300.0,
                   help="skip an implementation whose predicted time exceeds this")
    p.add_argument("--impls", nargs="+", default=list(IMPLS), choices=list(IMPLS))
    p.add_argument("--skip", nargs="+", default=[], choices=list(IMPLS),
                   help="implementations to leave out")
    p.add_argument("--out", type=pathlib.Path, default=None)
    p.add_argument("--commit", default=None, help="recorded commit (default: git describe)")
    args = p.parse_args()

    today = datetime.date.today().isoformat()
    out = args.out or ROOT / "bench" / "results" / f"python_{today}.csv"
    device, commit = cpu_model(), args.commit or git_commit()
    command = "python3 " + " ".join(shlex.quote(x) for x in sys.argv)
    rows, last = [], {}
    for n in args.sizes:
        a = random_graph(n)
        reference = None
        for impl in args.impls:
            if impl in args.skip:
                continue
            if impl.startswith("networkx") and nx is None:
                continue
            if impl in last:
                n0, t0 = last[impl]
                if t0 * (n / n0) ** 3 > args.max_seconds:
                    print(f"n={n:6d} {impl:32s} skipped (predicted {t0 * (n / n0) ** 3:.0f} s)")
                    continue
            seconds, dist = time_call(IMPLS[impl], a, args.repeat)
            if impl == "scipy float64":
                reference = dist
            elif reference is not None:
                check_same(reference, dist, impl, n)
            last[impl] = (n, seconds)
            where = f"{CUDA['detail']}" if impl in CUDA_IMPLS else device
            rows.append(dict(date=today, device=where, commit=commit, command=command, n=n,
                             impl=impl, seconds=f"{seconds:.4f}"))
            print(f"n={n:6d} {impl:32s} {seconds:9.3f} s", flush=True)

    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"\nwrote {out}\n")
    print_table(rows, args.sizes)


def print_table(rows, sizes):
    by = {(r["impl"], r["n"]): float(r["seconds"]) for r in rows}
    impls = list(dict.fromkeys(r["impl"] for r in rows))
    print("| implementation | " + " | ".join(f"n = {n:,}" for n in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    for impl in impls:
        cells = []
        for n in sizes:
            t = by.get((impl, n))
            if t is None:
                cells.append("skipped")
            else:
                speedup = by.get(("scipy float64", n))
                ratio = ""
                if speedup and not impl.startswith("scipy"):
                    x = speedup / t
                    ratio = f" ({x:.0f}x)" if x >= 10 else f" ({x:.1f}x)"
                cells.append(f"{t:.3f} s{ratio}")
        print(f"| {impl} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
