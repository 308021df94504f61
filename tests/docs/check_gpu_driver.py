#!/usr/bin/env python3
"""The GPU benchmark driver (bench/gpu/run.sh) without a GPU: stand-in nvidia-smi, cmake, ctest
and measurement programs on PATH and in a fake build directory, then
`run.sh tests kernels wholerun ab` (ab: an environment setting, one round). Checks that every
script parses, that --list names every suite, that the call exits 0 and leaves at most 8 files
in OUT (results.csv in the documented schema with rows from each suite and both A/B variants,
summary.txt, table.txt, logs.tgz), and that the table is printed last.

Usage: check_gpu_driver.py SOURCE_DIR   (exit 77, skipped, without bash or NumPy)
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

SCHEMA = "date,device,commit,suite,variant,case,n,metric,value,unit,command"

FAKES = {
    "bin/nvidia-smi": """#!/bin/bash
case "$*" in
  -L) echo "GPU 0: NVIDIA H200 (UUID: a)"; echo "GPU 1: NVIDIA H200 (UUID: b)" ;;
  *name*noheader*) echo "NVIDIA H200"; echo "NVIDIA H200" ;;
  *) echo "stand-in nvidia-smi" ;;
esac
""",
    "bin/cmake": """#!/bin/bash
for ((i = 1; i <= $#; i++)); do [[ ${!i} == -B ]] && { j=$((i + 1)); mkdir -p "${!j}"; }; done
exit 0
""",
    "bin/ctest": """#!/bin/bash
echo "100% tests passed, 0 tests failed out of 3"
""",
    "build/bench/cuda/apsp_bench_cuda": """#!/bin/bash
while (($#)); do
  case $1 in --csv) csv=$2; shift ;; --commit) commit=$2; shift ;; --command) cmd=$2; shift ;; esac
  shift
done
echo "date,device,commit,command,n,mode,seconds,updates_per_s,pct_peak" >"$csv"
echo "2026-01-01,NVIDIA H200,$commit,\\"$cmd\\",10000,int32,0.07${AB_TEST_VALUE:-5},1.4e13,88" >>"$csv"
echo "  kernels int32 n=10000"
""",
    "build/cli/apsp": """#!/bin/bash
[[ $1 == solve ]] || exit 0
for ((i = 1; i <= $#; i++)); do [[ ${!i} == -o ]] && { j=$((i + 1)); echo x >"${!j}"; }; done
echo '{"n": 49109, "backend": "cuda", "device": "NVIDIA H200", "seconds": {"solve": 1.5}}'
""",
    "data/DE.gr": "p sp 1 0\n",
}


def main():
    src = os.path.abspath(sys.argv[1])
    if shutil.which("bash") is None:
        return 77
    try:
        import numpy  # noqa: F401  (bench/cuda/wholerun.py needs it)
    except ImportError:
        return 77
    driver = os.path.join(src, "bench", "gpu")
    scripts = [os.path.join(driver, "run.sh"), os.path.join(driver, "lib.sh")] + sorted(
        os.path.join(driver, "suites", f) for f in os.listdir(os.path.join(driver, "suites")))
    for s in scripts:
        subprocess.run(["bash", "-n", s], check=True)
    listed = subprocess.run(["bash", os.path.join(driver, "run.sh"), "--list"],
                            capture_output=True, text=True, check=True).stdout
    for suite in ("tests", "checks", "kernels", "wholerun", "multi", "ooc", "packed", "paths",
                  "sparse", "ranks", "placement", "cpu-host", "ab"):
        assert f"  {suite} " in listed, f"--list lacks {suite}:\n{listed}"
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in FAKES.items():
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, 0o755)
        out = os.path.join(tmp, "out")
        env = dict(os.environ, PATH=f"{tmp}/bin:{os.path.dirname(sys.executable)}:/usr/bin:/bin",
                   OUT=out, WORK=os.path.join(tmp, "work"), BUILD=os.path.join(tmp, "build"),
                   APSP_DATA_DIR=os.path.join(tmp, "data"), APSP_COMMIT="abc1234",
                   WHOLERUN_ONLY="de", WHOLERUN_REPEAT="1", AB_VAR="AB_TEST_VALUE",
                   AB_VALUES="1 default", ROUNDS="1")
        p = subprocess.run(["bash", os.path.join(driver, "run.sh"), "tests", "kernels",
                            "wholerun", "ab"], cwd=src, env=env, capture_output=True, text=True)
        assert p.returncode == 0, f"rc {p.returncode}\n{p.stdout}\n{p.stderr}"
        files = sorted(os.listdir(out))
        assert files == ["logs.tgz", "results.csv", "summary.txt", "table.txt"], files
        with open(os.path.join(out, "results.csv")) as f:
            assert f.readline().strip() == SCHEMA
        with open(os.path.join(out, "results.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        suites = {r["suite"] for r in rows}
        assert {"tests", "kernels", "wholerun"} <= suites, suites
        variants = {r["variant"] for r in rows}
        assert {"", "AB_TEST_VALUE=1", "AB_TEST_VALUE unset"} <= variants, variants
        for r in rows:
            assert r["commit"] == "abc1234" and r["device"].startswith("2x NVIDIA H200;"), r
            float(r["value"])
        tests = [r for r in rows if r["suite"] == "tests" and r["metric"] == "tests_passed"]
        assert tests and tests[0]["value"] == "3", tests
        last = p.stdout.rstrip().splitlines()
        assert any("int32" in line and "AB_TEST_VALUE=1: 0.071" in line for line in last[-6:]), \
            "\n".join(last[-10:])
    print(f"bench/gpu/run.sh: {len(scripts)} scripts parse, {len(rows)} rows from a stand-in call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
