#!/usr/bin/python3
"""Supernodal Floyd-Warshall in numpy, on a whole graph: checks the method end to end.

Usage (from the repository root):
    nice /usr/bin/python3 bench/sparse/supernodal_fw_numpy.py [GRAPH.gr | --chicago-synthetic]
        [--supernodes fundamental|relaxed] [--check] [--csv FILE]

Orders the graph with METIS, finds the supernodes (bench/sparse/supernodes.py) and runs one step
per supernode in postorder: gather the rows T[t] + struct(L[:, t]) of the dense int32 matrix,
apply the supernode's pivots to that block, scatter it back. Prints the checksums of
../shared/data/README.md (finite off-diagonal pairs, their sum, the max, d[0][n-1]) and, with
--check, compares every distance with scipy's all-sources dijkstra. The time is that of a numpy
prototype (one thread, one rank-1 update per pivot), not of a C++ kernel: it shows the method is
right at full size, not how fast apsp would be. Default graph: ../shared/data/rome99.gr
(skipped with a message when ../shared is absent). Needs about 3 n^2 x 4 bytes (more with
--check): DE.gr (9.6 GB per copy) is out of reach here.
"""

import argparse
import csv
import pathlib
import sys
import time

import numpy as np
from scipy.sparse.csgraph import dijkstra

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import sparse_symbolic as ss  # noqa: E402
import supernodal_count as sc  # noqa: E402
import supernodes as sn  # noqa: E402

INF = (1 << 30) - 1  # INF + INF still fits in int32


def initial_matrix(n, src, dst, w, order):
    """int32 D in elimination labels (vertex p = order[p]), parallel arcs at their minimum."""
    label = np.empty(n, dtype=np.int64)
    label[order] = np.arange(n)
    keep = src != dst  # self-loops ignored (d[i][i] = 0)
    d = np.full((n, n), INF, dtype=np.int32)
    np.minimum.at(d, (label[src[keep]], label[dst[keep]]), w[keep].astype(np.int32))
    np.fill_diagonal(d, 0)
    return d


def supernodal_fw(d, sym, groups, cols):
    """Run the steps in place; returns the number of updates done (|M| rows^2 per step)."""
    updates = 0
    for members in groups:
        top = members[-1]
        first = sym.first[top]
        rows = np.concatenate([np.arange(first, top + 1), np.asarray(cols[top], dtype=np.int64)])
        contiguous = rows.size == top + 1 - first
        block = d[first:top + 1, first:top + 1] if contiguous else d[np.ix_(rows, rows)]
        for k in members:
            local = k - first
            np.minimum(block, block[:, local, None] + block[None, local, :], out=block)
        if not contiguous:
            d[np.ix_(rows, rows)] = block
        updates += len(members) * rows.size ** 2
    return updates


def checksums(d, order):
    off = ~np.eye(d.shape[0], dtype=bool)
    finite = (d < INF) & off
    label = np.empty(d.shape[0], dtype=np.int64)
    label[order] = np.arange(d.shape[0])
    return dict(pairs=int(finite.sum()), sum=int(d[finite].astype(np.int64).sum()),
                max=int(d[finite].max()), d0_last=int(d[label[0], label[-1]]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("graph", nargs="?", help="DIMACS .gr file (default: rome99)")
    ap.add_argument("--chicago-synthetic", action="store_true")
    ap.add_argument("--supernodes", choices=["fundamental", "relaxed"], default="relaxed")
    ap.add_argument("--check", action="store_true", help="compare with scipy dijkstra")
    ap.add_argument("--csv", help="append a row to this CSV")
    args = ap.parse_args()
    if args.chicago_synthetic:
        name, (n, src, dst, w) = "synthetic-road-12982", sc.synthetic_road_graph(12982)
    else:
        path = pathlib.Path(args.graph) if args.graph else sc.DATA / "rome99.gr"
        if not path.exists():
            print(f"skip: {path} absent (../shared is not shipped with apsp)")
            return
        name, (n, src, dst, w) = path.name, ss.read_dimacs(path)
    if ss.load_metis() is None:
        print("skip: libmetis not found (Debian: apt-get install -y libmetis-dev)")
        return

    t0 = time.perf_counter()
    pattern = ss.symmetric_pattern(n, src, dst)
    sym = ss.Symbolic(pattern, ss.metis_nd_order(pattern))
    starts = sn.fundamental_supernodes(sym)
    if args.supernodes == "relaxed":
        groups = sorted(sn.relaxed_supernodes(sym, starts, members=True), key=lambda g: g[-1])
    else:
        groups = [list(range(s, e)) for s, e in zip(starts, np.append(starts[1:], n))]
    cols = ss.column_structures(sym.pattern, sym.parent)
    t1 = time.perf_counter()
    d = initial_matrix(n, src, dst, w, sym.order)
    t2 = time.perf_counter()
    updates = supernodal_fw(d, sym, groups, cols)
    t3 = time.perf_counter()
    sums = checksums(d, sym.order)
    print(f"{name}: n={n} METIS, {len(groups)} {args.supernodes} supernodes; symbolic "
          f"{t1 - t0:.2f} s, fill {t2 - t1:.2f} s, steps {t3 - t2:.2f} s "
          f"({updates:.3e} updates, {updates / (t3 - t2):.2e}/s in numpy, 1 thread)")
    print(f"checksums: pairs {sums['pairs']:,} sum {sums['sum']:,} max {sums['max']:,} "
          f"d[0][n-1] {sums['d0_last']:,}")
    status, t_ref = "not checked", None
    if args.check:
        t4 = time.perf_counter()
        ref = dijkstra(sc_csr(n, src, dst, w), directed=True)
        t5 = time.perf_counter()
        t_ref = round(t5 - t4, 3)
        ours = d[np.ix_(np.argsort(sym.order), np.argsort(sym.order))]
        ref[~np.isfinite(ref)] = INF
        status = "equal" if np.array_equal(ours, ref.astype(np.int32)) else "DIFFERENT"
        print(f"scipy dijkstra all sources: {t5 - t4:.2f} s; distances {status}")
        if status != "equal":
            sys.exit(1)
    if args.csv:
        row = dict(date=sc.datetime.date.today().isoformat(), device=sc.cpu_model(),
                   commit=sc.git_commit(), command="nice /usr/bin/python3 " + " ".join(sys.argv),
                   graph=name, n=n, order="metis", supernodes=args.supernodes,
                   steps=len(groups), updates=updates, seconds_symbolic=round(t1 - t0, 3),
                   seconds_steps=round(t3 - t2, 3), pairs=sums["pairs"], sum=sums["sum"],
                   max=sums["max"], d0_last=sums["d0_last"], vs_scipy_dijkstra=status,
                   seconds_scipy_dijkstra=t_ref)
        new = not pathlib.Path(args.csv).exists()
        with open(args.csv, "a", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=list(row))
            if new:
                wr.writeheader()
            wr.writerow(row)


def sc_csr(n, src, dst, w):
    """Directed CSR for scipy with parallel arcs at their minimum and no self-loops."""
    import scipy.sparse as sp
    keep = src != dst
    order = np.lexsort((w[keep], dst[keep], src[keep]))
    s, t, x = src[keep][order], dst[keep][order], w[keep][order]
    first = np.ones(s.size, dtype=bool)
    first[1:] = (s[1:] != s[:-1]) | (t[1:] != t[:-1])
    return sp.csr_matrix((x[first].astype(np.float64), (s[first], t[first])), shape=(n, n))


if __name__ == "__main__":
    main()
