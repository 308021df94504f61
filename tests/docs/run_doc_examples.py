#!/usr/bin/python3
"""Runs every code block of the given Markdown files whose fence is marked `runnable`.

A block is marked by a second word in its fence's info string:

    ```sh runnable          (also bash, shell: run by `bash -e`)
    ```python runnable      (run by this interpreter, /usr/bin/python3 under CTest)

Each block runs alone in a fresh temporary directory, with the
command-line tool's directory first on PATH and the build's Python package on PYTHONPATH. For
shell blocks the directory also holds a link `data` to the repository's data/, as the
command-line examples run from the repository root; Python blocks get no such link, as the
Python examples must run from any directory.
A block fails on a non-zero exit or after --timeout seconds, and a Python block also when a
line `print(...)  # TEXT` at its top level did not print TEXT as one line of its output; the script then prints the block,
its file and line, and its output, and exits 1. When the Python package cannot be imported the
Python blocks are reported as skipped and the script exits 77 (CTest's skip code) after running
the others. Fenced blocks may be indented (inside a list item): the fence's indentation is
removed from every line of the block.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
SHELLS = {"sh", "bash", "shell"}
PRINT_WITH_RESULT = re.compile(r"^print\(.*\)\s+#\s*(?P<shown>\S.*?)\s*$")


def blocks(path):
    """Yields (line number, language, code) for each runnable block of a Markdown file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group("indent"), m.group("fence"), m.group("info").split()
        start = i + 1
        j = start
        while j < len(lines) and not (lines[j].strip().startswith(fence) and
                                      lines[j].strip().strip(fence[0]) == ""):
            j += 1
        if j == len(lines):
            sys.exit(f"{path}:{i + 1}: code fence never closed")
        if len(info) >= 2 and info[1] == "runnable":
            body = [line[len(indent):] if line.startswith(indent) else line.lstrip()
                    for line in lines[start:j]]
            yield i + 1, info[0], "\n".join(body) + "\n"
        i = j + 1


def python_importable(python, env):
    probe = subprocess.run([python, "-c", "import apsp"], env=env, capture_output=True, text=True)
    return probe.returncode == 0, probe.stderr.strip().splitlines()[-1:] or [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True, help="repository root (for data/)")
    ap.add_argument("--cli-dir", required=True, help="directory of the built `apsp` tool")
    ap.add_argument("--python-path", required=True, help="directory holding the built package")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("files", nargs="+", help="Markdown files, relative to --source")
    args = ap.parse_args()

    env = dict(os.environ)
    env["PATH"] = os.path.abspath(args.cli_dir) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = os.path.abspath(args.python_path)
    env.pop("PYTHONHOME", None)
    if not os.access(os.path.join(args.cli_dir, "apsp"), os.X_OK):
        sys.exit(f"no apsp tool in {args.cli_dir}: build the apsp_cli target first")
    have_python, why = python_importable(sys.executable, env)

    ran, skipped, failed = 0, [], []
    for name in args.files:
        path = os.path.join(args.source, name)
        found = list(blocks(path))
        if not found:
            failed.append(f"{name}: no block is marked runnable (the marker may have been lost)")
            continue
        for line, lang, code in found:
            where = f"{name}:{line} ({lang})"
            if lang == "python":
                if not have_python:
                    skipped.append(where)
                    continue
                cmd = [sys.executable, "-"]
            elif lang in SHELLS:
                cmd = ["bash", "-e", "-o", "pipefail", "-s"]
            else:
                failed.append(f"{where}: unknown language for a runnable block")
                continue
            with tempfile.TemporaryDirectory(prefix="apsp_doc_example_") as tmp:
                if lang in SHELLS:
                    os.symlink(os.path.join(os.path.abspath(args.source), "data"),
                               os.path.join(tmp, "data"))
                try:
                    out = subprocess.run(cmd, input=code, cwd=tmp, env=env, text=True,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                         timeout=args.timeout)
                    rc, output = out.returncode, out.stdout
                except subprocess.TimeoutExpired as e:
                    rc, output = f"timeout after {args.timeout:.0f} s", e.stdout or ""
            ran += 1
            output = output if isinstance(output, str) else output.decode()
            printed = [line.strip() for line in output.splitlines()]
            missing = [] if lang != "python" else [
                m.group("shown") for m in map(PRINT_WITH_RESULT.match, code.splitlines())
                if m and m.group("shown") not in printed]
            if rc != 0 or missing:
                what = f"exit {rc}" if rc != 0 else "did not print " + " / ".join(
                    repr(x) for x in missing)
                failed.append(f"{where}: {what}\n--- block ---\n{code}--- output ---\n{output}")
            else:
                print(f"ok   {where}")

    for s in skipped:
        print(f"skip {s}: `import apsp` failed with PYTHONPATH={env['PYTHONPATH']}: {why[0]}")
    for f in failed:
        print(f"FAIL {f}")
    print(f"{ran} blocks run, {len(failed)} failed, {len(skipped)} skipped")
    if failed:
        return 1
    return 77 if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
