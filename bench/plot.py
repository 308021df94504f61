#!/usr/bin/python3
"""Plots updates/s (n^3 / s) against n for every benchmark CSV in bench/results/.

Usage: /usr/bin/python3 bench/plot.py [results_dir] [out.png]
Each CSV needs columns n and seconds (or updates_per_s); the series name comes from the impl or
mode column (prefixed by the device for GPU rows). Rows of the same series and n keep the fastest.
The GPU driver's CSVs (gpu_*.csv, one metric per row: bench/gpu/README.md) add their
updates_per_s rows of the kernel suites, named as the cuda family's modes (A/B rows other than
the "new" variant left out).
"""
import csv
import glob
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


# Series worth a line, by CSV family and impl/mode name; everything else (peaks, per-stage rows,
# the Python-overhead rows) stays in the tables of docs/benchmarks.md.
WANTED = {
    "cuda": {"int32": "cuda int32", "int32_paths": "cuda int32 + paths", "float32": "cuda float32",
             "int32_negative": "cuda int32, negative weights",
             "int32_paths_negative": "cuda int32 + paths, negative weights",
             "float32_paths": "cuda float32 + paths",
             "float32_paths_fractional": "cuda float32 + paths, fractional weights",
             "packed16": "cuda packed 16-bit (hop counts)",
             "ooc_int32_cap2048M_solve": "cuda out of core, 2 GiB cap (whole solve)",
             "ooc_int32_large_solve": "cuda out of core, matrix > GPU memory (whole solve)",
             "multi2_int32_solve": "cuda int32 on 2 GPUs (whole solve)",
             "multi2_float32_solve": "cuda float32 on 2 GPUs (whole solve)",
             "ooc_float32_cap2048M_solve": "cuda float32 out of core, 2 GiB cap (whole solve)",
             "headline_cli_int32_solve": "cuda int32 on 2 GPUs, CLI solve stage",
             "baseline_naive_int32": "GPU baseline: naive per-k",
             "baseline_blocked32_int32": "GPU baseline: 32x32 blocked"},
    "cpu": {"cpu-int32": "cpu int32", "cpu-float64": "cpu float64",
            "reference-int32": "reference (naive)", "scipy-float64": "SciPy floyd_warshall"},
    "python": {"networkx floyd_warshall_numpy": "NetworkX floyd_warshall_numpy"},
    # Sparse road graphs (rome99, DE.gr): n^3 / whole-run seconds, the Floyd-Warshall-equivalent
    # rate, so they sit on the same axis as the dense series.
    "sparse": {"apsp-supernodal": "sparse: apsp supernodal FW, whole run",
               "apsp-johnson": "sparse: apsp Johnson, whole run",
               "scipy-dijkstra": "sparse: SciPy dijkstra, all sources"},
}


# Suites of bench/gpu/run.sh whose cases are apsp_bench_cuda / apsp_bench_blocked modes.
DRIVER_SUITES = {"kernels", "packed", "paths", "ooc", "ooc-big", "multi", "multi-ooc"}


def driver_row(row):
    """A row of the driver's schema as the cuda family's (mode, n, updates_per_s), or None."""
    if row.get("suite") not in DRIVER_SUITES or row.get("metric") != "updates_per_s":
        return None
    if row.get("variant", "") not in ("", "new"):
        return None
    return {"mode": row["case"], "n": row["n"], "updates_per_s": row["value"],
            "device": row.get("device", "")}


def series_name(family, row):
    name = row.get("impl") or row.get("mode") or "?"
    label = WANTED.get(family, {}).get(name)
    if label is None:
        return None
    device = row.get("device", "")
    for gpu in ("H100", "H200"):
        if gpu in device:
            return f"{label} ({gpu})"
    return f"{label} (2-core EPYC)" if family != "cuda" else label


def main():
    root = os.path.dirname(os.path.abspath(__file__))
    results = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "results")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "..", "docs", "benchmarks.png")
    best = {}
    for path in sorted(glob.glob(os.path.join(results, "*.csv"))):
        family = os.path.basename(path).split("_")[0]
        if family == "python" and "h200" in path:
            continue
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if family == "gpu":
                    row = driver_row(row)
                    if row is None:
                        continue
                name = series_name("cuda" if family == "gpu" else family, row)
                if name is None:
                    continue
                try:
                    n = int(float(row["n"]))
                    if n <= 0:
                        continue
                    rate = row.get("updates_per_s")
                    rate = float(rate) if rate else n**3 / float(row["seconds"])
                except (KeyError, ValueError, ZeroDivisionError):
                    continue
                key = (name, n)
                best[key] = max(best.get(key, 0.0), rate)
    if not best:
        sys.exit("no benchmark rows found in " + results)
    fig, ax = plt.subplots(figsize=(11, 5.5))
    markers = "osD^v<>p*hX"
    for i, name in enumerate(sorted({k[0] for k in best})):
        pts = sorted((n, r) for (s, n), r in best.items() if s == name)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=markers[i % len(markers)],
                color=plt.cm.tab20(i % 20), label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (vertices)")
    ax.set_ylabel("updates per second (n^3 / s; sparse series: n^3 / whole run)")
    ax.set_title("apsp: Floyd-Warshall throughput by implementation")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
