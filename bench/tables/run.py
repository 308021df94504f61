#!/usr/bin/env python3
"""Distance tables at routing scale (issue 45): on bench/road_graph.py graphs and DE.gr, times
the hierarchy's preparation (`apsp prepare`) and then, per table, the engine the planner picks
from that hierarchy, plain Dijkstra rows (`--algorithm johnson`) and SciPy's
`dijkstra(indices=...)`, in the same run; appends one CSV row per run (bench/results columns:
date, device, commit, ..., command) and prints a short table at the end.

Each run's solve seconds are `apsp solve --json`'s solve stage (the table only; the build is the
prepare row). Dijkstra and SciPy run from the smaller side (as the planner's Dijkstra does) and
are capped: a first run on a few searches gives the rate, and where the whole set would exceed
--cap seconds they run on as many searches as fit and are scaled (the row says from how many).
The engines' tables are compared with each other where both ran in full (the "check" column).

Defaults finish in a few minutes on 16 CPUs: graphs of 500,000 and 2,000,000 vertices
(generation is vectorised NumPy: 1-5 s for 500k on a 2-vCPU VM, so 4-20 s for 2M; kept in
--work between runs), tables 1000x1000, 10000x10000 and 100000x1000, DE.gr when present.
APSP_BENCH_HEAVY=1 (or --heavy) adds 100000x100000 streamed to a file in tiles (40 GB of int32;
needs that much free disk in --work) on the 500k graph.

  /usr/bin/python3 bench/tables/run.py --device "H200 host, 16 CPUs"
  /usr/bin/python3 bench/tables/run.py --graphs 200000 --tables 1000x1000,5000x5000 \\
      --threads 2 --cap 20 --device "2-vCPU VM (loaded)"
"""
import argparse
import csv
import datetime
import json
import os
import random
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIELDS = ["date", "device", "commit", "graph", "n", "m", "sources", "targets", "threads",
          "engine", "driver", "prepare_s", "solve_s", "scaled_from", "wall_s", "check",
          "load_avg_1min", "command"]


def sh(cmd, **kw):
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise SystemExit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr}")
    return r, time.monotonic() - t0


def header_counts(path):
    with open(path) as f:
        for line in f:
            if line.startswith("p "):
                parts = line.split()
                return int(parts[2]), int(parts[3])
    raise SystemExit(f"{path}: no 'p sp n m' line")


def scipy_graph(path, n):
    """The .gr as a SciPy CSR matrix (least weight of parallel arcs, as apsp keeps them)."""
    from scipy.sparse import coo_matrix
    a = np.loadtxt(path, comments=["c", "p"], usecols=(1, 2, 3), dtype=np.int64, ndmin=2)
    u, v, w = a[:, 0] - 1, a[:, 1] - 1, a[:, 2].astype(float)
    order = np.lexsort((w, v, u))  # keep the lightest of parallel arcs
    u, v, w = u[order], v[order], w[order]
    first = np.ones(len(u), bool)
    first[1:] = (u[1:] != u[:-1]) | (v[1:] != v[:-1])
    return coo_matrix((w[first], (u[first], v[first])), shape=(n, n)).tocsr()


def write_ids(path, ids):
    with open(path, "w") as f:
        f.write("\n".join(str(i + 1) for i in ids) + "\n")
    return "@" + path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--apsp", default=os.path.join(ROOT, "build", "cli", "apsp"))
    ap.add_argument("--graphs", default=os.environ.get("APSP_BENCH_GRAPHS", "500000,2000000"),
                    help="road_graph.py sizes, comma-separated (default 500000,2000000)")
    ap.add_argument("--tables", default=os.environ.get(
        "APSP_BENCH_TABLES", "1000x1000,10000x10000,100000x1000"), help="SxT,...")
    ap.add_argument("--de", default=os.path.join(ROOT, "..", "shared", "data", "DE.gr"))
    ap.add_argument("--threads", type=int, default=0, help="0: every CPU")
    ap.add_argument("--cap", type=float, default=float(os.environ.get("APSP_BENCH_CAP", 10)),
                    help="seconds a Dijkstra or SciPy run may take before it is scaled")
    ap.add_argument("--no-scipy", action="store_true")
    ap.add_argument("--heavy", action="store_true", default=os.environ.get("APSP_BENCH_HEAVY") == "1")
    ap.add_argument("--work", default=os.environ.get("APSP_BENCH_WORK", "/tmp/apsp_bench_tables"))
    ap.add_argument("--device", required=True)
    ap.add_argument("--csv", default=None)
    a = ap.parse_args()
    threads = a.threads or os.cpu_count()
    os.makedirs(a.work, exist_ok=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=ROOT).stdout.strip()
    today = datetime.date.today().isoformat()
    out_csv = a.csv or os.path.join(ROOT, "bench", "results", f"tables_{today}.csv")
    new = not os.path.exists(out_csv)
    tables = [tuple(int(x) for x in t.split("x")) for t in a.tables.split(",") if t]
    graphs = []
    for size in [int(s) for s in a.graphs.split(",") if s]:
        path = os.path.join(a.work, f"road{size}.gr")
        gen_s = 0.0
        if not os.path.exists(path):
            _, gen_s = sh([sys.executable, os.path.join(ROOT, "bench", "road_graph.py"),
                           "--n", str(size), "--seed", "1", "-o", path])
            print(f"generated {path} in {gen_s:.1f} s", flush=True)
        graphs.append((path, [(s, t) for s, t in tables]))
    if os.path.exists(a.de):
        graphs.append((a.de, [(s, t) for s, t in tables]))
    else:
        print(f"{a.de}: absent, DE.gr skipped", flush=True)
    summary = []
    with open(out_csv, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            w.writeheader()

        def row(**kv):
            base = {"date": today, "device": a.device, "commit": commit, "threads": threads,
                    "load_avg_1min": round(os.getloadavg()[0], 2)}
            base.update(kv)
            w.writerow(base)
            f.flush()
            summary.append(base)

        for path, sizes in graphs:
            name = os.path.basename(path)
            n, m = header_counts(path)
            ch = os.path.join(a.work, name + ".ch")
            cmd = [a.apsp, "prepare", path, "-o", ch, "--threads", str(threads), "--json"]
            r, wall = sh(cmd)
            prep = json.loads(r.stdout)
            prepare_s = prep["seconds"]["build"]
            row(graph=name, n=n, m=m, engine="prepare", driver="contraction hierarchy",
                prepare_s=round(prepare_s, 3), wall_s=round(wall, 3), command=" ".join(cmd))
            print(f"{name}: hierarchy prepared in {prepare_s:.2f} s", flush=True)
            csr = None
            for s_count, t_count in sizes:
                rng = random.Random(s_count * 1000003 + t_count)
                S = [rng.randrange(n) for _ in range(s_count)]
                T = [rng.randrange(n) for _ in range(t_count)]
                sp = write_ids(os.path.join(a.work, "s.txt"), S)
                tp = write_ids(os.path.join(a.work, "t.txt"), T)
                base = dict(graph=name, n=n, m=m, sources=s_count, targets=t_count)
                out = os.path.join(a.work, "table.npy")
                cmd = [a.apsp, "solve", path, "--sources", sp, "--targets", tp, "--hierarchy",
                       ch, "--threads", str(threads), "--json", "-q", "-o", out]
                r, wall = sh(cmd)
                j = json.loads(r.stdout)
                row(**base, engine=j["engine"], driver=j["driver"], prepare_s=round(prepare_s, 3),
                    solve_s=round(j["seconds"]["solve"], 3), wall_s=round(wall, 3),
                    command=" ".join(cmd).replace(a.work + "/", ""))
                print(f"  {s_count}x{t_count} {j['engine']}: {j['seconds']['solve']:.3f} s",
                      flush=True)
                chosen = np.load(out, mmap_mode="r")
                # Dijkstra's rows from the smaller side, capped.
                side = min(s_count, t_count)
                probe = min(side, max(1, threads * 2))
                dcmd_base = [a.apsp, "solve", path, "--algorithm", "johnson",
                             "--threads", str(threads), "--json", "-q"]
                sub_s = write_ids(os.path.join(a.work, "ds.txt"),
                                  S[:probe] if s_count <= t_count else S)
                sub_t = write_ids(os.path.join(a.work, "dt.txt"),
                                  T if s_count <= t_count else T[:probe])
                r, _ = sh(dcmd_base + ["--sources", sub_s, "--targets", sub_t])
                rate = json.loads(r.stdout)["seconds"]["solve"] / probe
                k = side if rate * side <= a.cap else max(probe, int(a.cap / max(rate, 1e-9)))
                sub_s = write_ids(os.path.join(a.work, "ds.txt"),
                                  S[:k] if s_count <= t_count else S)
                sub_t = write_ids(os.path.join(a.work, "dt.txt"),
                                  T if s_count <= t_count else T[:k])
                dout = os.path.join(a.work, "dijkstra.npy")
                dcmd = dcmd_base + ["--sources", sub_s, "--targets", sub_t, "-o", dout]
                r, wall = sh(dcmd)
                dj = json.loads(r.stdout)
                got = np.load(dout, mmap_mode="r")
                want = chosen[:k] if s_count <= t_count else chosen[:, :k]
                check = "equal" if np.array_equal(got, want) else "DIFFERS"
                row(**base, engine="dijkstra rows", driver=dj["driver"],
                    solve_s=round(dj["seconds"]["solve"] * side / k, 3),
                    scaled_from="" if k == side else f"{k} searches x{side / k:.3g}",
                    wall_s=round(wall, 3), check=check,
                    command=" ".join(dcmd).replace(a.work + "/", ""))
                print(f"  {s_count}x{t_count} dijkstra: {dj['seconds']['solve'] * side / k:.3f} s"
                      f" ({k} of {side} searches) {check}", flush=True)
                if a.no_scipy:
                    continue
                from scipy.sparse.csgraph import dijkstra as scipy_dijkstra
                if csr is None:
                    csr = scipy_graph(path, n)
                g = csr if s_count <= t_count else csr.T.tocsr()
                ids, keep = (S, T) if s_count <= t_count else (T, S)
                t0 = time.monotonic()
                scipy_dijkstra(g, indices=ids[:1])
                one = time.monotonic() - t0
                k = side if one * side <= a.cap else max(1, int(a.cap / max(one, 1e-9)))
                t0 = time.monotonic()
                d = scipy_dijkstra(g, indices=ids[:k])[:, keep]
                secs = time.monotonic() - t0
                want = chosen[:k] if s_count <= t_count else np.asarray(chosen[:, :k]).T
                dd = np.where(np.isinf(d), -1, d).astype(np.int64)
                ww = np.where(np.asarray(want) >= 1073741823, -1, want).astype(np.int64)
                check = "equal" if np.array_equal(dd, ww) else "DIFFERS"
                row(**base, engine="scipy dijkstra(indices=)", driver="scipy, 1 thread",
                    solve_s=round(secs * side / k, 3),
                    scaled_from="" if k == side else f"{k} searches x{side / k:.3g}",
                    wall_s=round(secs, 3), check=check,
                    command=f"scipy.sparse.csgraph.dijkstra(csr, indices=S[:{k}])")
                print(f"  {s_count}x{t_count} scipy: {secs * side / k:.3f} s ({k} of {side})"
                      f" {check}", flush=True)
            if a.heavy and name.startswith("road") and n >= 400000:
                rng = random.Random(7)
                S = [rng.randrange(n) for _ in range(100000)]
                sp = write_ids(os.path.join(a.work, "s.txt"), S)
                out = os.path.join(a.work, "heavy.npy")
                cmd = [a.apsp, "solve", path, "--sources", sp, "--targets", sp, "--hierarchy",
                       ch, "--threads", str(threads), "--host-memory", os.environ.get("APSP_BENCH_HEAVY_MEMORY",
                                                                     "8G"),
                       "--json", "-q", "-o", out]
                r, wall = sh(cmd)
                j = json.loads(r.stdout)
                row(graph=name, n=n, m=m, sources=100000, targets=100000,
                    engine=j["engine"] + " (tiled)", driver=j["driver"],
                    prepare_s=round(prepare_s, 3),
                    solve_s=round(j["seconds"]["solve"], 3), wall_s=round(wall, 3),
                    command=" ".join(cmd).replace(a.work + "/", ""))
                os.remove(out)
                print(f"  100000x100000 streamed ({j.get('tiles')} tiles): "
                      f"{j['seconds']['solve']:.1f} s", flush=True)
    print(f"\n{'graph':<18}{'table':>15}  {'engine':<28}{'seconds':>10}  scaled / check")
    for r in summary:
        table = f"{r.get('sources', '')}x{r.get('targets', '')}" if r.get("sources") else ""
        secs = r.get("solve_s") or r.get("prepare_s")
        print(f"{r['graph']:<18}{table:>15}  {r['engine']:<28}{secs!s:>10}  "
              f"{r.get('scaled_from', '')} {r.get('check', '')}")
    print(f"rows appended to {out_csv}")


if __name__ == "__main__":
    main()
