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

pip hides a build's output unless run with -v (off a terminal it prints only "still
running..."), and the C++ build takes minutes. So each stage -- configure, compile with a count
every tenth of the way, install into the package -- is printed as "apsp: [2/3] ..." to stderr
(unbuffered), to the terminal (/dev/tty) when there is one, and with the whole CMake output to
a build log, build/pip/apsp-build.log beside this file ($APSP_BUILD_LOG chooses another path):
`tail -f build/pip/apsp-build.log` follows a pip run from another shell or a CI step. The log's
path is printed first, and again when a stage fails.
"""

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time

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
    """The controlling terminal when stderr is not it (pip captures both streams), else None."""
    if sys.stderr.isatty():
        return None
    try:
        return open("/dev/tty", "w", encoding="utf-8")
    except OSError:
        return None


STEPS = 3


def build_log_path(environ=None):
    """Where the build log goes: $APSP_BUILD_LOG, else build/pip/apsp-build.log in the tree
    being built (pip builds in place; from an sdist that is its unpacked copy)."""
    environ = os.environ if environ is None else environ
    given = environ.get("APSP_BUILD_LOG")
    return pathlib.Path(given).resolve() if given else ROOT / "build" / "pip" / "apsp-build.log"


class BuildLog:
    """The build's stages for whoever watches: stderr (unbuffered), the terminal when stderr is
    not it, and a log file that also takes every line of CMake's output."""

    def __init__(self, path, terminal=None):
        self.path = pathlib.Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.file = open(self.path, "w", encoding="utf-8", buffering=1)
        self.terminal = terminal

    def message(self, text):
        line = f"apsp: {text}\n"
        sys.stderr.write(line)
        sys.stderr.flush()
        if self.terminal is not None:
            self.terminal.write(line)
            self.terminal.flush()
        self.file.write(f"{time.strftime('%H:%M:%S')} {line}")

    def step(self, number, text):
        self.message(f"[{number}/{STEPS}] {text}")

    def output(self, line):
        """One line of a build command's output: to stdout (pip -v shows it) and the log."""
        sys.stdout.write(line)
        self.file.write(line)

    def close(self):
        self.file.close()


_NINJA_PROGRESS = re.compile(r"^\[(\d+)/(\d+)\] ")
_MAKE_PROGRESS = re.compile(r"^\[\s*(\d+)%\]")


def compile_percent(line):
    """The share of the compile done that a Ninja ("[k/N] ...") or Make ("[ p%] ...") line
    reports, in percent; None for other lines."""
    m = _NINJA_PROGRESS.match(line)
    if m:
        return 100 * int(m.group(1)) // max(1, int(m.group(2)))
    m = _MAKE_PROGRESS.match(line)
    return int(m.group(1)) if m else None


def run_streamed(command, log):
    """Runs a build command, passing its output to log.output line by line, and reports its
    progress on log.message at every tenth of the way."""
    shown = -1
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          bufsize=1) as proc:
        for line in proc.stdout:
            log.output(line)
            percent = compile_percent(line)
            if percent is not None and percent // 10 > shown:
                shown = percent // 10
                log.message(f"      compiling: {percent}% "
                            f"({line.split('] ', 1)[-1].strip()[:70]})")
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
        log = BuildLog(build_log_path(), _open_terminal())
        log.message(f"build log: {log.path} (tail -f it to follow the build)")
        try:
            self.build_with(log)
        except (subprocess.CalledProcessError, RuntimeError) as e:
            log.message(f"failed: {e}; the whole output is in {log.path}")
            raise
        finally:
            log.close()

    def build_with(self, log):
        given = os.environ.get("APSP_CMAKE_BUILD_DIR")
        build_dir = pathlib.Path(given or pathlib.Path(self.build_temp) / "cmake").resolve()
        if given and (build_dir / "CMakeCache.txt").is_file():
            nvcc = self.cached(build_dir, "CMAKE_CUDA_COMPILER")
            log.step(1, f"packaging the configured CMake build in {build_dir}: APSP_ENABLE_CUDA="
                        f"{self.cached(build_dir, 'APSP_ENABLE_CUDA')}, nvcc {nvcc or 'none'}")
        else:
            log.step(1, f"configuring CMake in {build_dir}")
            self.configure(build_dir, log)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        log.step(2, f"compiling the extension and the apsp tool with {jobs} jobs (a few minutes; "
                    "pip -v shows every line)")
        run_streamed(["cmake", "--build", str(build_dir), "-j", jobs, "--target", "apsp_python",
                      "apsp_python_cli"], log)
        log.step(3, "installing the extension and the tool into the package")
        self.copy_outputs(build_dir / "python" / "apsp")
        log.message("built")

    @staticmethod
    def cached(build_dir, name):
        m = re.search(rf"^{name}:\w+=(.*)$", (build_dir / "CMakeCache.txt").read_text(), re.M)
        return m.group(1) if m else None

    def configure(self, build_dir, log):
        cuda = os.environ.get("APSP_ENABLE_CUDA")
        nvcc = find_nvcc()
        args = [f"-DPython_EXECUTABLE={sys.executable}", f"-DPYTHON_EXECUTABLE={sys.executable}",
                "-DCMAKE_BUILD_TYPE=Release", "-DAPSP_BUILD_PYTHON=ON", "-DAPSP_BUILD_CLI=ON",
                "-DAPSP_BUILD_TESTS=OFF", "-DAPSP_BUILD_BENCH=OFF",
                f"-DAPSP_ENABLE_MPI={os.environ.get('APSP_ENABLE_MPI', 'OFF')}"]
        if cuda is None:
            cuda = "ON" if nvcc else "OFF"
            log.message(f"building the CUDA back end (nvcc: {nvcc})" if nvcc else
                        "building cpu-only: no nvcc found (on PATH, $CUDACXX or "
                        "/usr/local/cuda/bin)")
        else:
            log.message(f"APSP_ENABLE_CUDA={cuda} from the environment")
        args.append(f"-DAPSP_ENABLE_CUDA={cuda}")
        if nvcc and cuda.upper() not in ("OFF", "0", "FALSE", "NO"):
            args.append(f"-DCMAKE_CUDA_COMPILER={nvcc}")
        if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").is_file():
            args += ["-G", "Ninja"]
        args += shlex.split(os.environ.get("APSP_CMAKE_ARGS", ""))
        build_dir.mkdir(parents=True, exist_ok=True)
        run_streamed(["cmake", "-S", str(ROOT), "-B", str(build_dir)] + args, log)

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


if __name__ == "__main__":  # pip and `python3 setup.py` run it so; tests import the helpers
    setup(
        version=project_version(),
        package_dir={"": "python"},
        packages=["apsp"],
        py_modules=["apsp_cli"],  # the console script's module: finds the tool, imports no NumPy
        ext_modules=[Extension("apsp._core", sources=[])],
        cmdclass={"build_ext": CMakeBuild},
        options={"build": {"build_base": "build/pip"}},
    )
