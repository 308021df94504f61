#!/usr/bin/env python3
"""Whole-run timings of the apsp CLI: file in, solve, file out, wall clock (best of --repeat).

  python3 bench/cuda/wholerun.py --apsp BUILD/cli/apsp [--data DIR] [--out DIR] [--work DIR]

1. n = 20000 random graph (10 % density, weights 1..1000, seed 20000) in the course binary
   format, solved to a course binary distance file (the anchor's "whole run");
2. the same with --no-map-output (the matrix in RAM, written at the end, instead of the GPU
   default of solving inside the memory-mapped output file);
3. DE.gr (49,109 vertices) from --data to .npy, when present;
4. the same with the path matrix (--paths to a second .npy).
--only SUBSTRING runs the jobs whose mode name contains it.
Rows are appended to OUT/cuda_wholerun_<date>.csv (date, device, commit, command, n, mode,
seconds, updates_per_s); each run's --json summary (per-stage seconds) is printed. The output
file is removed (and the page cache synced) before every run: replacing an existing file adds
the file system's cost of deleting the old one.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import time

import numpy as np


def make_graph(path, n, seed):
    rng = np.random.default_rng(seed)
    src, dst = np.nonzero(rng.random((n, n), dtype=np.float32) < 0.1)
    keep = src != dst
    src, dst = src[keep].astype(np.int32), dst[keep].astype(np.int32)
    w = rng.integers(1, 1001, size=src.size, dtype=np.int32)
    with open(path, "wb") as f:
        np.array([n, src.size], dtype=np.int32).tofile(f)
        np.stack([src, dst, w], axis=1).astype(np.int32).tofile(f)
    return src.size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--apsp", required=True)
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp/apsp-gpu"))
    ap.add_argument("--work", default="/tmp/apsp-wholerun")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--commit", default=os.environ.get("APSP_COMMIT", "unknown"))
    ap.add_argument("--only", default="", help="run only jobs whose mode contains this")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    device = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.splitlines()[0].strip()
    date = datetime.date.today().isoformat()
    csv = os.path.join(args.out, f"cuda_wholerun_{date}.csv")
    if not os.path.exists(csv):
        with open(csv, "w") as f:
            f.write("date,device,commit,command,n,mode,seconds,updates_per_s\n")

    jobs = []
    g = os.path.join(args.work, "g20000.bin")
    if not args.only or "course" in args.only:
        m = make_graph(g, 20000, 20000)
        print(f"graph n=20000 m={m} ({os.path.getsize(g) / 1e6:.0f} MB)", flush=True)
    jobs.append(("wholerun_course_int32", 20000,
                 [args.apsp, "solve", g, "-o", os.path.join(args.work, "d20000.bin")]))
    # The same run with the distance matrix in RAM and written at the end (the default on the
    # GPU solves inside the memory-mapped output file).
    jobs.append(("wholerun_course_int32_ram", 20000,
                 [args.apsp, "solve", g, "-o", os.path.join(args.work, "d20000r.bin"),
                  "--no-map-output"]))
    de = os.path.join(args.data, "DE.gr")
    if os.path.exists(de):
        jobs.append(("wholerun_de_npy_int32", 49109,
                     [args.apsp, "solve", de, "-o", os.path.join(args.work, "de.npy")]))
        jobs.append(("wholerun_de_npy_int32_paths", 49109,
                     [args.apsp, "solve", de, "-o", os.path.join(args.work, "de.npy"),
                      "--paths", os.path.join(args.work, "de_via.npy")]))
    else:
        print(f"{de} not found: DE skipped")

    jobs = [j for j in jobs if args.only in j[0]]
    for mode, n, cmd in jobs:
        best, summary = None, None
        targets = [cmd[cmd.index(flag) + 1] for flag in ("-o", "--paths") if flag in cmd]
        for _ in range(args.repeat):
            for target in targets:
                if os.path.exists(target):
                    os.remove(target)
            os.sync()
            t0 = time.perf_counter()
            p = subprocess.run(cmd + ["--json", "--quiet"], capture_output=True, text=True)
            t = time.perf_counter() - t0
            if p.returncode != 0:
                print(mode, "failed:", p.stderr.strip()[-500:])
                break
            if best is None or t < best:
                best, summary = t, json.loads(p.stdout)
        for target in targets:
            if os.path.exists(target):
                os.remove(target)
        if best is None:
            continue
        rate = n**3 / best
        with open(csv, "a") as f:
            f.write(f'{date},"{device}",{args.commit},"{" ".join(cmd)}",{n},{mode},{best:.4f},{rate:.4g}\n')
        stages = " ".join(f"{k} {v:.3f}" for k, v in summary["seconds"].items())
        print(f"{mode:26s} n={n:6d} best of {args.repeat}: {best:7.3f} s wall, {rate:.3g} updates/s;"
              f" {summary['backend']} on {summary['device']}; stages: {stages};"
              f" pairs {summary.get('reachable_pairs')} sum {summary.get('distance_sum')}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
