#!/usr/bin/python3
"""Checks the update counts of bench/sparse/supernodal_count.py against direct measurement.

Usage (from the repository root): nice /usr/bin/python3 bench/sparse/validate_supernodal_count.py

On seeded random sparse graphs (symmetric and directed, some disconnected), perturbed grids and
a slice of rome99 (skipped when ../shared/data is absent), for the natural, RCM and METIS orders:
  1. column counts (union-find, O(|A|)) == row-subtree structures (O(|L|)) == dense symbolic
     elimination;
  2. plain Floyd-Warshall in that order: at each pivot k, the rows with a finite D[i, k] and the
     columns with a finite D[k, j] equal the predicted set R_k (a subset for directed graphs);
  3. Floyd-Warshall restricted to R_k x R_k, and the supernodal block version (fundamental and
     relaxed supernodes), give exactly scipy's floyd_warshall distances (integer weights), and
     the block version performs exactly the predicted number of updates.
Exits 1 on the first mismatch, printing the case (seed included).
"""

import pathlib
import sys

import numpy as np
from scipy.sparse.csgraph import floyd_warshall

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import sparse_symbolic as ss  # noqa: E402
import supernodal_count as sc  # noqa: E402
import supernodes as sn  # noqa: E402

DATA = pathlib.Path(__file__).resolve().parents[2] / ".." / "shared" / "data"


def fail(case, what):
    print(f"FAIL {case}: {what}")
    sys.exit(1)


def dense_symbolic(pattern):
    """struct(L) by eliminating a boolean matrix in label order (O(n^3), the oracle)."""
    g = pattern.toarray().astype(bool)
    cols = []
    for k in range(g.shape[0]):
        below = np.flatnonzero(g[k, k + 1:]) + k + 1
        g[np.ix_(below, below)] = True
        cols.append(below.tolist())
    return cols


def distance_matrix(n, src, dst, w):
    d = np.full((n, n), np.inf)
    np.minimum.at(d, (src, dst), w.astype(np.float64))
    np.fill_diagonal(d, 0.0)
    return d


def predicted_sets(sym, cols):
    return [sorted(set(range(sym.first[k], k)) | set(cols[k])) for k in range(sym.size.size)]


def check_case(case, n, src, dst, w, symmetric):
    pattern = ss.symmetric_pattern(n, src, dst)
    reference = floyd_warshall(distance_matrix(n, src, dst, w))
    orders = ["natural", "rcm"] + (["metis"] if ss.load_metis() else [])
    for name in orders:
        tag = f"{case} order={name}"
        sym = ss.Symbolic(pattern, ss.order_by_name(pattern, name))
        cols = ss.column_structures(sym.pattern, sym.parent)
        if cols != dense_symbolic(sym.pattern):
            fail(tag, "row-subtree structures differ from dense elimination")
        if not np.array_equal(sym.cc, [len(c) + 1 for c in cols]):
            fail(tag, "union-find column counts differ from row-subtree counts")
        pred = predicted_sets(sym, cols)
        if not np.array_equal(sym.reach_sizes(), [len(p) for p in pred]):
            fail(tag, "reach_sizes() differs from the explicit sets")
        o = sym.order
        d0 = distance_matrix(n, src, dst, w)[np.ix_(o, o)]  # relabelled: vertex p = o[p]

        # 2. plain FW in this order: measured finite sets vs predicted ones
        d = d0.copy()
        measured = 0
        for k in range(n):
            rows = [i for i in np.flatnonzero(np.isfinite(d[:, k])) if i != k]
            colsk = [j for j in np.flatnonzero(np.isfinite(d[k, :])) if j != k]
            measured += len(rows) * len(colsk)
            for got in (rows, colsk):
                ok = got == pred[k] if symmetric else set(got) <= set(pred[k])
                if not ok:
                    fail(tag, f"pivot {k}: finite set {got[:8]}... vs predicted {pred[k][:8]}...")
            d = np.minimum(d, d[:, k, None] + d[None, k, :])
        exact = int((sym.reach_sizes() ** 2).sum())
        if symmetric and measured != exact:
            fail(tag, f"measured {measured} updates, predicted {exact}")

        # 3a. FW restricted to the predicted sets
        d = d0.copy()
        for k in range(n):
            r = np.array(pred[k] + [k], dtype=np.int64)
            d[np.ix_(r, r)] = np.minimum(d[np.ix_(r, r)], d[r, k, None] + d[None, k, r])
        back = np.empty_like(d)
        back[np.ix_(o, o)] = d
        if not np.array_equal(back, reference):
            fail(tag, "restricted FW distances differ from scipy")

        # 3b. supernodal block FW: close M x M, then panels, then the outer block
        starts = sn.fundamental_supernodes(sym)
        for kind, groups in (("fundamental", fundamental_groups(sym, starts)),
                             ("relaxed", sn.relaxed_supernodes(sym, starts, members=True))):
            d, done = d0.copy(), 0
            for members in groups:
                top = members[-1]
                rows = np.array(sorted(set(range(sym.first[top], top + 1)) | set(cols[top])))
                done += len(members) * rows.size ** 2
                block_step(d, np.array(members), rows)
            back[np.ix_(o, o)] = d
            if not np.array_equal(back, reference):
                fail(tag, f"{kind} supernodal FW distances differ from scipy")
            blocks = (sn.blocks_of(sym, starts) if kind == "fundamental"
                      else sn.relaxed_supernodes(sym, starts))
            if done != int(sn.block_updates(blocks)[2].sum()):
                fail(tag, f"{kind}: performed {done} updates, counted differently")
        print(f"ok {tag}: n={n} exact={exact} measured={measured} n^3={n ** 3}")


def block_step(d, members, rows):
    """One supernode step on d: FW on the pivots in M, restricted to rows x rows."""
    rest = np.setdiff1d(rows, members)
    for k in members:  # close the diagonal block M x M
        d[np.ix_(members, members)] = np.minimum(d[np.ix_(members, members)],
                                                 d[members, k, None] + d[None, k, members])
    mm = d[np.ix_(members, members)]
    # panels: D[M, rest] = D*[M, M] (x) D[M, rest], D[rest, M] = D[rest, M] (x) D*[M, M]
    d[np.ix_(members, rest)] = (mm[:, :, None] + d[np.ix_(members, rest)][None, :, :]).min(1)
    d[np.ix_(rest, members)] = (d[np.ix_(rest, members)][:, :, None] + mm[None, :, :]).min(1)
    for k in members:  # outer block, one rank-1 min-plus update per pivot of M
        d[np.ix_(rest, rest)] = np.minimum(d[np.ix_(rest, rest)], d[rest, k, None] + d[None, k, rest])


def fundamental_groups(sym, starts):
    ends = np.append(starts[1:], sym.size.size)
    return [list(range(s, e)) for s, e in zip(starts, ends)]


def random_graph(rng, n, deg, symmetric, components=1):
    m = int(n * deg / 2)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    if components > 1:  # keep arcs inside n // components blocks of vertices
        dst = (src // (n // components)) * (n // components) + dst % (n // components)
        dst = np.minimum(dst, n - 1)
    w = rng.integers(1, 100, m)
    if symmetric:
        src, dst, w = np.concatenate([src, dst]), np.concatenate([dst, src]), np.concatenate([w, w])
    return src, dst, w


def grid_graph(rng, side):
    n, src, dst, w = sc.synthetic_road_graph(side * side, seed=int(rng.integers(1 << 30)))
    return n, src, dst, w


def rome_slice(size):
    """Induced subgraph of rome99 on the first `size` vertices reached by BFS from vertex 1."""
    n, src, dst, w = ss.read_dimacs(DATA / "rome99.gr")
    pat = ss.symmetric_pattern(n, src, dst)
    seen, frontier = [0], [0]
    mark = np.zeros(n, dtype=bool)
    mark[0] = True
    while frontier and len(seen) < size:
        nxt = []
        for u in frontier:
            for v in pat.indices[pat.indptr[u]:pat.indptr[u + 1]]:
                if not mark[v] and len(seen) < size:
                    mark[v] = True
                    seen.append(int(v))
                    nxt.append(int(v))
        frontier = nxt
    new_id = -np.ones(n, dtype=np.int64)
    new_id[seen] = np.arange(len(seen))
    keep = (new_id[src] >= 0) & (new_id[dst] >= 0)
    return len(seen), new_id[src[keep]], new_id[dst[keep]], w[keep]


def reach_by_search(sym, k):
    """R_k straight from its definition: the vertices i != k joined to k by a path whose
    interior vertices all come before k (search from k, expanding only vertices < k)."""
    indptr, indices = sym.pattern.indptr, sym.pattern.indices
    seen = {k}
    stack = [k]
    while stack:
        u = stack.pop()
        for v in indices[indptr[u]:indptr[u + 1]].tolist():
            if v not in seen:
                seen.add(v)
                if v < k:
                    stack.append(v)
    return len(seen) - 1


def check_full_size(name, samples=120, top=30):
    """On a whole graph: predicted |R_k| equals a graph search for sampled and top pivots."""
    n, src, dst, _ = (ss.read_dimacs(DATA / name) if name.endswith(".gr")
                      else sc.synthetic_road_graph(12982))
    pattern = ss.symmetric_pattern(n, src, dst)
    rng = np.random.default_rng(7)
    for order in ["rcm"] + (["metis"] if ss.load_metis() else []):
        sym = ss.Symbolic(pattern, ss.order_by_name(pattern, order))
        pred = sym.reach_sizes()
        pivots = sorted(set(rng.integers(0, n, samples).tolist()) | set(range(n - top, n)))
        for k in pivots:
            got = reach_by_search(sym, k)
            if got != pred[k]:
                fail(f"{name} order={order}", f"pivot {k}: search finds {got}, predicted {pred[k]}")
        print(f"ok {name} order={order}: |R_k| of {len(pivots)} pivots (sampled + top {top}) "
              f"match a graph search")


def main():
    for seed in range(6):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(20, 160))
        for symmetric in (True, False):
            comps = 1 + seed % 3
            src, dst, w = random_graph(rng, n, 2.0 + seed % 4, symmetric, comps)
            check_case(f"random seed={seed} n={n} symmetric={symmetric} parts={comps}",
                       n, src, dst, w, symmetric)
    for seed in range(2):
        rng = np.random.default_rng(100 + seed)
        n, src, dst, w = grid_graph(rng, 14 + seed)
        check_case(f"synthetic road seed={100 + seed} n={n}", n, src, dst, w, True)
    if (DATA / "rome99.gr").exists():
        n, src, dst, w = rome_slice(400)
        check_case("rome99 BFS slice of 400 (directed arcs)", n, src, dst, w, False)
        sym_src, sym_dst = np.concatenate([src, dst]), np.concatenate([dst, src])
        check_case("rome99 BFS slice of 400, arcs symmetrised", n, sym_src, sym_dst,
                   np.concatenate([w, w]), True)
    else:
        print(f"skip rome99 slice: {DATA} absent (../shared is not shipped)")
    check_full_size("synthetic-road-12982")
    for name in ("rome99.gr", "DE.gr"):
        if (DATA / name).exists():
            check_full_size(name)
        else:
            print(f"skip {name}: {DATA} absent (../shared is not shipped)")
    print("all checks passed")


if __name__ == "__main__":
    main()
