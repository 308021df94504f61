"""Supernodes of a postordered symbolic factorisation and the updates of a supernodal
Floyd-Warshall (see docs/sparse_supernodal.md).

A supernode is a set of consecutive pivots M whose top (last) column is t. Its pivots are done
as one dense block step: close M x M, update the panels, then the outer block, over the rows
rows(M) = subtree(t) + struct(L[:, t]) (M included), so it costs |M| * rows(M)^2 updates.
"""

import numpy as np


def fundamental_supernodes(sym):
    """Start column of each fundamental supernode: j + 1 joins j's supernode when it is j's
    parent, has no other child, and struct(L[:, j]) = {j} + struct(L[:, j + 1])."""
    parent, cc = sym.parent, sym.cc
    n = parent.size
    nchild = np.bincount(parent[parent >= 0], minlength=n)
    j = np.arange(n - 1)
    joins = (parent[j] == j + 1) & (nchild[j + 1] == 1) & (cc[j] == cc[j + 1] + 1)
    return np.flatnonzero(np.concatenate([[True], ~joins]))


def supernode_rows(sym, top):
    return sym.size[top] + sym.cc[top] - 1


def relaxed_supernodes(sym, starts, tol=0.25, max_width=256, members=False, cost=None):
    """Merge a child supernode into its parent when the merged block costs at most (1 + tol)
    times the two blocks apart and is at most max_width pivots wide. The cost of a block of
    `width` pivots over `rows` rows is cost(width, rows), by default its updates width * rows^2
    (pass a time model and tol=0 to merge only where the model says it pays). Merging pivots C into the
    step of their parent P moves C after P's other children: still a topological order of the
    elimination tree, so the rows of every step stay the ones predicted.

    Returns a list of (width, rows) per merged supernode; with members=True, a list of the
    pivots of each merged supernode in the order of its step (the top column last)."""
    if cost is None:
        cost = lambda w, r: w * r * r  # noqa: E731
    n = sym.parent.size
    ends = np.append(starts[1:], n) - 1  # top column of each fundamental supernode
    sn_of = np.repeat(np.arange(starts.size), np.diff(np.append(starts, n)))
    width = (ends - starts + 1).astype(np.int64).tolist()
    rows = supernode_rows(sym, ends).tolist()
    sparent = [int(sn_of[sym.parent[e]]) if sym.parent[e] >= 0 else -1 for e in ends]
    children = [[] for _ in width]
    for s, p in enumerate(sparent):
        if p >= 0:
            children[p].append(s)
    parts = [[s] for s in range(len(width))]  # fundamental supernodes in each merged one
    for p in range(len(width)):  # children come before parents: they are final here
        for c in children[p]:
            merged_w = width[c] + width[p]
            apart = cost(width[c], rows[c]) + cost(width[p], rows[p])
            if merged_w <= max_width and cost(merged_w, rows[p]) <= (1 + tol) * apart:
                width[p] = merged_w
                parts[p] = parts[c] + parts[p]
                parts[c] = None
    alive = [s for s in range(len(width)) if parts[s] is not None]
    if members:
        return [[k for f in parts[s] for k in range(starts[f], ends[f] + 1)] for s in alive]
    return [(width[s], rows[s]) for s in alive]


def blocks_of(sym, starts):
    n = sym.parent.size
    ends = np.append(starts[1:], n) - 1
    return list(zip((ends - starts + 1).tolist(), supernode_rows(sym, ends).tolist()))


def block_updates(blocks):
    w = np.array([b[0] for b in blocks], dtype=np.float64)
    r = np.array([b[1] for b in blocks], dtype=np.float64)
    return w, r, w * r * r


def width_profile(blocks, edges=(8, 32, 128)):
    """Fraction of the block updates done in supernodes at least `edge` pivots wide (the inner
    dimension of the min-plus product, which sets its arithmetic intensity)."""
    w, _, upd = block_updates(blocks)
    total = upd.sum()
    return {e: float(upd[w >= e].sum() / total) if total else 0.0 for e in edges}


def step_rate(width, rows, peak, bytes_per_s, cache_bytes, elem_bytes=4):
    """Roofline rate (updates/s) of one block step of `width` pivots over rows x rows: it
    streams the rows x rows block once (read + write), so it runs at
    min(peak, bytes_per_s / (2 * elem_bytes) * width). With cache_bytes, a block that fits in
    that cache is taken to run at peak (the optimistic bound); with cache_bytes=0 every block
    streams from memory (the pessimistic bound). An estimate only."""
    streamed = elem_bytes * np.asarray(rows, dtype=np.float64) ** 2 > cache_bytes
    return np.where(streamed, np.minimum(peak, bytes_per_s / (2 * elem_bytes) * width), peak)


def roofline_seconds(blocks, peak, bytes_per_s, cache_bytes):
    w, r, upd = block_updates(blocks)
    return float((upd / step_rate(w, r, peak, bytes_per_s, cache_bytes)).sum())
