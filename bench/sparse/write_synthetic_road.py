#!/usr/bin/python3
"""Writes the synthetic Chicago-sized road graph of docs/sparse_supernodal.md as DIMACS .gr.

Usage: /usr/bin/python3 bench/sparse/write_synthetic_road.py OUT.gr [--n 12982] [--seed 12982]
A jittered grid (each grid edge kept with probability 0.75, a diagonal per cell with probability
0.05, both directions, weights 100 x length), the size of the TNTP Chicago regional network; no
Chicago file is in ../shared/data.
"""
import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from supernodal_count import synthetic_road_graph  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--n", type=int, default=12982)
    ap.add_argument("--seed", type=int, default=12982)
    args = ap.parse_args()
    n, src, dst, w = synthetic_road_graph(args.n, seed=args.seed)
    with open(args.out, "w") as f:
        f.write(f"c synthetic road graph: bench/sparse/write_synthetic_road.py --n {n} "
                f"--seed {args.seed}\np sp {n} {src.size}\n")
        f.writelines(f"a {u + 1} {v + 1} {x}\n" for u, v, x in zip(src, dst, w))


if __name__ == "__main__":
    main()
