#!/usr/bin/python3
"""Relative links of the user documentation lead somewhere: for each Markdown file given
(relative to --source), every link `[text](target)` that is not a URL names a file or directory
that exists, and a `#fragment` names a heading of the target (GitHub's anchors: lower case,
punctuation but `-` and `_` removed, spaces to `-`). Code spans and fenced blocks are skipped.
Exits 1 listing each broken link with its file and line."""

import argparse
import os
import re
import sys

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def prose_lines(path):
    """(line number, text) of the lines outside fenced blocks, code spans removed."""
    fence = None
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        m = FENCE.match(line)
        if m:
            fence = None if fence and m.group(1).startswith(fence) else (fence or m.group(1))
            continue
        if fence is None:
            yield number, re.sub(r"`[^`]*`", "", line)


def anchors(path):
    """GitHub's anchors of a file's headings (code spans keep their text in them)."""
    found, seen = set(), {}
    fence = None
    for line in open(path, encoding="utf-8"):
        m = FENCE.match(line)
        if m:
            fence = None if fence and m.group(1).startswith(fence) else (fence or m.group(1))
            continue
        h = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line) if fence is None else None
        if h:
            slug = re.sub(r"[^\w\- ]", "", h.group(1).lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    broken, checked = [], 0
    for name in args.files:
        path = os.path.join(args.source, name)
        for number, line in prose_lines(path):
            for m in LINK.finditer(line):
                target = m.group(1) or m.group(2)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # a URL or mailto:
                checked += 1
                file_part, _, fragment = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                    if file_part else path
                if not os.path.exists(dest):
                    broken.append(f"{name}:{number}: {target}: no such file")
                elif fragment and dest.endswith(".md") and fragment not in anchors(dest):
                    broken.append(f"{name}:{number}: {target}: no heading #{fragment}")
    for b in broken:
        print("BROKEN", b)
    print(f"{checked} relative links checked in {len(args.files)} files, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
