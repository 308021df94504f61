#!/usr/bin/python3
"""Counts the min-plus updates of a sparsity-aware and of a supernodal Floyd-Warshall.

Usage (from the repository root, Debian's python3 with numpy and scipy; METIS from
`apt-get install -y libmetis-dev`, called through ctypes):
    nice /usr/bin/python3 bench/sparse/supernodal_count.py [GRAPH.gr ...] [--chicago-synthetic]
        [--orders natural rcm metis] [--csv bench/results/supernodal_count_<date>.csv]

With no graph, it runs on ../shared/data/rome99.gr and DE.gr (skipped with a message when
../shared is absent) and on a synthetic Chicago-sized road-like graph. Plain Floyd-Warshall does
n^3 updates. In an elimination order, pivot k only has to update the rows i with a finite
D[i, k] times the columns j with a finite D[k, j]: for the symmetrised structure those are
R_k = (the elimination subtree of k) + struct(L[:, k]) minus k, so the exact count is
sum_k |R_k|^2. A supernodal FW does the pivots of a supernode M as one dense block step over
|M| * rows(M)^2 updates. The method and its validation are in docs/sparse_supernodal.md; the
counts are checked against measurement by validate_supernodal_count.py.
"""

import argparse
import csv
import datetime
import math
import pathlib
import shlex
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import sparse_symbolic as ss  # noqa: E402
import supernodes as sn  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / ".." / "shared" / "data"

# Rates for the estimates (not measured here; see docs/sparse_supernodal.md).
CPU_PEAK = 7e10  # int32 min-plus updates/s, 2 cores, docs/benchmarks.md
CPU_CACHE = 32 << 20  # L3 bytes
H100_PEAK = 1.4e13  # int32 min-plus updates/s on dense blocks
H100_BW = 3.35e12  # HBM3 bytes/s (H100 SXM data sheet)
H100_CACHE = 50 << 20  # L2 bytes


def synthetic_road_graph(n, seed=12982, keep=0.75, diagonal=0.05):
    """Road-like planar-ish graph on n vertices: a grid with jittered coordinates, each grid edge
    kept with probability `keep`, a diagonal shortcut per cell with probability `diagonal`,
    both directions, integer weights = 100 x Euclidean length (>= 1)."""
    rng = np.random.default_rng(seed)
    cols = math.ceil(math.sqrt(n))
    v = np.arange(n)
    xy = np.stack([v % cols, v // cols], axis=1) + rng.uniform(-0.3, 0.3, (n, 2))
    cand = []
    for step, prob in ((1, keep), (cols, keep), (cols + 1, diagonal)):
        u = v[(v + step < n) & ((step == cols) | (v % cols < cols - 1))]
        cand.append(u[rng.random(u.size) < prob])
        cand[-1] = np.stack([cand[-1], cand[-1] + step], axis=1)
    e = np.concatenate(cand)
    w = np.maximum(1, np.rint(100 * np.linalg.norm(xy[e[:, 0]] - xy[e[:, 1]], axis=1)))
    src = np.concatenate([e[:, 0], e[:, 1]])
    dst = np.concatenate([e[:, 1], e[:, 0]])
    return n, src, dst, np.concatenate([w, w]).astype(np.int64)


def measure_bandwidth(mib=256):
    """Copy bandwidth of this machine in bytes/s (read + write), best of 3."""
    a = np.ones(mib << 18, dtype=np.int32)
    b = np.empty_like(a)
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        np.copyto(b, a)
        best = min(best, time.perf_counter() - t)
    return 2 * a.nbytes / best


def count(n, src, dst, order_name, cpu_bw):
    t0 = time.perf_counter()
    pattern = ss.symmetric_pattern(n, src, dst)
    sym = ss.Symbolic(pattern, ss.order_by_name(pattern, order_name))
    exact = int((sym.reach_sizes() ** 2).sum())
    starts = sn.fundamental_supernodes(sym)
    h100_time = lambda w, r: w * r * r / sn.step_rate(w, r, H100_PEAK, H100_BW, 0)  # noqa: E731
    kinds = {"fundamental": sn.blocks_of(sym, starts),
             "relaxed": sn.relaxed_supernodes(sym, starts),
             "relaxed-h100": sn.relaxed_supernodes(sym, starts, tol=0.0, max_width=1024,
                                                   cost=h100_time)}
    seconds = time.perf_counter() - t0
    out = []
    for kind, blocks in kinds.items():
        w, r, upd = sn.block_updates(blocks)
        prof = sn.width_profile(blocks)
        out.append(dict(
            order=order_name, supernodes=kind, exact_updates=exact,
            supernodal_updates=int(upd.sum()), ratio_exact_n3=exact / n ** 3,
            ratio_supernodal_n3=float(upd.sum()) / n ** 3, n_supernodes=len(blocks),
            max_width=int(w.max()), frac_work_width_ge8=prof[8], frac_work_width_ge32=prof[32],
            frac_work_width_ge128=prof[128], nnz_L=int(sym.cc.sum()),
            est_cpu_s_at_peak=float(upd.sum()) / CPU_PEAK,
            est_cpu_s_cached=sn.roofline_seconds(blocks, CPU_PEAK, cpu_bw, CPU_CACHE),
            est_cpu_s_streamed=sn.roofline_seconds(blocks, CPU_PEAK, cpu_bw, 0),
            est_h100_s_cached=sn.roofline_seconds(blocks, H100_PEAK, H100_BW, H100_CACHE),
            est_h100_s_streamed=sn.roofline_seconds(blocks, H100_PEAK, H100_BW, 0),
            seconds_to_count=round(seconds, 2)))
    return out


def git_commit():
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, text=True,
                               capture_output=True, check=True).stdout.strip()
        return head + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu_model():
    try:
        for line in subprocess.run(["lscpu"], text=True, capture_output=True).stdout.splitlines():
            if line.startswith("Model name:"):
                import os
                return f"{line.split(':', 1)[1].strip()} ({os.cpu_count()} cpus)"
    except OSError:
        pass
    return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("graphs", nargs="*", help="DIMACS .gr files (default: rome99, DE)")
    ap.add_argument("--chicago-synthetic", action="store_true",
                    help="add the synthetic road-like graph with n = 12,982 (default with no graphs)")
    ap.add_argument("--orders", nargs="+", default=["natural", "rcm", "metis"])
    ap.add_argument("--csv", help="append rows to this CSV (header written if new)")
    args = ap.parse_args()

    graphs = [pathlib.Path(g) for g in args.graphs]
    synthetic = args.chicago_synthetic
    if not graphs:
        synthetic = True
        for name in ("rome99.gr", "DE.gr"):
            if (DATA / name).exists():
                graphs.append(DATA / name)
            else:
                print(f"skip {name}: {DATA} is absent (../shared is not shipped with apsp)")
    if "metis" in args.orders and ss.load_metis() is None:
        print("skip order metis: libmetis not found (Debian: apt-get install -y libmetis-dev)")
        args.orders = [o for o in args.orders if o != "metis"]

    inputs = [(g.name, *ss.read_dimacs(g)) for g in graphs]
    if synthetic:
        inputs.insert(1 if inputs else 0,
                      ("synthetic-road-12982", *synthetic_road_graph(12982)))
    cpu_bw = measure_bandwidth()
    print(f"cpu copy bandwidth {cpu_bw / 1e9:.1f} GB/s (used by the cpu roofline estimate)")
    rows = []
    command = "nice /usr/bin/python3 " + " ".join(shlex.quote(a) for a in
                                                  [str(pathlib.Path(sys.argv[0]))] + sys.argv[1:])
    base = dict(date=datetime.date.today().isoformat(), device=cpu_model(), commit=git_commit(),
                command=command)
    for name, n, src, dst, w in inputs:
        m = int(src.size)
        johnson = n * (m + n * math.log2(n))
        for order in args.orders:
            for r in count(n, src, dst, order, cpu_bw):
                row = dict(base, graph=name, n=n, m=m, n3=n ** 3, **r,
                           johnson_heap_ops=f"{johnson:.3e}")
                rows.append(row)
                print(f"{name:22s} n={n:6d} {order:8s} {r['supernodes']:11s} "
                      f"exact={r['exact_updates']:.3e} ({r['ratio_exact_n3']:.2e} n^3) "
                      f"supernodal={r['supernodal_updates']:.3e} "
                      f"w>=128: {100 * r['frac_work_width_ge128']:.0f}% "
                      f"max width {r['max_width']} est cpu {r['est_cpu_s_cached']:.3g}-"
                      f"{r['est_cpu_s_streamed']:.3g} s h100 {r['est_h100_s_cached']:.3g}-"
                      f"{r['est_h100_s_streamed']:.3g} s [{r['seconds_to_count']} s]",
                      flush=True)
    if args.csv and rows:
        path = pathlib.Path(args.csv)
        new = not path.exists()
        with open(path, "a", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=list(rows[0]))
            if new:
                wr.writeheader()
            wr.writerows(rows)
        print(f"wrote {len(rows)} rows to {path}")


if __name__ == "__main__":
    main()
