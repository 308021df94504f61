#!/usr/bin/python3
"""A/B of the engines behind `apsp metrics` rows on one graph: Dijkstra (APSP_CPU_PHAST=0) and
PHAST with K sources per sweep (APSP_CPU_PHAST_LANES=K), each run with --progress for at most
--seconds (then stopped: a probe) or to the end, appending rows to a CSV with the columns
date,device,commit,command,case,n,metric,value,unit:

  per_source_ms      wall milliseconds per source on one thread (threads x wall / sources),
                     from the progress lines after the first (reading and hierarchy left out)
  projected_total_s  the whole run: seconds to the first progress line plus the rest at the
                     probe's rate (a projection when the run was stopped, else the measured end)
  hierarchy_s, shortcuts, levels   PHAST's contraction hierarchy (APSP_CPU_PHAST_VERBOSE)
  peak_rss_mib       the child's peak resident set (os.wait4)

  /usr/bin/python3 bench/metrics/phast_ab.py --apsp build/cli/apsp --graph road100k.gr \\
      --threads 1,2 --engines dijkstra,phast1,phast8,phast16 --seconds 60 \\
      --csv bench/results/metrics_phast_2026-11-28.csv --device "2-core VM (AMD EPYC)"
"""
import argparse
import csv
import datetime
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

PROGRESS = re.compile(r"round (\d+)/(\d+).*?elapsed ([\d.]+) s")
HIERARCHY = re.compile(r"hierarchy of n = (\d+), (\d+) arcs in ([\d.]+) s: (\S+).*?(\d+) shortcuts, "
                       r"(\d+) levels")
COLUMNS = ["date", "device", "commit", "command", "case", "n", "metric", "value", "unit"]


def run(cmd, env, stop_after):
    """(exit code, stderr, wall s, peak RSS bytes); SIGTERM after stop_after seconds."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as errf:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=errf,
                                env=dict(os.environ, **env))
        pid = 0
        while time.perf_counter() - t0 < stop_after:
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.2)
        if not pid:
            proc.send_signal(signal.SIGTERM)
            _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        errf.seek(0)
        err = errf.read().decode(errors="replace")
    return os.waitstatus_to_exitcode(status), err, wall, ru.ru_maxrss * 1024


def vertices(path):
    """n from the DIMACS 'p sp n m' line."""
    with open(path) as f:
        for line in f:
            if line.startswith("p "):
                return int(line.split()[2])
    raise SystemExit(f"{path}: no 'p sp n m' line")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--apsp", required=True)
    p.add_argument("--graph", required=True)
    p.add_argument("--threads", default="1")
    p.add_argument("--engines", default="dijkstra,phast1,phast16")
    p.add_argument("--seconds", type=float, default=60, help="stop a run after this long")
    p.add_argument("--block", type=int, default=64, help="sources per progress line")
    p.add_argument("--csv", default=None)
    p.add_argument("--device", default="")
    p.add_argument("--commit", default="")
    a = p.parse_args(argv)
    rows = []
    for threads in [int(t) for t in a.threads.split(",")]:
        for engine in a.engines.split(","):
            env = {"APSP_CPU_PHAST_VERBOSE": "1"}
            if engine == "dijkstra":
                env["APSP_CPU_PHAST"] = "0"
            else:
                env["APSP_CPU_PHAST_LANES"] = engine[len("phast"):]
            cmd = [a.apsp, "metrics", a.graph, "--backend", "cpu", "--algorithm", "johnson",
                   "--threads", str(threads), "--block", str(a.block), "--progress",
                   "-o", os.path.join(tempfile.gettempdir(), "phast_ab.csv")]
            rc, err, wall, rss = run(cmd, env, a.seconds)
            marks = [(int(x), int(y), float(e)) for x, y, e in PROGRESS.findall(err)]
            if len(marks) < 2:
                print(f"{engine} {threads}: no progress to measure (exit {rc})\n{err}",
                      file=sys.stderr)
                return 2
            (x0, total, e0), (x1, _, e1) = marks[0], marks[-1]
            sources = (x1 - x0) * a.block
            per_source_ms = 1000 * threads * (e1 - e0) / sources
            projected = e0 + (total - x0) * (e1 - e0) / (x1 - x0)
            finished = x1 == total
            case = f"{engine} threads={threads}"
            command = " ".join(f"{k}={v}" for k, v in env.items()) + " " + " ".join(
                shlex.quote(c) for c in ["apsp"] + cmd[1:])
            n = vertices(a.graph)
            h = HIERARCHY.search(err)
            found = [("per_source_ms", f"{per_source_ms:.3f}", "ms"),
                     ("projected_total_s" if not finished else "total_s",
                      f"{projected if not finished else e1:.1f}", "s"),
                     ("peak_rss_mib", f"{rss / 2**20:.1f}", "MiB")]
            if h:
                found += [("hierarchy_s", h.group(3), "s"), ("shortcuts", h.group(5), "arcs"),
                          ("levels", h.group(6), "levels")]
            print(f"{case:>24}: " + ", ".join(f"{m} {v} {u}" for m, v, u in found) +
                  f" (rounds {x0}..{x1} of {total}, wall {wall:.0f} s)", flush=True)
            for m, v, u in found:
                rows.append({"date": datetime.date.today().isoformat(), "device": a.device,
                             "commit": a.commit, "command": command, "case": case, "n": n,
                             "metric": m, "value": v, "unit": u})
    if a.csv:
        fresh = not os.path.exists(a.csv) or os.path.getsize(a.csv) == 0
        with open(a.csv, "a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            if fresh:
                w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
