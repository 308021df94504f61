#!/usr/bin/python3
"""Times `apsp metrics` (all metrics) on road-like graphs from bench/road_graph.py and fits the
cost model seconds = c * n^a, so that large sizes (issue 36: 500k, 1M, 10M vertices) can be
predicted from small measured ones, on this machine or, re-run there, on another.

For every size and engine it generates (or reuses) road_N.gr, runs
    APSP metrics road_N.gr --json -q [--algorithm johnson] [--threads K]
measures the wall seconds, the child's CPU seconds and peak RSS (os.wait4's rusage), and
appends one row to the CSV. Then it fits log(seconds) = log(c) + a log(n) by least squares,
per engine, over every row of the CSV from this device and thread count, and prints c, a and
the predictions. Predictions are extrapolations of the fit, not measurements.

  /usr/bin/python3 bench/metrics/road_scaling.py --apsp build/cli/apsp \\
      --sizes 10000,20000,40000,80000 --engines johnson,auto
  /usr/bin/python3 bench/metrics/road_scaling.py --fit-only --csv bench/results/metrics_road_2026-11-28.csv

Engines: 'auto' (no --algorithm: the engine it picks is read from the JSON and recorded),
'johnson' (--algorithm johnson: rows in batches, O(n) memory per thread; on large road-like
integer graphs made by contraction hierarchy sweeps, PHAST, and recorded as 'phast') and
'dijkstra' (the same with APSP_CPU_PHAST=0: Dijkstra from every source, the engine before PHAST).
A probe runs 'johnson' or 'dijkstra' (whichever --engines names; default johnson).
"""
import argparse
import csv
import datetime
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from bench_rows import cpu_model  # noqa: E402  (bench/python, beside this folder)

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.join(HERE, "..", "road_graph.py")
COLUMNS = ["date", "device", "commit", "command", "n", "m", "engine", "threads", "seconds",
           "peak_rss_bytes", "load_average", "cpu_seconds", "metrics_seconds", "note"]
PREDICT = [500_000, 1_000_000, 10_000_000]


def cpu_device():
    return f"{cpu_model()} ({os.cpu_count()} cpus)"


def load_average():
    try:
        return "%.2f" % os.getloadavg()[0]
    except OSError:
        return ""


def run_child(cmd, stop_after=0, env=None):
    """(exit code, stdout, stderr, wall s, cpu s, peak RSS bytes) of one child, from os.wait4;
    with stop_after, SIGTERM after that many seconds (a probe); `env`: variables to add."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as errf:
        proc = subprocess.Popen(cmd, stdout=out, stderr=errf,
                                env=dict(os.environ, **env) if env else None)
        pid = 0
        while stop_after and time.perf_counter() - t0 < stop_after:
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.2)
        if not pid:
            if stop_after:
                proc.send_signal(signal.SIGTERM)
            _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        errf.seek(0)
        err = errf.read().decode(errors="replace")
        out.seek(0)
        text = out.read().decode(errors="replace")
    # ru_maxrss is in KiB on Linux
    return proc.returncode, text, err, wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss * 1024


def graph_for(n, seed, workdir):
    path = os.path.join(workdir, f"road_{n}_s{seed}.gr")
    if not os.path.exists(path):
        subprocess.run([sys.executable, GENERATOR, "--n", str(n), "--seed", str(seed),
                        "-o", path], check=True, stdout=sys.stderr)
    with open(path) as f:
        for line in f:
            if line.startswith("p "):
                _, _, nn, mm = line.split()
                return path, int(nn), int(mm)
    raise SystemExit(f"{path}: no 'p sp n m' line")


def fit(points):
    """Least squares on log-log: returns (c, a) with seconds = c * n^a."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(s) for _, s in points]
    k = len(xs)
    mx, my = sum(xs) / k, sum(ys) / k
    sxx = sum((x - mx) ** 2 for x in xs)
    a = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return math.exp(my - a * mx), a


def human(s):
    if s < 120:
        return f"{s:.1f} s"
    if s < 7200:
        return f"{s / 60:.1f} min"
    if s < 172800:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.1f} days"


def report(rows, device, threads_filter=None):
    """Fits every (engine, threads) series of the rows from one device; returns the fits."""
    groups = {}
    for r in rows:
        if r["device"] != device or not r["seconds"]:
            continue
        if threads_filter and int(r["threads"]) != threads_filter:
            continue
        if r["engine"].endswith("-probe"):
            print(f"\nprobe n {r['n']} ({r['engine']}, {r['threads']} threads): peak RSS"
                  f" {int(r['peak_rss_bytes']) / 2**20:.1f} MiB, load {r['load_average']};"
                  f" {r.get('note', '')}")
            continue
        groups.setdefault((r["engine"], int(r["threads"])), []).append(r)
    fits = {}
    for (engine, threads), rs in sorted(groups.items()):
        best = {}
        for r in rs:  # the fastest run per n (the least disturbed by other load)
            n = int(r["n"])
            if n not in best or float(r["seconds"]) < float(best[n]["seconds"]):
                best[n] = r
        ns = sorted(best)
        print(f"\n{engine}, {threads} threads, {device}:")
        for n in ns:
            r = best[n]
            print(f"  n {n:>9}  m {int(r['m']):>9}  {float(r['seconds']):9.2f} s wall"
                  f"  {float(r['cpu_seconds'] or 0):9.2f} s cpu"
                  f"  peak RSS {int(r['peak_rss_bytes']) / 2**20:8.1f} MiB  load {r['load_average']}")
        if len(ns) < 2:
            print("  (one size: no fit)")
            continue
        c, a = fit([(n, float(best[n]["seconds"])) for n in ns])
        cpu = [(n, float(best[n]["cpu_seconds"])) for n in ns if best[n].get("cpu_seconds")]
        cc, ca = fit(cpu) if len(cpu) == len(ns) else (None, None)
        fits[(engine, threads)] = (c, a, cc, ca)
        print(f"  fit (wall): seconds = {c:.3e} * n^{a:.3f}")
        if cc is not None:
            print(f"  fit (cpu):  cpu seconds = {cc:.3e} * n^{ca:.3f}"
                  f"  (at the largest n, n / cpu seconds = "
                  f"{ns[-1] / float(best[ns[-1]]['cpu_seconds']):.0f} sources per CPU-second)")
        if engine in ("johnson", "dijkstra") and cc is not None:
            # the textbook form: one Dijkstra per source, each ~ m log2 n
            ks = [float(best[n]["cpu_seconds"]) / (n * int(best[n]["m"]) * math.log2(n)) for n in ns]
            k = ks[-1]
            ratio = int(best[ns[-1]]["m"]) / ns[-1]
            print(f"  n m log2(n) form: cpu seconds = k * n * m * log2(n), k = "
                  + ", ".join(f"{x:.3e}" for x in ks) + " (by n); with the largest n's k and"
                  f" m = {ratio:.2f} n: " + ", ".join(
                      f"n {n}: {human(k * n * ratio * n * math.log2(n))} cpu" for n in PREDICT))
        for n in PREDICT:
            line = f"  PREDICTION n {n:>9}: {human(c * n ** a)} wall on {threads} threads"
            if cc is not None:
                line += (f"; {human(cc * n ** ca)} cpu, so ~{human(cc * n ** ca / 16)} on 16"
                         " threads if it scaled perfectly (an extrapolation)")
            print(line)
    return fits


def append_row(path, row):
    if not path:
        return
    fresh = not os.path.exists(path) or os.path.getsize(path) == 0
    fields = COLUMNS
    if not fresh:  # append in the file's own column order
        with open(path, newline="") as f:
            fields = next(csv.reader(f))
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        if fresh:
            w.writeheader()
        w.writerow(row)


PROGRESS = re.compile(r"round (\d+)/(\d+).*?elapsed ([\d.]+) s")


def probe_row(err, rc, wall, cpu):
    """Projects a stopped johnson run from its progress lines ('round X/Y ... elapsed E s'):
    rounds per second between the first and the last line, and the seconds up to the first
    line as they were (PHAST's hierarchy is built there; the graph's reading is left out); the
    CPU projection scales the probe's CPU seconds by Y / X."""
    marks = [(int(x), int(y), float(e)) for x, y, e in PROGRESS.findall(err)]
    if len(marks) < 2 or marks[-1][2] <= marks[0][2] or marks[-1][0] <= marks[0][0]:
        return None
    (x0, total, e0), (x1, _, e1) = marks[0], marks[-1]
    rate = (x1 - x0) / (e1 - e0)
    projected = e0 + (total - x0) / rate
    projected_cpu = cpu * total / x1
    return {"metrics_seconds": f"{projected:.1f}",
            "note": (f"probe stopped after {wall:.0f} s (exit {rc}) at round {x1}/{total};"
                     f" projected whole run {projected:.0f} s wall, {projected_cpu:.0f} s cpu"
                     " (an extrapolation, not a measurement)")}


def read_rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--apsp", default="build/cli/apsp", help="the apsp binary (default: build/cli/apsp)")
    p.add_argument("--sizes", default="10000,20000,40000,80000",
                   help="comma-separated vertex counts (default: 10000,20000,40000,80000)")
    p.add_argument("--engines", default="johnson,auto",
                   help="comma-separated: johnson and/or auto (default: johnson,auto)")
    p.add_argument("--threads", type=int, default=0, help="--threads for apsp (0: all; default 0)")
    p.add_argument("--seed", type=int, default=1, help="generator seed (default: 1)")
    p.add_argument("--workdir", default=None, help="where the .gr files go (default: a temp dir)")
    p.add_argument("--csv", default=None, help="CSV to append rows to and fit from")
    p.add_argument("--commit", default="", help="the commit the binary was built from")
    p.add_argument("--fit-only", action="store_true", help="no runs: fit the rows of --csv")
    p.add_argument("--probe", type=float, default=0, metavar="SECONDS",
                   help="no full runs: run johnson (or dijkstra) with --progress for SECONDS per size, stop it,"
                        " and project the whole run from the rounds done (sizes too large to"
                        " finish); rows get engine ENGINE-probe and are left out of the fits")
    p.add_argument("--block", type=int, default=0,
                   help="--block for apsp (sources per progress step for johnson; 0: apsp's"
                        " choice, about n / 250, except with --probe: 32, so that a probe sees"
                        " several steps at large n)")
    p.add_argument("--max-seconds", type=float, default=0,
                   help="skip a size whose predicted time (from the sizes already run) exceeds this")
    a = p.parse_args(argv)

    device = cpu_device()
    if a.fit_only:
        if not a.csv:
            p.error("--fit-only needs --csv")
        rows = read_rows(a.csv)
        devices = sorted({r["device"] for r in rows})
        for d in devices:
            report(rows, d)
        return 0 if rows else 1

    if not (os.path.isfile(a.apsp) and os.access(a.apsp, os.X_OK)):
        print(f"error: apsp binary {a.apsp} not found; build it with "
              "cmake --build build --target apsp_cli, or pass --apsp", file=sys.stderr)
        return 1
    sizes = [int(s) for s in a.sizes.split(",") if s]
    engines = [e for e in a.engines.split(",") if e]
    for e in engines:
        if e not in ("johnson", "auto", "dijkstra"):
            p.error(f"unknown engine {e}")
    if a.probe:
        engines = [e for e in engines if e != "auto"] or ["johnson"]
    tmp = None
    workdir = a.workdir
    if workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix="apsp_road_")
        workdir = tmp.name
    os.makedirs(workdir, exist_ok=True)
    new_rows = []
    for engine in engines:
        done = []
        for n in sizes:
            if a.max_seconds and len(done) >= 2:
                c, ex = fit(done)
                if c * n ** ex > a.max_seconds:
                    print(f"skip {engine} n {n}: predicted {c * n ** ex:.0f} s > --max-seconds",
                          file=sys.stderr)
                    continue
            path, nn, mm = graph_for(n, a.seed, workdir)
            cmd = [a.apsp, "metrics", path, "--json", "-q", "--metrics", "all"]
            env = None
            if engine in ("johnson", "dijkstra"):
                cmd += ["--algorithm", "johnson"]
            if engine == "dijkstra":
                env = {"APSP_CPU_PHAST": "0"}
            if a.threads:
                cmd += ["--threads", str(a.threads)]
            block = a.block or (32 if a.probe else 0)
            if block:
                cmd += ["--block", str(block)]
            load = load_average()
            if a.probe:
                cmd = [c if c != "-q" else "--progress" for c in cmd]
                rc, out, err, wall, cpu, rss = run_child(cmd, stop_after=a.probe, env=env)
                row = probe_row(err, rc, wall, cpu)
                if row is None:
                    print(f"error: {' '.join(cmd)}: no progress to project from (exit {rc})\n{err}",
                          file=sys.stderr)
                    return 2
                row.update({"date": datetime.date.today().isoformat(), "device": device,
                            "commit": a.commit,
                            "command": " ".join(["apsp"] + cmd[1:]).replace(workdir + "/", ""),
                            "n": nn, "m": mm, "engine": f"{engine}-probe",
                            "threads": a.threads or os.cpu_count(),
                            "seconds": f"{wall:.3f}", "peak_rss_bytes": rss,
                            "load_average": load, "cpu_seconds": f"{cpu:.3f}"})
                print(f"{engine + '-probe':>20}  n {nn:>8}  m {mm:>8}  {wall:8.2f} s  cpu {cpu:8.2f} s"
                      f"  RSS {rss / 2**20:8.1f} MiB  load {load}  {row['note']}", flush=True)
                new_rows.append(row)
                append_row(a.csv, row)
                continue
            rc, out, err, wall, cpu, rss = run_child(cmd, env=env)
            if rc != 0:
                print(f"error: {' '.join(cmd)} exited {rc}\n{err}", file=sys.stderr)
                return 2
            js = json.loads(out)
            driver = js.get("driver", "")          # e.g. "johnson, 2 threads"
            picked = js.get("algorithm", engine)
            threads = a.threads or os.cpu_count()
            if "threads" in driver:
                try:
                    threads = int(driver.rsplit(",", 1)[1].split()[0])
                except (IndexError, ValueError):
                    pass
            phast = "PHAST" in js.get("device", "")
            label = engine if engine != "auto" else f"auto->{picked}"
            if engine == "johnson" and phast:
                label = "phast"
            elif engine == "auto" and phast:
                label = "auto->phast"
            row = {"date": datetime.date.today().isoformat(), "device": device,
                   "commit": a.commit, "command": " ".join(["apsp"] + cmd[1:]).replace(workdir + "/", ""),
                   "n": nn, "m": mm, "engine": label, "threads": threads,
                   "seconds": f"{wall:.3f}", "peak_rss_bytes": rss, "load_average": load,
                   "cpu_seconds": f"{cpu:.3f}",
                   "metrics_seconds": f"{js.get('seconds', {}).get('metrics', 0):.3f}"}
            print(f"{label:>20}  n {nn:>8}  m {mm:>8}  {wall:8.2f} s  cpu {cpu:8.2f} s"
                  f"  RSS {rss / 2**20:8.1f} MiB  load {load}", flush=True)
            new_rows.append(row)
            done.append((nn, wall))
            append_row(a.csv, row)
    rows = read_rows(a.csv) if a.csv else new_rows
    report(rows, device)
    if tmp:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
