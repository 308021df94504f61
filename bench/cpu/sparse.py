#!/usr/bin/python3
"""Sparse graphs on the CPU: apsp's supernodal Floyd-Warshall and Johnson against its blocked
Floyd-Warshall, SciPy's all-sources dijkstra and johnson, and NetworkX, on the real road graphs of
../shared/data (rome99, DE.gr).

Every row is one timed run, wall-clock, of exactly the command in its `command` column (the
note adds apsp's own stage times, the CPU seconds its process used and the load average):
  apsp-johnson     `apsp solve G --backend cpu --algorithm johnson -o OUT.bin --json` (int32,
                   the whole process: read, solve, write of the n x n course-binary output)
  apsp-supernodal  the same with --algorithm supernodal (METIS order, one block step per
                   supernode), the stage times of its analysis, steps and relabelling in the note
  apsp-auto        the same without --algorithm: which one apsp's cost model picks, and its time
  apsp-fw          the same with --algorithm fw (rome99 only; DE.gr's n^3 = 1.2e14 updates would
                   take about an hour: its row is an estimate from rome99's measured rate and
                   says so)
  scipy-dijkstra   scipy.sparse.csgraph.dijkstra(A, directed=True) from every source (float64);
                   on DE.gr only the first --sources K are timed (row scipy-dijkstra-K-sources)
                   and the scipy-dijkstra row is an estimate, seconds * n / K, marked so
  scipy-johnson    scipy.sparse.csgraph.johnson(A, directed=True), the same way; its estimate
                   keeps the one Bellman-Ford pass (K-source johnson minus K-source dijkstra)
                   unscaled
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
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse
from scipy.sparse.csgraph import dijkstra, johnson

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_cpu_bench import ROOT, commit, cpu_model  # noqa: E402

GRAPHS = {"rome99": "rome99.gr", "DE": "DE.gr",
          # Not in ../shared/data: written by bench/sparse/write_synthetic_road.py on the fly.
          "chicago-synthetic": None}


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


def best_of(repeat, cmd):
    """run_cli `repeat` times; the fastest run (wall) with its summary and CPU seconds."""
    return min((run_cli(cmd) for _ in range(repeat)), key=lambda r: r[0])


def run_cli(cmd):
    """Wall seconds, the JSON summary, and the CPU seconds the process used (user + system; on
    this VM both vary with the other tenants' load, which each row records)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, json.loads(out.stdout), cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--data", default=os.path.join(os.path.dirname(ROOT), "shared", "data"))
    ap.add_argument("--graphs", default="rome99,DE")
    ap.add_argument("--sources", type=int, default=500,
                    help="SciPy on DE.gr: time this many sources and scale (0: all)")
    ap.add_argument("--networkx-de", action="store_true")
    ap.add_argument("--repeat", type=int, default=3,
                    help="apsp runs on rome99: the best of this many (DE.gr: one run)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--impls", default="apsp-supernodal,apsp-auto,apsp-johnson,apsp-fw,scipy,networkx",
                    help="which rows to measure (comma-separated; scipy = both SciPy rows)")
    args = ap.parse_args()
    impls = set(args.impls.split(","))
    if not os.path.isdir(args.data):
        sys.exit(f"{args.data} is absent: this benchmark needs the real graphs of ../shared/data")
    cli = os.path.join(args.build, "cli", "apsp")
    today = datetime.date.today().isoformat()
    out_path = args.out or os.path.join(ROOT, "bench", "results", f"sparse_cpu_{today}.csv")
    device, head = cpu_model(), commit()
    rows = []

    def row(graph, n, m, impl, command, seconds, note=""):
        # The 1-minute load average says how shared the machine was (2 cores here).
        note = f"{note}; load {os.getloadavg()[0]:.1f}".lstrip("; ")
        rows.append([today, device, head, graph, n, m, impl, command, f"{seconds:.3f}", note])
        print(f"{graph:7s} {impl:15s} {seconds:10.3f} s  {note}", flush=True)

    with tempfile.TemporaryDirectory(prefix="apsp_sparse_") as tmp:
        for name in args.graphs.split(","):
            if GRAPHS[name] is None:
                path = os.path.join(tmp, "chicago_synthetic.gr")
                subprocess.run([sys.executable, os.path.join(ROOT, "bench", "sparse",
                                                             "write_synthetic_road.py"), path],
                               check=True)
            else:
                path = os.path.join(args.data, GRAPHS[name])
            a, n, m = read_gr(path)
            out = os.path.join(tmp, "d.bin")
            repeat = args.repeat if name != "DE" else 1
            for impl, algorithm in (("apsp-supernodal", "supernodal"), ("apsp-auto", None),
                                    ("apsp-johnson", "johnson")):
                if impl not in impls:
                    continue
                cmd = [cli, "solve", path, "--backend", "cpu", "-o", out, "--json"]
                if algorithm:
                    cmd[5:5] = ["--algorithm", algorithm]
                seconds, s, cpu = best_of(repeat, cmd)
                checks = (s["reachable_pairs"], s["distance_sum"], s["max_distance"])
                row(name, n, m, impl, " ".join(cmd), seconds,
                    f"ran {s['algorithm']}; solve stage {s['seconds']['solve']:.3f} s, write "
                    f"{s['seconds']['write']:.3f} s, process cpu {cpu:.2f} s; pairs, sum, max "
                    f"{checks[0]}, {checks[1]}, {checks[2]}" +
                    (f", best of {repeat}" if repeat > 1 else ""))
                os.remove(out)
            cmd = [cli, "solve", path, "--backend", "cpu", "--algorithm", "fw", "-o", out, "--json"]
            if "apsp-fw" not in impls:
                pass
            elif name != "DE":
                seconds, s, cpu = best_of(repeat, cmd)
                fw_rate = n**3 / s["seconds"]["solve"]
                row(name, n, m, "apsp-fw", " ".join(cmd), seconds,
                    f"solve stage {s['seconds']['solve']:.3f} s = {fw_rate:.3g} updates/s, "
                    f"process cpu {cpu:.2f} s, best of {repeat}")
            elif "fw_rate" in locals():
                row(name, n, m, "apsp-fw", "estimate: n^3 / rome99's measured fw rate",
                    n**3 / fw_rate, "estimated, not run")
            k = n if name != "DE" or args.sources == 0 else min(args.sources, n)
            indices = np.arange(k)
            measured = {}
            for impl, fn in () if "scipy" not in impls else (("scipy-dijkstra", dijkstra), ("scipy-johnson", johnson)):
                command = (f"scipy.sparse.csgraph.{fn.__name__}(A, directed=True, "
                           f"indices=range({k}))")
                measured[impl] = timed(lambda: fn(a, directed=True, indices=indices))
                row(name, n, m, impl if k == n else f"{impl}-{k}-sources", command,
                    measured[impl], "all sources" if k == n else f"{k} of {n} sources, measured")
            if k < n and measured:
                # Dijkstra's time is per source. johnson adds one Bellman-Ford pass over the
                # whole graph (it runs even without negative weights), the same for any k.
                scale = n / k
                row(name, n, m, "scipy-dijkstra", "estimate from the row above",
                    measured["scipy-dijkstra"] * scale,
                    f"estimated: the {k}-source time x {scale:.1f}")
                bellman_ford = max(0.0, measured["scipy-johnson"] - measured["scipy-dijkstra"])
                row(name, n, m, "scipy-johnson", "estimate from the rows above",
                    bellman_ford + measured["scipy-dijkstra"] * scale,
                    f"estimated: its {k}-source time minus dijkstra's (the one Bellman-Ford "
                    f"pass, {bellman_ford:.1f} s) plus dijkstra's estimate")
            if "networkx" in impls and (name == "rome99" or args.networkx_de):
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
