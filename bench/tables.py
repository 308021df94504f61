#!/usr/bin/env python3
"""Times distance tables (apsp solve --sources S --targets T) by the engine auto picks (the
contraction hierarchy's bucket table on road-like integer graphs) beside plain Dijkstra rows
(--algorithm johnson) in the same run, and appends one CSV row per run.

Sources and targets are drawn at random (seeded) from the graph's vertices; both engines get the
same sets. Each run's seconds are `solve --json`'s (read, solve, write; the solve includes the
hierarchy's build). Dijkstra's rows can be capped (--dijkstra-max-searches): above it they are
timed on the first sources only and scaled to the whole set (the row says so).

Usage:
  /usr/bin/python3 bench/tables.py --apsp build/cli/apsp --graph road200k.gr --graph DE.gr \\
      --size 1000 --size 10000 --threads 2 --device "this VM" \\
      --csv bench/results/tables_DATE.csv
"""
import argparse
import csv
import datetime
import json
import os
import random
import subprocess
import tempfile
import time


def vertex_count(path):
    with open(path) as f:
        for line in f:
            if line.startswith("p "):
                return int(line.split()[2])
    raise SystemExit(f"{path}: no 'p sp n m' line")


def write_ids(path, ids):
    with open(path, "w") as f:
        f.write("\n".join(str(i) for i in ids) + "\n")


def solve(apsp, graph, sources, targets, threads, extra):
    cmd = [apsp, "solve", graph, "--sources", "@" + sources, "--targets", "@" + targets,
           "--threads", str(threads), "--json", "-q"] + extra
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.monotonic() - t0
    return json.loads(r.stdout), wall, " ".join(cmd)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--apsp", required=True)
    ap.add_argument("--graph", action="append", required=True)
    ap.add_argument("--size", type=int, action="append", required=True,
                    help="a table of SIZE sources x SIZE targets")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", required=True)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--dijkstra-max-searches", type=int, default=0,
                    help="time Dijkstra on at most this many sources and scale solve_s (0: all; "
                    "wall_s stays the shorter run's)")
    a = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    fields = ["date", "device", "commit", "graph", "n", "sources", "targets", "threads",
              "engine", "driver", "read_s", "solve_s", "write_s", "wall_s", "scaled_from",
              "load_avg_1min", "command"]
    new = not os.path.exists(a.csv)
    with open(a.csv, "a", newline="") as out, tempfile.TemporaryDirectory() as tmp:
        w = csv.DictWriter(out, fieldnames=fields)
        if new:
            w.writeheader()
        for graph in a.graph:
            n = vertex_count(graph)
            for size in a.size:
                rng = random.Random(a.seed * 1000003 + size)
                S = [rng.randint(1, n) for _ in range(size)]
                T = [rng.randint(1, n) for _ in range(size)]
                runs = [("auto", S, [])]
                cap = a.dijkstra_max_searches
                dS = S[:cap] if cap and cap < size else S
                runs.append(("dijkstra", dS, ["--algorithm", "johnson"]))
                for name, srcs, extra in runs:
                    sp, tp = os.path.join(tmp, "s.txt"), os.path.join(tmp, "t.txt")
                    write_ids(sp, srcs)
                    write_ids(tp, T)
                    j, wall, cmd = solve(a.apsp, graph, sp, tp, a.threads, extra)
                    scale = size / len(srcs)
                    row = {
                        "date": datetime.date.today().isoformat(), "device": a.device,
                        "commit": commit, "graph": os.path.basename(graph), "n": j["n"],
                        "sources": size, "targets": size, "threads": a.threads,
                        "engine": j["engine"], "driver": j["driver"],
                        "read_s": round(j["seconds"]["read"], 3),
                        "solve_s": round(j["seconds"]["solve"] * scale, 3),
                        "write_s": round(j["seconds"]["write"], 3), "wall_s": round(wall, 3),
                        "scaled_from": "" if scale == 1 else f"{len(srcs)} sources x{scale:g}",
                        "load_avg_1min": round(os.getloadavg()[0], 2),
                        "command": cmd.replace(tmp + "/", ""),
                    }
                    w.writerow(row)
                    out.flush()
                    print(f"{row['graph']} {size}x{size} {row['engine']}: solve "
                          f"{row['solve_s']} s {row['scaled_from']}", flush=True)


if __name__ == "__main__":
    main()
