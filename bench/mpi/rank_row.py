#!/usr/bin/env python3
"""One row of the rank benchmarks (the ranks and placement suites of bench/gpu/run.sh) from an `apsp solve
--json` output: appends it to CSV and prints a one-line summary with where each rank ran, its
compute / communication / wait / download seconds and its busiest threads (CPU seconds, involuntary
context switches, migrations between CPUs).

Usage: rank_row.py JSON CSV DATE DEVICE COMMIT COMMAND CONFIG
"""
import csv
import json
import os
import sys

FIELDS = ["date", "device", "commit", "command", "n", "config", "ranks", "grid", "solve_seconds",
          "updates_per_s", "setup_seconds", "slowest_rank", "rank_seconds", "rank_cpus",
          "busiest_threads"]


def main():
    path, out, date, device, commit, command, config = sys.argv[1:8]
    try:
        j = json.load(open(path))
    except (OSError, ValueError) as e:
        err = path[:-5] + ".err"
        tail = open(err).read().strip().splitlines()[-2:] if os.path.exists(err) else []
        print(f"{config}: FAILED ({e}; {' | '.join(tail)})")
        return 1
    n, solve = j["n"], j["seconds"]["solve"]
    reports = j.get("rank_reports", [])
    secs = ";".join(f"{r['rank']}:{r['seconds']['compute']:.3f}/{r['seconds']['communication']:.3f}"
                    f"/{r['seconds']['wait']:.3f}/{r['seconds'].get('download', 0):.3f}"
                    for r in reports)
    cpus = ";".join(f"{r['rank']}:{r['cpus']}" for r in reports)
    threads = ";".join(
        f"{r['rank']}:" + ",".join(f"{t['name']}x{t['threads']}={t['cpu_seconds']:.2f}s/"
                                   f"{t['involuntary_switches']}inv/{t['migrations']}mig"
                                   for t in r["busiest_threads"][:3]) for r in reports)
    row = {"date": date, "device": device, "commit": commit, "command": command, "n": n,
           "config": config, "ranks": j.get("ranks", 1), "grid": j.get("grid", ""),
           "solve_seconds": solve, "updates_per_s": f"{n ** 3 / solve:.4e}" if solve else "",
           "setup_seconds": j["seconds"].get("setup", ""),
           "slowest_rank": j.get("slowest_rank", ""), "rank_seconds": secs, "rank_cpus": cpus,
           "busiest_threads": threads}
    new = not os.path.exists(out)
    with open(out, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            w.writeheader()
        w.writerow(row)
    print(f"{config}: n={n} solve {solve:.3f} s" + (f" | compute/comm/wait/download {secs}" if secs else "")
          + (f" | cpus {cpus}" if cpus else "") + (f" | threads {threads}" if threads else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
