#!/usr/bin/python3
"""Plots updates/s (n^3 / s) against n for every benchmark CSV in bench/results/.

Usage: /usr/bin/python3 bench/plot.py [results_dir] [out.png]
Each CSV needs columns n and seconds (or updates_per_s); the series name comes from the impl or
mode column (prefixed by the device for GPU rows). Rows of the same series and n keep the fastest.
"""
import csv
import glob
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def series_name(row):
    name = row.get("impl") or row.get("mode") or "?"
    device = row.get("device", "")
    if "H100" in device or "H200" in device:
        gpu = "H200" if "H200" in device else "H100"
        if gpu not in name:
            name = f"{name} ({gpu})"
    return name


def main():
    root = os.path.dirname(os.path.abspath(__file__))
    results = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "results")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "..", "docs", "benchmarks.png")
    best = {}
    for path in sorted(glob.glob(os.path.join(results, "*.csv"))):
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                try:
                    n = int(float(row["n"]))
                    rate = row.get("updates_per_s")
                    rate = float(rate) if rate else n**3 / float(row["seconds"])
                except (KeyError, ValueError, ZeroDivisionError):
                    continue
                key = (series_name(row), n)
                best[key] = max(best.get(key, 0.0), rate)
    if not best:
        sys.exit("no benchmark rows found in " + results)
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for name in sorted({k[0] for k in best}):
        pts = sorted((n, r) for (s, n), r in best.items() if s == name)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (vertices)")
    ax.set_ylabel("updates per second (n^3 / s)")
    ax.set_title("apsp: Floyd-Warshall throughput by implementation")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
