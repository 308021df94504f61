#!/usr/bin/python3
"""CPU benchmark driver: the cpu back end, the reference back end and SciPy's Floyd-Warshall on
the same random graphs, plus this CPU's measured min-plus peak.

Graphs: n vertices, each ordered pair (u != v) an edge with probability --density (default 0.1),
integer weights uniform in [1, 1000], numpy seed = n. They are written in the course binary
format, which bench/cpu/cpu_time_solve reads; SciPy gets the same edges as a dense float64
matrix (0 = no edge) and only its floyd_warshall call is timed.

Rows appended to bench/results/cpu_<date>.csv (date, device, commit, command, n, impl, seconds,
updates_per_s), where updates/s = n^3 / seconds:
  minplus-peak          cpu_minplus_peak: best int32 min-plus loop in L1, all threads, measured
                        again right before each size (the row's n): on a shared VM the cores
                        this process gets vary, and "% of peak" compares with the peak of the
                        moment
  cpu-int32             apsp::solve, cpu back end, int32 (whole call: setup + rounds + checks)
  cpu-int32-rounds      the Floyd-Warshall rounds of that call (result.timings().solve_seconds)
  cpu-float64[-rounds]  the same in float64, SciPy's type
  reference-int32       apsp::solve, naive reference back end (skipped when the n^3 estimate
                        from the previous size exceeds --reference-limit seconds)
  scipy-float64         scipy.sparse.csgraph.floyd_warshall
  cli                   only when APSP_CLI_CMD is set: a command template, timed wall-clock, with
                        {graph} replaced by the course-binary graph file and {n} by n, e.g.
                        APSP_CLI_CMD='build/cli/apsp solve {graph} -o /tmp/d.bin'

Usage: /usr/bin/python3 bench/cpu/run_cpu_bench.py [--build build] [--sizes 1000,2000,4000]
The build directory (default: the repository's build/) needs the benchmark programs:
  cmake --build build --target cpu_time_solve cpu_minplus_peak
"""

import argparse
import datetime
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy
from scipy.sparse.csgraph import floyd_warshall

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cpu_model():
    out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model = re.search(r"Model name:\s*(.+)", out)
    cpus = re.search(r"^CPU\(s\):\s*(\d+)", out, re.M)
    return f"{model.group(1).strip() if model else 'unknown'} ({cpus.group(1) if cpus else '?'} cpus)"


def commit():
    def git(*args):
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True).stdout
    head = git("rev-parse", "--short", "HEAD").strip() or "unknown"
    return head + ("-dirty" if git("status", "--porcelain", "--untracked-files=no").strip() else "")


def make_graph(n, density, path):
    """Writes the graph to `path` (course binary) and returns it as SciPy's dense input."""
    rng = np.random.default_rng(n)
    mask = rng.random((n, n)) < density
    np.fill_diagonal(mask, False)
    src, dst = np.nonzero(mask)
    w = rng.integers(1, 1001, size=src.size)
    with open(path, "wb") as f:
        f.write(np.array([n, src.size], dtype=np.int32).tobytes())
        f.write(np.stack([src, dst, w], axis=1).astype(np.int32).tobytes())
    dense = np.zeros((n, n), dtype=np.float64)
    dense[src, dst] = w
    return dense, src.size


def missing_programs_message(build, spelled, missing):
    """What to run when the benchmark programs are not in the build directory."""
    cache = os.path.join(build, "CMakeCache.txt")
    lines = [f"run_cpu_bench.py: {', '.join(missing)} not found (build directory {build})."]
    if not os.path.isfile(cache):
        lines.append(f"  configure it: cmake -S {os.path.relpath(ROOT)} -B {spelled} -G Ninja "
                     "-DCMAKE_BUILD_TYPE=Release")
    elif re.search(r"^APSP_BUILD_BENCH:BOOL=(OFF|0|FALSE|NO)$", open(cache).read(), re.M | re.I):
        lines.append(f"  it was configured without benchmarks: cmake -B {spelled} -DAPSP_BUILD_BENCH=ON")
    lines.append(f"  build the two programs: cmake --build {spelled} --target cpu_time_solve "
                 "cpu_minplus_peak")
    lines.append("  or name another build directory with --build DIR")
    return "\n".join(lines)


def run_timer(timer, graph, extra):
    cmd = [timer, graph, *extra]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {out.stderr.strip()}")
    fields = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', out.stdout))
    return cmd, float(fields["seconds"]), float(fields["rounds_seconds"]), fields["device"].strip('"')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build",
                    help="CMake build directory holding bench/cpu/ (absolute, or relative to the "
                         "repository root; default: build)")
    ap.add_argument("--sizes", default="1000,2000,4000")
    ap.add_argument("--density", type=float, default=0.1)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs (cpu back end)")
    ap.add_argument("--reference-limit", type=float, default=600.0,
                    help="skip the reference when its estimated time exceeds this (seconds)")
    ap.add_argument("--peak-seconds", type=float, default=0.5, help="per kernel shape")
    ap.add_argument("--out", default=None, help="CSV path (default bench/results/cpu_<date>.csv)")
    args = ap.parse_args()

    build = os.path.join(ROOT, args.build)
    timer = os.path.join(build, "bench", "cpu", "cpu_time_solve")
    peak_exe = os.path.join(build, "bench", "cpu", "cpu_minplus_peak")
    missing = [exe for exe in (timer, peak_exe) if not os.access(exe, os.X_OK)]
    if missing:
        sys.exit(missing_programs_message(build, args.build, missing))
    date = datetime.date.today().isoformat()
    out_csv = args.out or os.path.join(ROOT, "bench", "results", f"cpu_{date}.csv")
    device, rev = cpu_model(), commit()
    cli_template = os.environ.get("APSP_CLI_CMD", "")
    rows = []  # (n, impl, seconds, updates_per_s, command)

    def measure_peak(n):
        cmd = [peak_exe, str(args.peak_seconds)]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        value = float(re.search(r"peak_updates_per_s (\S+)", out).group(1))
        rows.append((n, "minplus-peak", "", value, " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd)))
        best = {isa: float(v) for isa, v in re.findall(r"^(\w+)\s+best\s+(\S+) e9", out, re.M)}
        print(f"  peak before n = {n}: {value:.3e} updates/s ({', '.join(f'{k} {v:.1f}e9' for k, v in best.items())})")
        return value

    print(f"device: {device}; commit {rev}; scipy {scipy.__version__}; density {args.density}, "
          f"weights uniform integers in [1, 1000]")
    reference_estimate = None
    peaks = {}
    with tempfile.TemporaryDirectory(prefix="apsp_cpu_bench_") as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            graph = os.path.join(tmp, f"random_{n}.bin")
            dense, m = make_graph(n, args.density, graph)
            cube = float(n) ** 3
            print(f"n = {n}: {m} edges")
            peaks[n] = measure_peak(n)
            for dtype in ("int32", "float64"):
                cmd, total, rounds, dev = run_timer(
                    timer, graph, ["--dtype", dtype, "--repeat", str(args.repeat)])
                shown = " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd)
                rows.append((n, f"cpu-{dtype}", total, cube / total, shown))
                rows.append((n, f"cpu-{dtype}-rounds", rounds, cube / rounds, shown))
                print(f"  {dev}: {dtype} {total:.3f} s ({rounds:.3f} s in rounds)")
            if reference_estimate is not None and reference_estimate[1] * (n / reference_estimate[0]) ** 3 > args.reference_limit:
                print(f"  reference skipped (estimated > {args.reference_limit:.0f} s)")
                rows.append((n, "reference-int32", "skipped", "", "skipped: estimate above limit"))
            else:
                cmd, total, _, _ = run_timer(timer, graph, ["--backend", "reference", "--dtype", "int32"])
                shown = " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd)
                rows.append((n, "reference-int32", total, cube / total, shown))
                reference_estimate = (n, total)
                print(f"  reference {total:.3f} s")
            t0 = time.perf_counter()
            scipy_d = floyd_warshall(dense, directed=True)
            seconds = time.perf_counter() - t0
            rows.append((n, "scipy-float64", seconds, cube / seconds,
                         "scipy.sparse.csgraph.floyd_warshall(dense float64, directed=True)"))
            print(f"  scipy {seconds:.3f} s")
            if n == min(int(s) for s in args.sizes.split(",")):
                check = os.path.join(tmp, "d.bin")
                run_timer(timer, graph, ["--dump", check])
                ours = np.fromfile(check, dtype=np.int64).reshape(n, n)
                want = np.where(np.isinf(scipy_d), -1, scipy_d).astype(np.int64)
                if not np.array_equal(ours, want):
                    sys.exit(f"cpu back end and SciPy disagree at n = {n}")
                print("  cpu int32 distances == SciPy distances")
            if cli_template:
                cmd = cli_template.format(graph=graph, n=n)
                t0 = time.perf_counter()
                subprocess.run(cmd, shell=True, check=True, stdout=subprocess.DEVNULL)
                seconds = time.perf_counter() - t0
                rows.append((n, "cli", seconds, cube / seconds, cmd))
                print(f"  cli {seconds:.3f} s")
            del dense, scipy_d

    print()
    print(f"{'n':>6} {'impl':<20} {'seconds':>10} {'updates/s':>11} {'% of peak':>9} {'vs SciPy':>9}")
    scipy_seconds = {r[0]: r[2] for r in rows if r[1] == "scipy-float64"}
    for n, impl, seconds, ups, _ in rows:
        if impl == "minplus-peak":
            print(f"{n!s:>6} {impl:<20} {'':>10} {ups:>11.3e}")
            continue
        if not isinstance(seconds, float):
            print(f"{n!s:>6} {impl:<20} {seconds!s:>10}")
            continue
        ratio = scipy_seconds.get(n, 0) / seconds if n in scipy_seconds else float("nan")
        print(f"{n!s:>6} {impl:<20} {seconds:>10.3f} {ups:>11.3e} {100 * ups / peaks[n]:>8.1f}% {ratio:>8.1f}x")

    os.makedirs(os.path.dirname(out_csv), exist_ok=True)
    # Append: a day's file keeps every earlier run's rows (they are quoted in docs/benchmarks.md).
    new_file = not os.path.exists(out_csv)
    with open(out_csv, "a") as f:
        if new_file:
            f.write("date,device,commit,command,n,impl,seconds,updates_per_s\n")
        for n, impl, seconds, ups, cmd in rows:
            sec = f"{seconds:.6f}" if isinstance(seconds, float) else seconds
            rate = f"{ups:.4e}" if isinstance(ups, float) else ups
            f.write(f'{date},"{device}",{rev},"{cmd}",{n},{impl},{sec},{rate}\n')
    print(f"appended to {os.path.relpath(out_csv, ROOT)}")


if __name__ == "__main__":
    main()
