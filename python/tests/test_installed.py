"""Checks of an installed wheel (CTest python_installed_tests sets APSP_EXPECT_INSTALLED to the
venv it made); skipped when the suite runs against the CMake build tree."""

import importlib.metadata
import os
import pathlib
import subprocess
import sys

import pytest

import apsp

PREFIX = os.environ.get("APSP_EXPECT_INSTALLED")
pytestmark = pytest.mark.skipif(not PREFIX, reason="runs against an installed wheel only "
                                "(APSP_EXPECT_INSTALLED=<venv>, set by ctest -R python_installed)")


def test_imported_from_the_venv_not_the_source_tree():
    package = pathlib.Path(apsp.__file__).resolve().parent
    assert package.is_relative_to(pathlib.Path(PREFIX).resolve()), package
    assert "site-packages" in package.parts
    assert pathlib.Path(sys.prefix).resolve() == pathlib.Path(PREFIX).resolve()


def test_wheel_holds_every_module_and_the_tool():
    files = {str(f) for f in importlib.metadata.files("apsp")}
    for name in ("__init__.py", "__main__.py", "_api.py", "_errors.py", "_inputs.py",
                 "_path.py", "_progress.py", "bin/apsp"):
        assert f"apsp/{name}" in files, name
    assert "apsp_cli.py" in files
    assert any(f.startswith("apsp/_core.") and f.endswith(".so") for f in files)
    package = pathlib.Path(apsp.__file__).parent
    assert os.access(package / "bin" / "apsp", os.X_OK)


def test_one_version_everywhere():
    # The wheel's metadata (setup.py reads CMakeLists.txt) and the library (CMake passes
    # PROJECT_VERSION to the C++ code) agree.
    assert importlib.metadata.version("apsp") == apsp.__version__


def test_console_script_runs_the_tool(tmp_path):
    script = pathlib.Path(sys.executable).parent / "apsp"
    assert script.is_file(), "the wheel installed no apsp console script"
    out = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout.strip()) == (0, f"apsp {apsp.__version__}")
    out = subprocess.run([str(script), "info", str(tmp_path / "none.gr")], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 3 and out.stdout == ""


def test_console_script_imports_neither_the_package_nor_numpy():
    # The script's module finds the tool without importing apsp (NumPy and SciPy cost about
    # 0.2 s of every command).
    probe = ("import sys, apsp_cli; tool = apsp_cli.executable(); "
             "print(tool, 'apsp' in sys.modules, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    tool, package, numpy = out.stdout.split()
    assert (package, numpy) == ("False", "False")
    assert pathlib.Path(tool).resolve() == (pathlib.Path(apsp.__file__).parent / "bin" /
                                            "apsp").resolve()
