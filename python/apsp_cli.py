"""The `apsp` console script and `python -m apsp`: the apsp command-line tool.

The package ships the compiled tool as apsp/bin/apsp (the same executable CMake builds from
cli/), and this replaces the Python process with it, so arguments, stdin/stdout/stderr, signals
(Ctrl-C) and the exit code are the tool's own (docs/cli.md). A module of its own, beside the
package: the console script finds the tool without importing `apsp`, whose NumPy and SciPy
imports took about 0.2 s of every command.
"""

import importlib.util
import os
import sys


def executable():
    """Path of the apsp tool inside the apsp package (located, not imported)."""
    spec = importlib.util.find_spec("apsp")
    if spec is None or not spec.submodule_search_locations:
        return os.path.join("apsp", "bin", "apsp")
    return os.path.join(list(spec.submodule_search_locations)[0], "bin", "apsp")


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    tool = executable()
    if not os.access(tool, os.X_OK):
        sys.stderr.write(f"apsp: the command-line tool is missing from this installation "
                         f"({tool}); build with APSP_BUILD_CLI=ON\n")
        return 1
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(tool, ["apsp"] + args)
    return 1  # not reached: execv replaces the process or raises OSError


if __name__ == "__main__":
    sys.exit(main())
