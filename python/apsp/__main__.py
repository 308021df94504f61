"""`python -m apsp ...`: the apsp command-line tool (apsp_cli, beside this package)."""

import sys

from apsp_cli import executable, main

__all__ = ["executable", "main"]

if __name__ == "__main__":
    sys.exit(main())
