#!/usr/bin/python3
"""bench/road_graph.py and bench/metrics/road_scaling.py (docs/benchmarks.md, "Metrics on
road-like graphs") still run: the generator is seeded and writes valid DIMACS with m about
2.5 n; the scaling script, on two tiny sizes with this build's apsp, writes CSV rows with the
documented columns and prints a fit and predictions; a missing binary is exit 1 with a message.

Usage: check_road_scaling.py SOURCE_DIR APSP_BINARY   (exit 77, skipped, without NumPy)
"""
import csv
import os
import subprocess
import sys
import tempfile

source, apsp = sys.argv[1], sys.argv[2]
try:
    import numpy  # noqa: F401
except ImportError:
    print("numpy not installed: skipped")
    sys.exit(77)

gen = os.path.join(source, "bench", "road_graph.py")
scaling = os.path.join(source, "bench", "metrics", "road_scaling.py")
failures = []


def run(*args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True)


with tempfile.TemporaryDirectory(prefix="apsp_road_check_") as tmp:
    a, b = os.path.join(tmp, "a.gr"), os.path.join(tmp, "b.gr")
    r1, r2 = run(gen, "--n", "2500", "--seed", "7", "-o", a), run(gen, "--n", "2500", "--seed", "7", "-o", b)
    if r1.returncode or r2.returncode:
        failures.append(f"road_graph.py: exit {r1.returncode}\n{r1.stdout}{r1.stderr}")
    else:
        with open(a) as f:
            text = f.read()
        with open(b) as f:
            if f.read() != text:
                failures.append("road_graph.py: same seed, different files")
        p = [line.split() for line in text.splitlines() if line.startswith("p ")]
        arcs = [line.split() for line in text.splitlines() if line.startswith("a ")]
        if len(p) != 1 or p[0][:2] != ["p", "sp"]:
            failures.append(f"road_graph.py: problem line {p}")
        else:
            n, m = int(p[0][2]), int(p[0][3])
            ok = (n == 2500 and m == len(arcs) and 2.3 * n <= m <= 2.7 * n
                  and all(1 <= int(x[1]) <= n and 1 <= int(x[2]) <= n and int(x[3]) >= 1
                          for x in arcs))
            if not ok:
                failures.append(f"road_graph.py: n {n} m {m} arcs {len(arcs)}")

    out = os.path.join(tmp, "rows.csv")
    r = run(scaling, "--apsp", apsp, "--sizes", "200,400", "--engines", "johnson,auto",
            "--workdir", tmp, "--csv", out, "--commit", "check")
    if r.returncode != 0:
        failures.append(f"road_scaling.py: exit {r.returncode}\n{r.stdout}{r.stderr}")
    else:
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
        want = ["date", "device", "commit", "command", "n", "m", "engine", "threads", "seconds",
                "peak_rss_bytes", "load_average"]
        if len(rows) != 4 or any(k not in rows[0] for k in want):
            failures.append(f"road_scaling.py: rows {rows}")
        elif not all(float(x["seconds"]) > 0 and int(x["peak_rss_bytes"]) > 0 for x in rows):
            failures.append(f"road_scaling.py: empty timings {rows}")
        if "fit (wall)" not in r.stdout or "PREDICTION n  10000000" not in r.stdout:
            failures.append(f"road_scaling.py: no fit or predictions\n{r.stdout}")
        fo = run(scaling, "--fit-only", "--csv", out)
        if fo.returncode != 0 or "fit (wall)" not in fo.stdout:
            failures.append(f"road_scaling.py --fit-only: exit {fo.returncode}\n{fo.stdout}{fo.stderr}")

    missing = run(scaling, "--apsp", os.path.join(tmp, "no-such-apsp"), "--sizes", "100")
    if missing.returncode != 1 or "not found" not in missing.stderr or "Traceback" in missing.stderr:
        failures.append(f"missing binary: exit {missing.returncode}\n{missing.stderr}")

for f in failures:
    print("FAIL", f)
print("ok" if not failures else f"{len(failures)} failed")
sys.exit(1 if failures else 0)
