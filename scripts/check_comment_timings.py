#!/usr/bin/python3
"""Measured timings stay out of code comments (issue 33): they belong in benchmark output and
docs/dev/benchmark-log.md ("Figures from code comments"); a comment keeps the reason in words.

Scans the comments (//, ///, /* */) of the C++ and CUDA sources under src/, cli/, include/ and
python/src/ (.hpp .cpp .cu .cuh .in) of --source for a number followed by a time or bandwidth
unit (s, ms, us, GB/s, GiB/s, ...) or for "took <number>". String literals are not comments and
are not scanned. Exits 1 listing each hit as file:line, 0 when there is none."""

import argparse
import os
import re
import sys

DIRS = ("src", "cli", "include", os.path.join("python", "src"))
EXTENSIONS = (".hpp", ".cpp", ".cu", ".cuh", ".in")

# A number (digits, maybe with thousands commas, a decimal part or a range "0.1-0.3") followed,
# with at most one space, by a time or bandwidth unit that ends the word.
UNIT = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)*(?:\s?-\s?\d+(?:[.,]\d+)*)?\s?"
    r"(?:s|ms|us|µs|ns|GB/s|GiB/s|MB/s|MiB/s|TB/s)(?![\w/])")
TOOK = re.compile(r"\btook\s+(?:about\s+|some\s+)?\d")

# Non-measurements that look like one: (file relative to --source, exact text of the hit's
# line that must occur in it). Each needs a reason.
ALLOWED = [
    # A setting of the test-only pause: how long the tool waits for a signal, not a timing.
    ("cli/interrupt.hpp", "waits (at most 60 s) for a signal"),
]


def comments(text):
    """(line number, text) of every comment line: // and /// to the line's end, /* */ blocks
    line by line. String and character literals (raw strings included) are skipped."""
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            yield line, text[i:end]
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            for k, part in enumerate(text[i:end].split("\n")):
                yield line + k, part
            line += text.count("\n", i, end)
            i = end
        elif c == '"':
            m = re.match(r'R"([^()\\\s]{0,16})\(', text[i - 1:i + 20]) if i > 0 else None
            if m and text[i - 1] == "R":
                close = ")" + m.group(1) + '"'
                end = text.find(close, i)
                end = n if end < 0 else end + len(close)
            else:
                end = i + 1
                while end < n and text[end] not in '"\n':
                    end += 2 if text[end] == "\\" else 1
                end += 1
            line += text.count("\n", i, min(end, n))
            i = end
        elif c == "'":
            # A digit separator (1'000) sits inside a number; anything else opens a literal.
            j = i
            while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "'._"):
                j -= 1
            if j < i and text[j].isdigit():
                i += 1
                continue
            end = i + 1
            while end < n and text[end] not in "'\n":
                end += 2 if text[end] == "\\" else 1
            i = end + 1
        else:
            i += 1


def hits(source):
    for top in DIRS:
        for root, dirs, files in os.walk(os.path.join(source, top)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(EXTENSIONS):
                    continue
                path = os.path.join(root, name)
                rel = os.path.relpath(path, source).replace(os.sep, "/")
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for number, comment in comments(text):
                    if not (UNIT.search(comment) or TOOK.search(comment)):
                        continue
                    if any(rel == file and pattern in comment for file, pattern in ALLOWED):
                        continue
                    yield rel, number, comment.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=os.path.join(os.path.dirname(__file__), ".."),
                        help="the repository root (default: this script's parent)")
    args = parser.parse_args()
    found = list(hits(os.path.abspath(args.source)))
    for rel, number, comment in found:
        print(f"{rel}:{number}: measured figure in a comment: {comment}")
    if found:
        print(f"{len(found)} comment line(s) quote measured timings: state the reason in words "
              "and move the figures to docs/dev/benchmark-log.md, 'Figures from code comments' "
              "(or, for a setting, add an entry to ALLOWED in scripts/check_comment_timings.py).",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
