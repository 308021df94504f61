#!/usr/bin/env python3
"""Writes a random graph in the course binary format (int32 n, int32 m, then m triples
src dst w, 0-based) for the GPU-machine scripts: m = n^2 / DIVISOR arcs with uniform random
ends (parallel arcs and self-loops possible), weights 1..1000, numpy seed = n.

Usage: python3 bench/random_graph.py PATH N [DIVISOR (default 16)]
       python3 bench/random_graph.py PATH N --per-vertex K
The second form gives every vertex K out-arcs to uniform random heads, weights 1..100 (the
multi-GPU and MPI rank benchmarks' graphs), numpy seed = n.
"""
import sys

import numpy as np


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    rng = np.random.default_rng(n)
    if len(sys.argv) > 4 and sys.argv[3] == "--per-vertex":
        per = int(sys.argv[4])
        src = np.repeat(np.arange(n, dtype=np.int32), per)
        dst = rng.integers(0, n, size=src.size, dtype=np.int32)
        w = rng.integers(1, 101, size=src.size, dtype=np.int32)
    else:
        divisor = int(sys.argv[3]) if len(sys.argv) > 3 else 16
        m = n * n // divisor
        src = rng.integers(0, n, size=m, dtype=np.int32)
        dst = rng.integers(0, n, size=m, dtype=np.int32)
        w = rng.integers(1, 1001, size=m, dtype=np.int32)
    with open(path, "wb") as f:
        np.array([n, src.size], dtype=np.int32).tofile(f)
        np.stack([src, dst, w], axis=1).astype(np.int32).tofile(f)

if __name__ == "__main__":
    main()
