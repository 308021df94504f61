"""Builds the `apsp` Python package through the project's CMake (pyproject.toml has the rest).

    pip install --no-build-isolation .          # or: python3 -m build --wheel --no-isolation

build_ext configures CMake (the CUDA back end when nvcc is found, cpu-only otherwise), builds
the extension apsp._core and the command-line tool, and puts both into the package beside the
pure-Python files of python/apsp. Environment (docs/python.md):

    APSP_ENABLE_CUDA=ON|OFF       override the nvcc check
    APSP_ENABLE_MPI=ON|OFF|AUTO   the tool's distributed solver (default OFF: no MPI libraries)
    APSP_CMAKE_ARGS="..."         more cmake arguments
    APSP_CMAKE_BUILD_DIR=DIR      use this CMake build directory; one that is already configured
                                  is built as it is (no configure), which lets CI package its build

pip hides a build's output unless run with -v, and the C++ build takes minutes: so each step
(and the compile's progress, every tenth) is also written to the terminal (/dev/tty) when there
is one, as "apsp: [2/3] ...". The whole CMake output goes to stdout as usual (pip -v shows it).
"""

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    """The one version of apsp: project(apsp VERSION x.y.z) in CMakeLists.txt."""
    text = (ROOT / "CMakeLists.txt").read_text()
    m = re.search(r"project\(\s*apsp\s+VERSION\s+([0-9][0-9.]*)", text)
    if m is None:
        raise RuntimeError("CMakeLists.txt has no project(apsp VERSION ...)")
    return m.group(1)


def find_nvcc():
    for candidate in (os.environ.get("CUDACXX"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _open_terminal():
    """The controlling terminal when stdout is not it (pip captures stdout), else None."""
    if sys.stdout.isatty():
        return None
    try:
        return open("/dev/tty", "w", encoding="utf-8")
    except OSError:
        return None


_TERMINAL = _open_terminal()
STEPS = 3


def log(message, *, terminal=True):
    print(f"apsp: {message}", flush=True)
    if terminal and _TERMINAL is not None:
        _TERMINAL.write(f"apsp: {message}\n")
        _TERMINAL.flush()


def step(number, message):
    log(f"[{number}/{STEPS}] {message}")


_NINJA_PROGRESS = re.compile(r"^\[(\d+)/(\d+)\] ")


def run_streamed(command):
    """Runs a build command, passing its output through line by line, and reports its progress
    ("[k/N]" lines of Ninja, "[ p%]" of Make) on the terminal at every tenth of the way."""
    shown = -1
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          bufsize=1) as proc:
        for line in proc.stdout:
            sys.stdout.write(line)
            m = _NINJA_PROGRESS.match(line)
            percent = None
            if m:
                percent = 100 * int(m.group(1)) // max(1, int(m.group(2)))
            else:
                m = re.match(r"^\[\s*(\d+)%\]", line)
                percent = int(m.group(1)) if m else None
            if percent is not None and percent // 10 > shown:
                shown = percent // 10
                log(f"      compiling: {percent}% ({line.split('] ', 1)[-1].strip()[:70]})")
        sys.stdout.flush()
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, command)


def require(module, what):
    """Stops with one clear line when this Python lacks a module the build needs (another
    python3 first on PATH, e.g. pyenv's, has none of Debian's packages and nothing can be
    downloaded here)."""
    try:
        __import__(module)
    except ImportError:
        sys.exit(f"apsp: {sys.executable} cannot import {module} ({what}). Build with Debian's "
                 f"Python: /usr/bin/python3 -m venv --system-site-packages .venv && "
                 f".venv/bin/pip install --no-build-isolation . (docs/python.md)")


if {"bdist_wheel", "dist_info"} & set(sys.argv):
    require("wheel", "Debian's python3-wheel, for building the wheel")


class CMakeBuild(build_ext):
    """Builds apsp._core and the apsp tool with CMake instead of setuptools' compiler calls."""

    def run(self):
        if shutil.which("cmake") is None:
            raise RuntimeError("apsp: cmake not found: install Debian's cmake (make deps does)")
        require("numpy", "Debian's python3-numpy: the extension is built against it")
        given = os.environ.get("APSP_CMAKE_BUILD_DIR")
        build_dir = pathlib.Path(given or pathlib.Path(self.build_temp) / "cmake").resolve()
        if given and (build_dir / "CMakeCache.txt").is_file():
            nvcc = self.cached(build_dir, "CMAKE_CUDA_COMPILER")
            step(1, f"packaging the configured CMake build in {build_dir}: APSP_ENABLE_CUDA="
                    f"{self.cached(build_dir, 'APSP_ENABLE_CUDA')}, nvcc {nvcc or 'none'}")
        else:
            step(1, f"configuring CMake in {build_dir}")
            self.configure(build_dir)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        step(2, f"compiling the extension and the apsp tool with {jobs} jobs (a few minutes; "
                "pip -v shows every line)")
        run_streamed(["cmake", "--build", str(build_dir), "-j", jobs, "--target", "apsp_python",
                      "apsp_python_cli"])
        step(3, "copying the extension and the tool into the package")
        self.copy_outputs(build_dir / "python" / "apsp")

    @staticmethod
    def cached(build_dir, name):
        m = re.search(rf"^{name}:\w+=(.*)$", (build_dir / "CMakeCache.txt").read_text(), re.M)
        return m.group(1) if m else None

    def configure(self, build_dir):
        cuda = os.environ.get("APSP_ENABLE_CUDA")
        nvcc = find_nvcc()
        args = [f"-DPython_EXECUTABLE={sys.executable}", f"-DPYTHON_EXECUTABLE={sys.executable}",
                "-DCMAKE_BUILD_TYPE=Release", "-DAPSP_BUILD_PYTHON=ON", "-DAPSP_BUILD_CLI=ON",
                "-DAPSP_BUILD_TESTS=OFF", "-DAPSP_BUILD_BENCH=OFF",
                f"-DAPSP_ENABLE_MPI={os.environ.get('APSP_ENABLE_MPI', 'OFF')}"]
        if cuda is None:
            cuda = "ON" if nvcc else "OFF"
            log(f"building the CUDA back end (nvcc: {nvcc})" if nvcc else
                "building cpu-only: no nvcc found (on PATH, $CUDACXX or /usr/local/cuda/bin)")
        else:
            log(f"APSP_ENABLE_CUDA={cuda} from the environment")
        args.append(f"-DAPSP_ENABLE_CUDA={cuda}")
        if nvcc and cuda.upper() not in ("OFF", "0", "FALSE", "NO"):
            args.append(f"-DCMAKE_CUDA_COMPILER={nvcc}")
        if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").is_file():
            args += ["-G", "Ninja"]
        args += shlex.split(os.environ.get("APSP_CMAKE_ARGS", ""))
        build_dir.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir)] + args, check=True)

    def copy_outputs(self, package_dir):
        ext = self.extensions[0]
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        built = package_dir / target.name
        if not built.is_file():
            found = sorted(p.name for p in package_dir.glob("_core*"))
            raise RuntimeError(f"{built} was not built (found {found or 'nothing'}): the CMake "
                               f"build is for another Python than {sys.executable} "
                               f"(extension suffix {sysconfig.get_config_var('EXT_SUFFIX')})")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)
        tool = target.parent / "bin" / "apsp"
        tool.parent.mkdir(exist_ok=True)
        shutil.copy2(package_dir / "bin" / "apsp", tool)


setup(
    version=project_version(),
    package_dir={"": "python"},
    packages=["apsp"],
    py_modules=["apsp_cli"],  # the console script's module: finds the tool, imports no NumPy
    ext_modules=[Extension("apsp._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build/pip"}},
)
