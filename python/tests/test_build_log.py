"""setup.py's build log: pip shows nothing of a build off a terminal, so setup.py prints its
stages to stderr and writes them, with CMake's whole output, to a log whose path it prints. The
helpers are run here on a stand-in build command; CTest's python_installed_tests runs the real
build (python/tests/wheel_venv.py checks the log there)."""

import importlib.util
import pathlib
import subprocess
import sys

import pytest

SETUP = pathlib.Path(__file__).resolve().parents[2] / "setup.py"


@pytest.fixture(scope="module")
def setup_py():
    if not SETUP.is_file():
        pytest.skip("setup.py is not beside these tests (the installed copy of the suite)")
    spec = importlib.util.spec_from_file_location("apsp_setup_under_test", SETUP)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # setup() runs only as __main__
    return module


def test_log_path_defaults_to_the_build_tree_and_follows_the_environment(setup_py, tmp_path):
    assert setup_py.build_log_path({}) == SETUP.parent / "build" / "pip" / "apsp-build.log"
    chosen = tmp_path / "logs" / "b.log"
    assert setup_py.build_log_path({"APSP_BUILD_LOG": str(chosen)}) == chosen


@pytest.mark.parametrize("line, percent", [("[3/40] Building CXX object a.o", 7),
                                           ("[40/40] Linking CXX shared module _core.so", 100),
                                           ("[ 55%] Building CXX object b.o", 55),
                                           ("-- Configuring done", None)])
def test_compile_percent_reads_ninja_and_make(setup_py, line, percent):
    assert setup_py.compile_percent(line) == percent


def test_stages_reach_stderr_and_the_log_with_the_whole_output(setup_py, tmp_path, capfd):
    path = tmp_path / "sub" / "apsp-build.log"
    log = setup_py.BuildLog(path)  # makes the folder
    log.step(2, "compiling")
    # A stand-in for `cmake --build`: twenty Ninja lines and one of its own.
    script = "\n".join([f"print('[{k}/20] Building CXX object f{k}.o')" for k in range(1, 21)] +
                       ["print('plain output line')"])
    setup_py.run_streamed([sys.executable, "-c", script], log)
    with pytest.raises(subprocess.CalledProcessError):
        setup_py.run_streamed([sys.executable, "-c", "import sys; print('boom'); sys.exit(3)"],
                              log)
    log.close()
    out, err = capfd.readouterr()
    staged = [line for line in err.splitlines() if line.startswith("apsp: ")]
    assert staged[0] == "apsp: [2/3] compiling", err
    counted = [line for line in staged if "compiling: " in line]
    # One line a tenth of the way, from 5 % (the first line) to 100 %.
    assert [line.split("compiling: ")[1].split("%")[0] for line in counted] == \
        ["5", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"], err
    assert "plain output line" in out and "plain output line" not in err
    text = path.read_text()
    assert "apsp: [2/3] compiling" in text and "[20/20] Building CXX object f20.o" in text
    assert "plain output line" in text and "boom" in text
    assert "apsp:       compiling: 100%" in text
