"""`python -m apsp ...` and the `apsp` console script: the apsp command-line tool.

The package ships the compiled tool as apsp/bin/apsp (the same executable CMake builds from
cli/), and this replaces the Python process with it, so arguments, stdin/stdout/stderr, signals
(Ctrl-C) and the exit code are the tool's own (docs/cli.md).
"""

import os
import sys


def executable():
    """Path of the apsp tool inside this package."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "apsp")


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
