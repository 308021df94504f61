#!/usr/bin/python3
"""bench/cpu/run_cpu_bench.py starts: --help names --build with its default, and a build
directory without the benchmark programs gives exit 1 and says how to build them (instead of a
traceback or a run against nothing)."""

import subprocess
import sys
import tempfile

script = sys.argv[1]


def run(*args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


failures = []
usage = run("--help")
if usage.returncode != 0 or "--build" not in usage.stdout or "default: build" not in usage.stdout:
    failures.append(f"--help: exit {usage.returncode}\n{usage.stdout}{usage.stderr}")

with tempfile.TemporaryDirectory(prefix="apsp_bench_check_") as empty:
    missing = run("--build", empty, "--sizes", "10")
    text = missing.stderr
    if (missing.returncode != 1 or "cpu_time_solve" not in text or "not found" not in text
            or f"cmake --build {empty} --target cpu_time_solve cpu_minplus_peak" not in text
            or "Traceback" in text):
        failures.append(f"--build {empty}: exit {missing.returncode}\n{missing.stdout}{text}")

for f in failures:
    print("FAIL", f)
print("ok" if not failures else f"{len(failures)} failed")
sys.exit(1 if failures else 0)
