#!/usr/bin/env python3
"""Writes a seeded road-like directed graph in DIMACS shortest-path format (.gr).

The graph is a W x H grid (W = ceil(sqrt(n)), H = ceil(n / W), so n = W * H is the smallest
such grid with at least --n vertices; the n printed and written is W * H). Each of the
2 n - W - H grid edges is kept with probability 0.70; a kept edge is a two-way street
(two arcs, one weight) with probability 0.80 and a one-way street (one arc, random direction)
otherwise. A further 1 % of the vertices get a diagonal shortcut to (x + 1, y +- 1), in
both directions. So m is about (2 * 0.70 * 1.80 + 0.02) n = 2.54 n arcs, as in the DIMACS
road networks (rome99: m / n = 2.65). Not every vertex reaches every other one.

Weights are integers: a length uniform in 1..1000 times a per-edge speed factor uniform in
[0.5, 1.5], rounded, at least 1; a diagonal costs its length times 1.41. Longest shortest paths
are a few thousand arcs on a million vertices, far below int32's range.

Vertices are 1-based, numbered row by row: vertex y * W + x + 1 is at (x, y). The file is
'c' comment lines, 'p sp n m', then 'a u v w' per arc (the format of data/rome99.gr).
Everything is vectorised with NumPy (no per-arc Python loop): 10^6 vertices take a few seconds.

Usage: python3 bench/road_graph.py --n 100000 --seed 1 -o road100k.gr
"""
import argparse
import sys
import time

import numpy as np

KEEP = 0.70       # share of grid edges present
TWO_WAY = 0.80    # share of present edges that are two-way
DIAGONAL = 0.01   # diagonal shortcuts per vertex (each two arcs)


def grid_shape(n):
    w = int(np.ceil(np.sqrt(n)))
    return w, int(np.ceil(n / w))


def road_graph(n, seed):
    """Returns (n, src, dst, w) with 0-based int64 ends and int64 weights."""
    W, H = grid_shape(n)
    n = W * H
    rng = np.random.default_rng(seed)
    ids = np.arange(n, dtype=np.int64).reshape(H, W)
    # undirected grid edges: horizontal then vertical
    a = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    b = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    keep = rng.random(a.size) < KEEP
    a, b = a[keep], b[keep]
    length = rng.integers(1, 1001, size=a.size) * rng.uniform(0.5, 1.5, size=a.size)
    weight = np.maximum(1, np.rint(length)).astype(np.int64)
    two_way = rng.random(a.size) < TWO_WAY
    flip = (~two_way) & (rng.random(a.size) < 0.5)          # one-way streets point either way
    a, b = np.where(flip, b, a), np.where(flip, a, b)
    src = [a, b[two_way]]
    dst = [b, a[two_way]]
    wts = [weight, weight[two_way]]
    # diagonal shortcuts from vertices not on the last column, up or down a row
    k = int(round(DIAGONAL * n))
    if W > 1 and H > 1 and k > 0:
        x = rng.integers(0, W - 1, size=k)
        y = rng.integers(0, H - 1, size=k)
        down = rng.random(k) < 0.5
        y0 = np.where(down, y, y + 1)
        y1 = np.where(down, y + 1, y)
        u = ids[y0, x]
        v = ids[y1, x + 1]
        dl = rng.integers(1, 1001, size=k) * rng.uniform(0.5, 1.5, size=k) * 1.41
        dw = np.maximum(1, np.rint(dl)).astype(np.int64)
        src += [u, v]
        dst += [v, u]
        wts += [dw, dw]
    return n, np.concatenate(src), np.concatenate(dst), np.concatenate(wts)


def _digits(v):
    """Right-aligned ASCII digits of non-negative ints: (matrix uint8 [len, D], ndigits)."""
    v = np.asarray(v, dtype=np.int64)
    nd = np.ones(v.size, dtype=np.int64)
    t = v // 10
    while t.any():
        nd += t > 0
        t //= 10
    D = int(nd.max()) if v.size else 1
    out = np.empty((v.size, D), dtype=np.uint8)
    t = v.copy()
    for c in range(D - 1, -1, -1):
        out[:, c] = 48 + t % 10
        t //= 10
    return out, nd


def arc_lines(u, v, w):
    """b'a u v w\\n' for every arc, built as byte columns and a mask (no per-arc loop)."""
    cols, masks = [], []
    rows = u.size

    def lit(s):
        cols.append(np.frombuffer(s, dtype=np.uint8)[None, :].repeat(rows, axis=0))
        masks.append(np.ones((rows, len(s)), dtype=bool))

    def num(x):
        d, nd = _digits(x)
        cols.append(d)
        masks.append(np.arange(d.shape[1])[None, :] >= (d.shape[1] - nd)[:, None])

    lit(b"a ")
    num(u)
    lit(b" ")
    num(v)
    lit(b" ")
    num(w)
    lit(b"\n")
    return np.hstack(cols)[np.hstack(masks)].tobytes()


def write_dimacs(path, n, src, dst, w, comment, chunk=1 << 20):
    with open(path, "wb") as f:
        for line in comment:
            f.write(f"c {line}\n".encode())
        f.write(f"p sp {n} {src.size}\n".encode())
        for s in range(0, src.size, chunk):
            e = s + chunk
            f.write(arc_lines(src[s:e] + 1, dst[s:e] + 1, w[s:e]))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, required=True,
                   help="vertices wanted (rounded up to a W x H grid, W = ceil(sqrt(n)))")
    p.add_argument("--seed", type=int, default=1, help="NumPy seed (default: 1)")
    p.add_argument("-o", "--output", required=True, help="the .gr file to write")
    a = p.parse_args(argv)
    if a.n < 1:
        p.error("--n must be at least 1")
    t0 = time.perf_counter()
    n, src, dst, w = road_graph(a.n, a.seed)
    W, H = grid_shape(a.n)
    write_dimacs(a.output, n, src, dst, w,
                 [f"road-like grid {W} x {H} from bench/road_graph.py --n {a.n} --seed {a.seed}",
                  f"keep {KEEP}, two-way {TWO_WAY}, diagonals {DIAGONAL} per vertex"])
    print(f"n {n} m {src.size} m/n {src.size / n:.3f} seconds {time.perf_counter() - t0:.2f}"
          f" -> {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
