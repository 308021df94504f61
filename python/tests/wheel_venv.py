"""Builds the wheel, installs it into a fresh venv and copies the test suite out of the source
tree: the fixture of CTest's python_installed_tests (python/CMakeLists.txt).

    python3 wheel_venv.py --source SRC --cmake-build BUILD --work DIR

The wheel packages the extension and tool of the configured CMake build BUILD
(APSP_CMAKE_BUILD_DIR, see setup.py), so nothing is compiled a second time. DIR gets dist/ (the
wheel), venv/ (python3 -m venv --system-site-packages, for NumPy and SciPy), tests/ and run/ (the
working directory of the tests, outside the source tree).
"""

import argparse
import glob
import os
import pathlib
import shutil
import subprocess
import sys
import time


def step(what, command, **kwargs):
    """Runs command, echoing its output; returns the output."""
    start = time.monotonic()
    print(f"wheel_venv: {what}: {' '.join(map(str, command))}", flush=True)
    out = subprocess.run(list(map(str, command)), check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, **kwargs).stdout
    print(out, end="", flush=True)
    print(f"wheel_venv: {what}: {time.monotonic() - start:.1f} s", flush=True)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=pathlib.Path, required=True)
    parser.add_argument("--cmake-build", type=pathlib.Path, required=True)
    parser.add_argument("--work", type=pathlib.Path, required=True)
    a = parser.parse_args()
    for module, package in (("build", "python3-build"), ("wheel", "python3-wheel"),
                            ("setuptools", "python3-setuptools"), ("ensurepip", "python3-venv")):
        try:
            __import__(module)
        except ImportError:
            sys.exit(f"wheel_venv: {sys.executable} lacks the module {module}: install the "
                     f"Debian package {package} (make deps does)")

    work = a.work.resolve()
    shutil.rmtree(work, ignore_errors=True)
    (work / "run").mkdir(parents=True)
    build_log = work / "apsp-build.log"
    env = dict(os.environ, APSP_CMAKE_BUILD_DIR=str(a.cmake_build.resolve()),
               APSP_BUILD_LOG=str(build_log))
    env.pop("PYTHONPATH", None)
    out = step("build the wheel", [sys.executable, "-m", "build", "--wheel", "--no-isolation",
                                   "--outdir", work / "dist", a.source], env=env)
    # setup.py says what it is doing, step by step (a long compile must not look stuck).
    steps = [line for line in out.splitlines() if line.startswith("apsp: [")]
    if [line[7:10] for line in steps] != ["1/3", "2/3", "3/3"]:
        sys.exit(f"wheel_venv: setup.py did not print its three steps, got {steps}")
    # ... and writes them to the build log whose path it names first (pip hides the rest).
    if f"apsp: build log: {build_log}" not in out or not build_log.is_file() or \
            [line for line in build_log.read_text().splitlines() if "apsp: [" in line] == []:
        sys.exit(f"wheel_venv: setup.py did not write its steps to the build log {build_log}")
    wheels = glob.glob(str(work / "dist" / "apsp-*.whl"))
    if len(wheels) != 1:
        sys.exit(f"wheel_venv: expected one wheel in {work / 'dist'}, found {wheels}")

    venv = work / "venv"
    step("make a venv", [sys.executable, "-m", "venv", "--system-site-packages", venv], env=env)
    # --no-index: offline; the dependency (numpy) comes from the system site packages.
    step("install the wheel", [venv / "bin" / "python", "-m", "pip", "install", "--no-index",
                               "--disable-pip-version-check", "-q", wheels[0]], env=env)
    shutil.copytree(a.source / "python" / "tests", work / "tests",
                    ignore=shutil.ignore_patterns("__pycache__", "wheel_venv.py"))


if __name__ == "__main__":
    main()
