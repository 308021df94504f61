#!/usr/bin/python3
"""Sparse graphs on the CPU: apsp's Johnson against its blocked Floyd-Warshall, SciPy's all-sources
dijkstra and johnson, and NetworkX, on the real road graphs of ../shared/data (rome99, DE.gr).

Every row is one timed run, wall-clock, of exactly the command in its `command` column:
  apsp-johnson     `apsp solve G --backend cpu --algorithm johnson -o OUT.bin --json` (int32,
                   the whole process: read, solve, write of the n x n course-binary output)
  apsp-fw          the same with --algorithm fw (rome99 only; DE.gr's n^3 = 1.2e14 updates would
                   take about an hour: its row is an estimate from rome99's measured rate and
                   says so)
  scipy-dijkstra   scipy.sparse.csgraph.dijkstra(A, directed=True) from every source (float64);
                   with --sources K only the first K sources are timed and the row gives
                   seconds * n / K, marked "scaled"
  scipy-johnson    scipy.sparse.csgraph.johnson(A, directed=True), the same way
  networkx         networkx.all_pairs_dijkstra_path_length, consumed fully (rome99 only unless
                   --networkx-de)
SciPy and NetworkX run on one thread (they have no other mode); apsp on all of them.

Rows go to bench/results/sparse_cpu_<date>.csv: date, device, commit, graph, n, m, impl,
command, seconds, note. The data directory is ../shared/data (or --data); without it the
script says so and exits.

Usage: /usr/bin/python3 bench/cpu/sparse.py [--build build] [--sources 500] [--graphs rome99,DE]
"""

import argparse
import csv
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse
from scipy.sparse.csgraph import dijkstra, johnson

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_cpu_bench import ROOT, commit, cpu_model  # noqa: E402

GRAPHS = {"rome99": "rome99.gr", "DE": "DE.gr"}


def read_gr(path):
    """A DIMACS .gr file as a CSR matrix (parallel arcs: the lightest, as apsp keeps)."""
    src, dst, w, n = [], [], [], 0
    with open(path) as f:
        for line in f:
            if line.startswith("p"):
                n = int(line.split()[2])
            elif line.startswith("a"):
                _, u, v, weight = line.split()
                src.append(int(u) - 1)
                dst.append(int(v) - 1)
                w.append(float(weight))
    order = np.lexsort((np.array(w), np.array(dst), np.array(src)))
    s, d, ww = np.array(src)[order], np.array(dst)[order], np.array(w)[order]
    first = np.ones(len(s), dtype=bool)
    first[1:] = (s[1:] != s[:-1]) | (d[1:] != d[:-1])
    return scipy.sparse.csr_matrix((ww[first], (s[first], d[first])), shape=(n, n)), n, len(src)


def timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def run_cli(cmd):
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stderr}")
    return seconds, json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--data", default=os.path.join(os.path.dirname(ROOT), "shared", "data"))
    ap.add_argument("--graphs", default="rome99,DE")
    ap.add_argument("--sources", type=int, default=500,
                    help="SciPy on DE.gr: time this many sources and scale (0: all)")
    ap.add_argument("--networkx-de", action="store_true")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    if not os.path.isdir(args.data):
        sys.exit(f"{args.data} is absent: this benchmark needs the real graphs of ../shared/data")
    cli = os.path.join(args.build, "cli", "apsp")
    today = datetime.date.today().isoformat()
    out_path = args.out or os.path.join(ROOT, "bench", "results", f"sparse_cpu_{today}.csv")
    device, head = cpu_model(), commit()
    rows = []

    def row(graph, n, m, impl, command, seconds, note=""):
        rows.append([today, device, head, graph, n, m, impl, command, f"{seconds:.3f}", note])
        print(f"{graph:7s} {impl:15s} {seconds:10.3f} s  {note}", flush=True)

    with tempfile.TemporaryDirectory(prefix="apsp_sparse_") as tmp:
        for name in args.graphs.split(","):
            path = os.path.join(args.data, GRAPHS[name])
            a, n, m = read_gr(path)
            out = os.path.join(tmp, "d.bin")
            cmd = [cli, "solve", path, "--backend", "cpu", "--algorithm", "johnson", "-o", out,
                   "--json"]
            seconds, s = run_cli(cmd)
            row(name, n, m, "apsp-johnson", " ".join(cmd), seconds,
                f"solve stage {s['seconds']['solve']:.3f} s, write {s['seconds']['write']:.3f} s")
            os.remove(out)
            if name == "rome99":
                cmd[cmd.index("johnson")] = "fw"
                seconds, s = run_cli(cmd)
                fw_rate = n**3 / s["seconds"]["solve"]
                row(name, n, m, "apsp-fw", " ".join(cmd), seconds,
                    f"solve stage {s['seconds']['solve']:.3f} s = {fw_rate:.3g} updates/s")
            elif "fw_rate" in locals():
                row(name, n, m, "apsp-fw", "estimate: n^3 / rome99's measured fw rate",
                    n**3 / fw_rate, "estimated, not run")
            k = n if name == "rome99" or args.sources == 0 else min(args.sources, n)
            indices = np.arange(k)
            note = "all sources" if k == n else f"scaled from {k} sources (x {n / k:.1f})"
            for impl, fn in (("scipy-dijkstra", dijkstra), ("scipy-johnson", johnson)):
                seconds = timed(lambda: fn(a, directed=True, indices=indices))
                row(name, n, m, impl, f"scipy.sparse.csgraph.{fn.__name__}(A, directed=True, "
                    f"indices=range({k}))", seconds * n / k, note)
            if name == "rome99" or args.networkx_de:
                import networkx as nx
                g = nx.from_scipy_sparse_array(a, create_using=nx.DiGraph)
                seconds = timed(lambda: sum(len(d) for _, d in
                                            nx.all_pairs_dijkstra_path_length(g)))
                row(name, n, m, "networkx", "networkx.all_pairs_dijkstra_path_length", seconds,
                    "all sources")

    new = not os.path.exists(out_path)
    with open(out_path, "a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(["date", "device", "commit", "graph", "n", "m", "impl", "command",
                        "seconds", "note"])
        w.writerows(rows)
    print(f"appended {len(rows)} rows to {out_path}")


if __name__ == "__main__":
    main()
