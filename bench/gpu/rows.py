#!/usr/bin/env python3
"""The common CSV schema of bench/gpu/run.sh (bench/gpu/README.md): one measurement per row,

    date,device,commit,suite,variant,case,n,metric,value,unit,command

  rows.py convert NATIVE.csv --suite S [--case-column COL[,COL...]] [--variant V] [--commit C]
          [--device D] [--date YYYY-MM-DD] [--command-suffix TEXT]
      The rows a measurement program wrote in its own CSV (apsp_bench_cuda, apsp_bench_blocked,
      bench/cuda/wholerun.py, bench/mpi/rank_row.py, ...) in the common schema, on stdout, no
      header: one row per numeric column other than n; the case is the named column (by
      default the first of mode, config, impl, algorithm, setting; several named: "col=value"
      for each) and the command is the program's own. Device, commit and date replace the program's when given.
  rows.py table RESULTS.csv [...]
      A short table: one line per suite, case, n and headline metric, the values of every
      variant (and every repetition) side by side.
"""
import argparse
import csv
import sys

FIELDS = ["date", "device", "commit", "suite", "variant", "case", "n", "metric", "value", "unit",
          "command"]
DEFAULT_CASE = ("mode", "config", "impl", "algorithm", "setting")
NOT_METRICS = {"date", "device", "commit", "command", "n", "m", "note"}
# The metric a table line shows for a case, first found wins.
HEADLINE = ("seconds", "solve_seconds", "whole_seconds", "wall_seconds", "median_us",
            "tests_passed", "errors", "updates_per_s", "whole_s")


def unit_of(metric):
    if metric == "updates_per_s":
        return "updates/s"
    if metric.startswith("pct") or metric.endswith("_pct"):
        return "%"
    if metric.endswith("_us"):
        return "us"
    if metric.endswith("_bytes"):
        return "B"
    if metric in ("seconds", "main_s", "whole_s") or metric.endswith(("_seconds", "_s")):
        return "s"
    if metric.endswith("threads"):
        return "count"
    return ""


def number(text):
    try:
        float(text)
        return True
    except (TypeError, ValueError):
        return False


def convert(args):
    with open(args.native, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return 0
    columns = list(rows[0].keys())
    if args.case_column:
        case_cols = args.case_column.split(",")
    else:
        case_cols = [next((c for c in DEFAULT_CASE if c in columns), None)]
        case_cols = [c for c in case_cols if c]
    out = csv.writer(sys.stdout, lineterminator="\n")
    for r in rows:
        if len(case_cols) == 1:
            case = r.get(case_cols[0]) or ""
        else:
            case = " ".join(f"{c}={r.get(c) or ''}" for c in case_cols)
        for col in columns:
            if col in NOT_METRICS or col in case_cols or not number(r.get(col)):
                continue
            out.writerow([args.date or r.get("date", ""), args.device or r.get("device", ""),
                          args.commit or r.get("commit", ""), args.suite, args.variant, case,
                          r.get("n", ""), col, r[col], unit_of(col),
                          r.get("command", "") + args.command_suffix])
    return 0


def table(args):
    groups = {}
    variants = []
    for path in args.results:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                key = (r["suite"], r["case"], r["n"])
                groups.setdefault(key, {}).setdefault(r["metric"], []).append(r)
                if r["variant"] not in variants:
                    variants.append(r["variant"])
    lines = []
    for (suite, case, n), metrics in groups.items():
        shown = [m for m in HEADLINE if m in metrics and any(
            r["value"] not in ("0", "0.0", "") for r in metrics[m])]
        metric = shown[0] if shown else next(iter(metrics))
        rows = metrics[metric]
        cells = []
        for v in variants:
            values = [r["value"] for r in rows if r["variant"] == v]
            if values:
                cells.append((f"{v}: " if v else "") + " ".join(values))
        unit = rows[0]["unit"]
        lines.append((suite, case, n, f"{metric} ({unit})" if unit else metric, " | ".join(cells)))
    if not lines:
        print("(no rows)")
        return 0
    widths = [min(max(len(line[i]) for line in lines), 60) for i in range(4)]
    for line in lines:
        print("  ".join(line[i].ljust(widths[i]) for i in range(4)) + "  " + line[4])
    return 0


def compare_tables(args):
    """Two CSV tables of the same header and rows (apsp metrics' per-vertex output): whether
    they are identical, else the largest relative difference of a numeric cell."""
    with open(args.a, newline="") as fa, open(args.b, newline="") as fb:
        a, b = list(csv.reader(fa)), list(csv.reader(fb))
    if not a or not b or a[0] != b[0] or len(a) != len(b):
        print(f"tables differ in shape: {len(a)} and {len(b)} rows, headers {a[:1]} {b[:1]}")
        return 1
    worst = 0.0
    for ra, rb in zip(a[1:], b[1:]):
        for x, y in zip(ra, rb):
            if x != y:
                worst = max(worst, abs(float(x) - float(y)) / max(1.0, abs(float(y))))
    shown = "identical" if worst == 0 else f"largest relative difference {worst:.3g}"
    print(f"{len(a) - 1} rows x {len(a[0])} columns, {shown}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("convert")
    c.add_argument("native")
    c.add_argument("--suite", required=True)
    c.add_argument("--case-column", default="")
    c.add_argument("--variant", default="")
    c.add_argument("--commit", default="")
    c.add_argument("--device", default="")
    c.add_argument("--date", default="")
    c.add_argument("--command-suffix", default="")
    t = sub.add_parser("table")
    t.add_argument("results", nargs="+")
    k = sub.add_parser("compare-tables")
    k.add_argument("a")
    k.add_argument("b")
    args = ap.parse_args()
    run = {"convert": convert, "table": table, "compare-tables": compare_tables}
    return run[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
