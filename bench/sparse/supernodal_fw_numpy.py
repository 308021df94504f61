#!/usr/bin/python3
"""Supernodal Floyd-Warshall in numpy, on a whole graph: checks the method end to end.

Usage (from the repository root):
    nice /usr/bin/python3 bench/sparse/supernodal_fw_numpy.py [GRAPH.gr | --chicago-synthetic]
        [--supernodes fundamental|relaxed] [--check] [--csv FILE]

Orders the graph with METIS, finds the supernodes (bench/sparse/supernodes.py) and runs one step
per supernode in postorder: gather the rows T[t] + struct(L[:, t]) of the dense int32 matrix,
apply the supernode's pivots to that block, scatter it back. Prints the checksums of
../shared/data/README.md (finite off-diagonal pairs, their sum, the max, d[0][n-1]) and, with
--check, compares every distance with scipy's all-sources dijkstra; for rome99 and DE it also
compares with the checksums of that README. The time is that of a numpy
prototype (one thread, one rank-1 update per pivot), not of a C++ kernel: it shows the method is
right at full size, not how fast apsp would be. Default graph: ../shared/data/rome99.gr
(skipped with a message when ../shared is absent). D takes n^2 x 4 bytes (9.6 GB for DE.gr,
kept in a file under /tmp above 2 GB so that it can be paged out); --check needs 2 more n^2
float64/int32 copies, so use it up to n ~ 13,000.
"""

import argparse
import csv
import pathlib
import sys
import tempfile
import time

import numpy as np
from scipy.sparse.csgraph import dijkstra

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import sparse_symbolic as ss  # noqa: E402
import supernodal_count as sc  # noqa: E402
import supernodes as sn  # noqa: E402

INF = (1 << 30) - 1  # INF + INF still fits in int32


# Checksums from ../shared/data/README.md (all-sources Dijkstra, directed, parallel arcs at
# their minimum, self-loops ignored): pairs, sum, max, d[0][n-1].
EXPECTED = {"rome99.gr": (11239256, 160839610183, 77403, 30305),
            "DE.gr": (2382568394, 176041374850866, 182796, 69204)}


def initial_matrix(n, src, dst, w, order, map_dir=None):
    """int32 D in elimination labels (vertex p = order[p]), parallel arcs at their minimum.
    With map_dir, D lives in a file there (np.memmap), so the kernel can page it out."""
    label = np.empty(n, dtype=np.int64)
    label[order] = np.arange(n)
    keep = src != dst  # self-loops ignored (d[i][i] = 0)
    if map_dir:
        f = tempfile.NamedTemporaryFile(dir=map_dir, prefix="supernodal_fw_", suffix=".i32")
        d = np.memmap(f, dtype=np.int32, mode="w+", shape=(n, n))
        d._keepalive = f  # the file is deleted when d goes away
        for lo in range(0, n, 1024):
            d[lo:lo + 1024] = INF
    else:
        d = np.full((n, n), INF, dtype=np.int32)
    np.minimum.at(d, (label[src[keep]], label[dst[keep]]), w[keep].astype(np.int32))
    d[np.arange(n), np.arange(n)] = 0
    return d


def supernodal_fw(d, sym, groups, cols, chunk_bytes=16 << 20):
    """Run the steps in place, blocked FW style: close M x M, update the row and column panels
    over the rows R = T[t] + struct(L[:, t]), then the outer block R x R in row chunks (no
    R x R temporary). Returns the updates counted as |M| |R|^2 per step."""
    updates = 0
    for members in groups:
        top = members[-1]
        first = sym.first[top]
        m = np.asarray(members, dtype=np.int64)
        anc = np.asarray(cols[top], dtype=np.int64)
        r = np.concatenate([np.arange(first, top + 1), anc])
        updates += m.size * r.size ** 2
        dmm = d[np.ix_(m, m)]
        for k in range(m.size):  # close M x M
            np.minimum(dmm, dmm[:, k, None] + dmm[None, k, :], out=dmm)
        row_panel = d[np.ix_(m, r)]  # D[M, R] <- D*[M, M] (x) D[M, R]
        new_row = row_panel.copy()
        for a in range(m.size):
            np.minimum(new_row, dmm[:, a, None] + row_panel[None, a, :], out=new_row)
        col_panel = d[np.ix_(r, m)]  # D[R, M] <- D[R, M] (x) D*[M, M]
        new_col = col_panel.copy()
        for b in range(m.size):
            np.minimum(new_col, col_panel[:, b, None] + dmm[None, b, :], out=new_col)
        d[np.ix_(m, r)] = new_row
        d[np.ix_(r, m)] = new_col
        step = max(1, chunk_bytes // (4 * r.size))
        for lo in range(0, r.size, step):  # outer block, one row chunk at a time
            rows = r[lo:lo + step]
            if anc.size == 0:  # R is the range [first, top]: a view, updated in place
                block = d[rows[0]:rows[-1] + 1, first:top + 1]
            else:
                block = d[np.ix_(rows, r)]
            for k in range(m.size):
                np.minimum(block, new_col[lo:lo + step, k, None] + new_row[None, k, :], out=block)
            if anc.size:
                d[np.ix_(rows, r)] = block
    return updates


def checksums(d, order):
    n = d.shape[0]
    pairs = total = 0
    big = 0
    for lo in range(0, n, 1024):
        block = d[lo:lo + 1024]
        finite = block < INF
        finite[np.arange(block.shape[0]), np.arange(lo, lo + block.shape[0])] = False
        vals = block[finite]
        pairs += int(vals.size)
        total += int(vals.sum(dtype=np.int64))
        big = max(big, int(vals.max())) if vals.size else big
    label = np.empty(n, dtype=np.int64)
    label[order] = np.arange(n)
    return dict(pairs=pairs, sum=total, max=big, d0_last=int(d[label[0], label[-1]]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("graph", nargs="?", help="DIMACS .gr file (default: rome99)")
    ap.add_argument("--chicago-synthetic", action="store_true")
    ap.add_argument("--supernodes", choices=["fundamental", "relaxed"], default="relaxed")
    ap.add_argument("--check", action="store_true", help="compare with scipy dijkstra")
    ap.add_argument("--csv", help="append a row to this CSV")
    ap.add_argument("--map-dir", help="keep D in a file under this folder (default: above 2 GB,"
                    " in /tmp)")
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
    map_dir = args.map_dir or ("/tmp" if 4 * n * n > (2 << 30) else None)
    d = initial_matrix(n, src, dst, w, sym.order, map_dir)
    t2 = time.perf_counter()
    updates = supernodal_fw(d, sym, groups, cols)
    t3 = time.perf_counter()
    sums = checksums(d, sym.order)
    print(f"{name}: n={n} METIS, {len(groups)} {args.supernodes} supernodes; symbolic "
          f"{t1 - t0:.2f} s, fill {t2 - t1:.2f} s, steps {t3 - t2:.2f} s "
          f"({updates:.3e} updates, {updates / (t3 - t2):.2e}/s in numpy, 1 thread)")
    print(f"checksums: pairs {sums['pairs']:,} sum {sums['sum']:,} max {sums['max']:,} "
          f"d[0][n-1] {sums['d0_last']:,}")
    checks, t_ref = [], None
    if name in EXPECTED:
        want = dict(zip(("pairs", "sum", "max", "d0_last"), EXPECTED[name]))
        checks.append("README checksums " + ("equal" if sums == want else "DIFFERENT"))
        print(checks[-1])
        if sums != want:
            sys.exit(1)
    if args.check:
        t4 = time.perf_counter()
        ref = dijkstra(sc_csr(n, src, dst, w), directed=True)
        t5 = time.perf_counter()
        t_ref = round(t5 - t4, 3)
        ours = d[np.ix_(np.argsort(sym.order), np.argsort(sym.order))]
        ref[~np.isfinite(ref)] = INF
        same = np.array_equal(ours, ref.astype(np.int32))
        checks.append("scipy dijkstra " + ("equal" if same else "DIFFERENT"))
        print(f"scipy dijkstra all sources: {t5 - t4:.2f} s; distances {checks[-1]}")
        if not same:
            sys.exit(1)
    if args.csv:
        row = dict(date=sc.datetime.date.today().isoformat(), device=sc.cpu_model(),
                   commit=sc.git_commit(), command="nice /usr/bin/python3 " + " ".join(sys.argv),
                   graph=name, n=n, order="metis", supernodes=args.supernodes,
                   steps=len(groups), updates=updates, seconds_symbolic=round(t1 - t0, 3),
                   seconds_steps=round(t3 - t2, 3), pairs=sums["pairs"], sum=sums["sum"],
                   max=sums["max"], d0_last=sums["d0_last"], check="; ".join(checks) or "not checked",
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
