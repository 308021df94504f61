"""Writers for small graph files used by the CLI tests (independent of apsp's own writers)."""

import struct

import numpy as np


def write_gr(path, n, edges, comment="test graph"):
    """DIMACS .gr; edges are (u, v, w) with 1-based u, v."""
    lines = [f"c {comment}", f"p sp {n} {len(edges)}"]
    lines += [f"a {u} {v} {w}" for u, v, w in edges]
    path.write_text("\n".join(lines) + "\n")
    return path


def write_dense_gr(path, n=300, out_degree=90, seed=48):
    """A DIMACS .gr where every vertex has `out_degree` random out-arcs (weights 1..49): dense
    enough that the whole matrix beats Dijkstra from most of the vertices. Returns n."""
    rng = np.random.default_rng(seed)
    edges = [(u, int(v), int(rng.integers(1, 50))) for u in range(1, n + 1)
             for v in rng.choice(np.arange(1, n + 1), out_degree, replace=False) if v != u]
    write_gr(path, n, edges)
    return n


def write_course(path, n, edges):
    """Course binary: int32 n, m, then (src, dst, w) triples, 0-based."""
    data = struct.pack("<ii", n, len(edges))
    data += b"".join(struct.pack("<iii", u, v, w) for u, v, w in edges)
    path.write_bytes(data)
    return path


def random_edges(rng, n, m, low=0, high=100, one_based=True):
    """m random directed edges (parallel edges and self-loops included) over n vertices."""
    base = 1 if one_based else 0
    u = rng.integers(0, n, m) + base
    v = rng.integers(0, n, m) + base
    w = rng.integers(low, high + 1, m)
    return list(zip(u.tolist(), v.tolist(), w.tolist()))


def dense_min(n, edges, one_based=True):
    """n x n float matrix: min weight per (u, v), inf for no edge, self-loops as min(0, w)."""
    base = 1 if one_based else 0
    d = np.full((n, n), np.inf)
    for u, v, w in edges:
        d[u - base, v - base] = min(d[u - base, v - base], w)
    for i in range(n):
        d[i, i] = min(0.0, d[i, i])
    return d


def reference_distances(n, edges, one_based=True):
    """All-pairs distances by SciPy (Dijkstra or Johnson), independent of apsp; inf = none."""
    from scipy.sparse.csgraph import csgraph_from_dense, shortest_path

    d = dense_min(n, edges, one_based)
    negative = (d < 0).any()
    np.fill_diagonal(d, np.inf)  # csgraph ignores self-loops; keep zero-weight edges as edges
    g = csgraph_from_dense(d, null_value=np.inf)
    return shortest_path(g, method="J" if negative else "D", directed=True)


def grid_arcs(side, rng, low=1, high=9):
    """(u, v, w) arrays, 1-based, of a side x side grid with both arcs of each edge, random
    weights in low..high; vertex (r, c) is r * side + c + 1."""
    ids = np.arange(side * side, dtype=np.int64).reshape(side, side) + 1
    u = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    v = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    u, v = np.concatenate([u, v]), np.concatenate([v, u])
    return u, v, rng.integers(low, high + 1, u.size)


def write_grid_gr(path, side, rng, low=1, high=9):
    """DIMACS .gr of grid_arcs(side, rng, low, high), written by NumPy (fast for a million arcs)."""
    u, v, w = grid_arcs(side, rng, low, high)
    with open(path, "w") as f:
        f.write(f"c {side} x {side} grid\np sp {side * side} {u.size}\n")
        np.savetxt(f, np.column_stack([u, v, w]), fmt="a %d %d %d")
    return path


def grid_edges(w, h, rng):
    """A w x h grid, both directions, random weights: a road network's shape (small separators)."""
    at = lambda x, y: y * w + x + 1  # noqa: E731
    edges = []
    for y in range(h):
        for x in range(w):
            for nx_, ny in ((x + 1, y), (x, y + 1)):
                if nx_ < w and ny < h:
                    edges.append((at(x, y), at(nx_, ny), int(rng.integers(1, 100))))
                    edges.append((at(nx_, ny), at(x, y), int(rng.integers(1, 100))))
    return edges
