#!/usr/bin/env python3
"""apsp.dijkstra(A, indices=...) against scipy.sparse.csgraph.dijkstra on one seeded random
graph (default: 10,000 vertices, 500,000 edges, weights uniform in [1, 100)): time per call
(best of --repeat, input conversion included on both sides) and peak memory growth of the call
(VmHWM after resetting it, in a fresh process per library and source count). Results are checked equal first.

Run with Debian's interpreter and the build's module:
  PYTHONPATH=build/python /usr/bin/python3 bench/python/indices_vs_scipy.py \
      --csv bench/results/python_indices_$(date +%F).csv
Rows are appended (a header first when the file is new)."""

import argparse
import datetime
import os
import platform
import resource
import subprocess
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

from bench_rows import append_csv, commit

FIELDS = ["date", "machine", "commit", "command", "n", "m", "sources", "impl", "threads",
          "seconds", "peak_mib"]


def random_graph(n, m, seed):
    rng = np.random.default_rng(seed)
    return sp.csr_matrix((rng.uniform(1, 100, m), (rng.integers(0, n, m), rng.integers(0, n, m))),
                         shape=(n, n))


def sources(n, count, seed):
    return np.random.default_rng(seed + 1).choice(n, size=count, replace=False)


def solver(impl, threads):
    if impl == "scipy":
        return lambda a, idx: csgraph.dijkstra(a, indices=idx)
    import apsp
    return lambda a, idx: apsp.dijkstra(a, indices=idx, threads=threads)


def best_time(f, a, idx, repeat):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        f(a, idx)
        best = min(best, time.perf_counter() - t0)
    return best


def resident_kib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def memory_probe(args):
    """In a fresh process: the peak resident memory of one call above what was resident before
    it (MiB). The peak is reset first (Linux: /proc/self/clear_refs), so that building the
    graph does not hide the call."""
    a = random_graph(args.n, args.m, args.seed)
    f = solver(args.probe, args.threads)
    f(a[:10, :10], [0])  # loads what the call needs, so only the call's own memory counts
    idx = sources(args.n, args.probe_sources, args.seed)
    try:
        with open("/proc/self/clear_refs", "w") as cr:
            cr.write("5")
    except OSError:
        pass
    before = resident_kib("VmRSS")
    f(a, idx)
    print((resident_kib("VmHWM") - before) / 1024)


def peak_mib(args, impl, count):
    cmd = [sys.executable, __file__, "--n", str(args.n), "--m", str(args.m), "--seed",
           str(args.seed), "--threads", str(args.threads), "--probe", impl, "--probe-sources",
           str(count)]
    return float(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10_000)
    p.add_argument("--m", type=int, default=500_000)
    p.add_argument("--sources", type=int, nargs="+", default=[1, 100])
    p.add_argument("--threads", type=int, default=0, help="apsp's threads (0 = all)")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--seed", type=int, default=35)
    p.add_argument("--machine", default="2-core VM (CI kind)")
    p.add_argument("--csv", help="append the rows to this CSV file")
    p.add_argument("--probe", choices=["apsp", "scipy"], help=argparse.SUPPRESS)
    p.add_argument("--probe-sources", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.probe:
        return memory_probe(args)

    import apsp
    a = random_graph(args.n, args.m, args.seed)
    threads = args.threads or os.cpu_count()
    rows = []
    command = "python3 bench/python/indices_vs_scipy.py " + " ".join(sys.argv[1:])
    for count in args.sources:
        idx = sources(args.n, count, args.seed)
        want = csgraph.dijkstra(a, indices=idx)
        np.testing.assert_allclose(apsp.dijkstra(a, indices=idx, threads=args.threads), want,
                                   rtol=1e-12)
        for impl in ("scipy", "apsp"):
            seconds = best_time(solver(impl, args.threads), a, idx, args.repeat)
            rows.append({"date": datetime.date.today().isoformat(), "machine": args.machine,
                         "commit": commit(), "command": command, "n": args.n, "m": args.m,
                         "sources": count, "impl": impl,
                         "threads": threads if impl == "apsp" else 1,
                         "seconds": f"{seconds:.5f}",
                         "peak_mib": f"{peak_mib(args, impl, count):.1f}"})
            print(f"{count:5d} sources  {impl:6s} {seconds:9.4f} s  peak +{rows[-1]['peak_mib']} "
                  "MiB", flush=True)
        ratio = float(rows[-1]["seconds"]) / float(rows[-2]["seconds"])
        print(f"{count:5d} sources  apsp / scipy = {ratio:.2f}")
    print(f"({platform.processor() or platform.machine()}, {os.cpu_count()} cores, apsp "
          f"{apsp.__version__})")
    if args.csv:
        append_csv(args.csv, FIELDS, rows)


if __name__ == "__main__":
    main()
