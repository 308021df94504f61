#!/usr/bin/env python3
"""apsp.metrics (every metric) against NetworkX's closeness_centrality, eccentricity and
average_shortest_path_length on the same weighted directed graphs (rome99, C. elegans), timed
in the same run.

apsp: best of --repeat calls of ``apsp.metrics(G, weight="weight")`` on the NetworkX graph
(reading its edges included). NetworkX, each function once, weighted (distance/weight =
"weight"): ``closeness_centrality``; the eccentricity as NetworkX computes it, the largest of
``single_source_dijkstra_path_length`` per vertex (NetworkX 2.8's ``eccentricity`` has no
weight argument and raises on a graph that is not strongly connected, such as C. elegans);
``average_shortest_path_length`` (on a graph that is not weakly connected, where it raises,
the same sum over ``single_source_dijkstra_path_length``). With --networkx-sample K, a graph of
more than K vertices has each of the three timed on K seeded vertices only (their
single-source searches: the reversed graph for closeness, the graph for the other two) and
scaled by n / K; the output and the CSV say so. apsp's values are checked against NetworkX's
on the vertices NetworkX ran.

  PYTHONPATH=build/python /usr/bin/python3 bench/python/metrics_vs_networkx.py \\
      --csv bench/results/metrics_vs_networkx_$(date +%F).csv --networkx-sample 400
Rows are appended (a header first when the file is new)."""

import argparse
import csv
import datetime
import gzip
import os
import pathlib
import sys
import time

import networkx as nx
import numpy as np

from bench_rows import ROOT, append_csv, commit, cpu_model

FIELDS = ["date", "device", "commit", "command", "graph", "n", "m", "apsp_seconds",
          "networkx_seconds", "networkx_measured", "speedup"]


def rome99():
    """data/rome99.gr as a DiGraph on 0..n-1 (DIMACS id - 1); parallel arcs keep the least."""
    import apsp
    g = apsp.read_graph(ROOT / "data" / "rome99.gr")
    src, dst, w = g.edges
    G = nx.DiGraph()
    G.add_nodes_from(range(g.n))
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        if not G.has_edge(u, v) or x < G[u][v]["weight"]:
            G.add_edge(u, v, weight=x)
    return G


def c_elegans(shared):
    """The C. elegans edge list (source, target, weight, ...) as a DiGraph keyed by cell name."""
    path = shared / "c_elegans_hermaphrodite" / "edgelist.csv.gz"
    if not path.is_file():
        return None
    G = nx.DiGraph()
    with gzip.open(path, "rt", newline="") as f:
        for row in csv.DictReader(f):
            G.add_edge(row["source"], row["target"], weight=float(row["weight"]))
    return G


def time_apsp(G, repeat, threads):
    import apsp
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = apsp.metrics(G, weight="weight", threads=threads)
        best = min(best, time.perf_counter() - t0)
    return best, result


def time_networkx_full(G):
    """(seconds, closeness, eccentricity) of the three NetworkX calls on every vertex."""
    t0 = time.perf_counter()
    closeness = nx.closeness_centrality(G, distance="weight")
    eccentricity = {v: max(nx.single_source_dijkstra_path_length(G, v, weight="weight")
                           .values()) for v in G}
    if nx.is_weakly_connected(G):
        nx.average_shortest_path_length(G, weight="weight")
    else:
        n = len(G)
        sum(sum(nx.single_source_dijkstra_path_length(G, v, weight="weight").values())
            for v in G) / (n * (n - 1))
    return time.perf_counter() - t0, closeness, eccentricity


def time_networkx_sampled(G, k, seed):
    """(seconds extrapolated to every vertex, closeness, eccentricity) from k vertices."""
    nodes = list(G)
    n = len(nodes)
    sample = [nodes[i] for i in np.random.default_rng(seed).choice(n, size=k, replace=False)]
    t0 = time.perf_counter()
    reverse = G.reverse()  # closeness_centrality reverses a DiGraph once
    t_reverse = time.perf_counter() - t0
    closeness, eccentricity = {}, {}
    t0 = time.perf_counter()
    for v in sample:  # closeness_centrality's loop body
        sp = nx.single_source_dijkstra_path_length(reverse, v, weight="weight")
        total = sum(sp.values())
        c = (len(sp) - 1.0) / total if total > 0 and n > 1 else 0.0
        closeness[v] = c * (len(sp) - 1.0) / (n - 1)
    t_closeness = time.perf_counter() - t0
    t0 = time.perf_counter()
    for v in sample:  # eccentricity's
        eccentricity[v] = max(nx.single_source_dijkstra_path_length(G, v, weight="weight")
                              .values())
    t_eccentricity = time.perf_counter() - t0
    t0 = time.perf_counter()
    for v in sample:  # average_shortest_path_length's
        sum(nx.single_source_dijkstra_path_length(G, v, weight="weight").values())
    t_average = time.perf_counter() - t0
    seconds = t_reverse + (t_closeness + t_eccentricity + t_average) * n / k
    return seconds, closeness, eccentricity


def check(result, closeness, eccentricity, name):
    for v, c in closeness.items():
        if not np.isclose(result.closeness[v], c, rtol=1e-9):
            sys.exit(f"{name}: closeness of {v!r}: apsp {result.closeness[v]} networkx {c}")
    for v, e in eccentricity.items():
        if result.out_eccentricity[v] != e:
            sys.exit(f"{name}: eccentricity of {v!r}: apsp {result.out_eccentricity[v]} "
                     f"networkx {e}")


def device():
    return f"{cpu_model()}, {os.cpu_count()} cores"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--graphs", nargs="+", default=["c_elegans", "rome99"],
                   choices=["c_elegans", "rome99"])
    p.add_argument("--networkx-sample", type=int, metavar="K",
                   help="time NetworkX on K vertices of larger graphs and scale by n / K")
    p.add_argument("--repeat", type=int, default=3, help="apsp calls; the best counts")
    p.add_argument("--threads", type=int, default=0, help="apsp's CPU threads (0 = all)")
    p.add_argument("--seed", type=int, default=36)
    p.add_argument("--shared-data", default=os.environ.get("APSP_SHARED_DATA",
                                                           str(ROOT.parent / "shared" / "data")))
    p.add_argument("--csv", help="append the rows to this CSV file")
    args = p.parse_args()

    import apsp
    command = "python3 bench/python/metrics_vs_networkx.py " + " ".join(sys.argv[1:])
    rows = []
    for name in args.graphs:
        G = rome99() if name == "rome99" else c_elegans(pathlib.Path(args.shared_data))
        if G is None:
            print(f"{name}: skipped (not in {args.shared_data})")
            continue
        n, m = G.number_of_nodes(), G.number_of_edges()
        apsp_seconds, result = time_apsp(G, args.repeat, args.threads)
        k = args.networkx_sample
        if k is not None and k < n:
            nx_seconds, closeness, ecc = time_networkx_sampled(G, k, args.seed)
            measured = f"sampled {k} of {n} sources, extrapolated"
        else:
            nx_seconds, closeness, ecc = time_networkx_full(G)
            measured = "full"
        check(result, closeness, ecc, name)
        speedup = nx_seconds / apsp_seconds
        print(f"{name}: n={n} m={m}  apsp.metrics {apsp_seconds:.3f} s ({result.driver})  "
              f"networkx {nx_seconds:.2f} s ({measured})  speedup {speedup:.0f}x", flush=True)
        rows.append({"date": datetime.date.today().isoformat(), "device": device(),
                     "commit": commit(), "command": command, "graph": name, "n": n, "m": m,
                     "apsp_seconds": f"{apsp_seconds:.4f}",
                     "networkx_seconds": f"{nx_seconds:.3f}", "networkx_measured": measured,
                     "speedup": f"{speedup:.1f}"})
    print(f"({device()}; apsp {apsp.__version__}, networkx {nx.__version__})")
    if args.csv and rows:
        append_csv(args.csv, FIELDS, rows)


if __name__ == "__main__":
    main()
