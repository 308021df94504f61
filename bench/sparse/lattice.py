#!/usr/bin/env python3
"""Writes a 2D or 3D lattice as a DIMACS .gr file: the shapes of ROME's benchmark table (grids
150^2 and 180^2, cubes 25^3 and 30^3), arcs both ways, integer weights uniform in [lo, hi].

Usage: python3 bench/sparse/lattice.py X Y [Z] -o FILE [--lo 1] [--hi 100] [--seed 1]
Plain Python (no NumPy needed), so it runs on the GPU machines as it does here.
"""

import argparse
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dims", type=int, nargs="+", help="cells per axis: X Y [Z]")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--lo", type=int, default=1)
    ap.add_argument("--hi", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if not 2 <= len(a.dims) <= 3 or min(a.dims) < 1:
        ap.error("give 2 or 3 positive sizes")
    x, y = a.dims[0], a.dims[1]
    z = a.dims[2] if len(a.dims) == 3 else 1
    rng = random.Random(a.seed)
    arcs = []
    at = lambda i, j, k: i + x * (j + y * k) + 1
    for k in range(z):
        for j in range(y):
            for i in range(x):
                for di, dj, dk in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
                    if i + di < x and j + dj < y and k + dk < z:
                        u, v = at(i, j, k), at(i + di, j + dj, k + dk)
                        arcs.append((u, v, rng.randint(a.lo, a.hi)))
                        arcs.append((v, u, rng.randint(a.lo, a.hi)))
    with open(a.output, "w") as f:
        f.write(f"c lattice {' x '.join(map(str, a.dims))}, weights {a.lo}-{a.hi}, seed {a.seed}\n")
        f.write(f"p sp {x * y * z} {len(arcs)}\n")
        f.writelines(f"a {u} {v} {w}\n" for u, v, w in arcs)


if __name__ == "__main__":
    main()
