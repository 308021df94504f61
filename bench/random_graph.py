#!/usr/bin/env python3
"""Writes a random graph in the course binary format (int32 n, int32 m, then m triples
src dst w, 0-based) for the GPU-machine scripts: m = n^2 / DIVISOR arcs with uniform random
ends (parallel arcs and self-loops possible), weights 1..1000, numpy seed = n.

Usage: python3 bench/random_graph.py PATH N [DIVISOR (default 16)]
"""
import sys

import numpy as np


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    divisor = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    rng = np.random.default_rng(n)
    m = n * n // divisor
    src = rng.integers(0, n, size=m, dtype=np.int32)
    dst = rng.integers(0, n, size=m, dtype=np.int32)
    w = rng.integers(1, 1001, size=m, dtype=np.int32)
    with open(path, "wb") as f:
        np.array([n, m], dtype=np.int32).tofile(f)
        np.stack([src, dst, w], axis=1).astype(np.int32).tofile(f)


if __name__ == "__main__":
    main()
