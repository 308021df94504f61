"""apsp.table(..., second=...): travel times and, along the same paths, lengths, against a
lexicographic Dijkstra in Python with the same tie rule (of the paths of least weight, the
least second sum); SciPy and NetworkX inputs, directed and undirected."""

import heapq

import numpy as np
import pytest
import scipy.sparse as sp

import apsp


def reference(n, rows, cols, weights, lengths, source):
    out = [[] for _ in range(n)]
    for u, v, w, length in zip(rows, cols, weights, lengths):
        if u != v:
            out[u].append((v, w, length))
    best = {source: (0, 0.0)}
    heap = [(0, 0.0, source)]
    while heap:
        d, s, u = heapq.heappop(heap)
        if best[u] != (d, s):
            continue
        for v, w, length in out[u]:
            cand = (d + w, s + length)
            if v not in best or cand < best[v]:
                best[v] = cand
                heapq.heappush(heap, (cand[0], cand[1], v))
    return best


def random_roads(n, m, seed):
    rng = np.random.default_rng(seed)
    pairs = {(int(a), int(b)) for a, b in rng.integers(0, n, (m, 2)) if a != b}
    rows, cols = map(np.array, zip(*sorted(pairs)))
    weights = rng.integers(1, 4, rows.size).astype(float)  # many ties
    lengths = np.round(rng.uniform(1, 60, rows.size), 2)
    return rows, cols, weights, lengths


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_scipy_input_matches_the_reference(dtype):
    n = 120
    rows, cols, weights, lengths = random_roads(n, 400, 1)
    g = sp.csr_matrix((weights, (rows, cols)), shape=(n, n))
    second = sp.csr_matrix((lengths, (rows, cols)), shape=(n, n))
    s, t = [0, 5, 5, 77, 119], [3, 0, 64, 119]
    got, sums = apsp.table(g, s, t, dtype=dtype, second=second)
    assert got.dtype == np.dtype(dtype) and sums.dtype == np.float64
    np.testing.assert_array_equal(got, apsp.table(g, s, t, dtype=dtype))
    for i, a in enumerate(s):
        best = reference(n, rows, cols, weights, lengths, a)
        for j, b in enumerate(t):
            if b in best:
                assert (got[i, j], sums[i, j]) == best[b], (a, b)
            else:
                assert got[i, j] == apsp.no_path(dtype) and np.isinf(sums[i, j])


def test_networkx_attributes_undirected():
    nx = pytest.importorskip("networkx")
    G = nx.Graph()
    G.add_edge("a", "b", travel_time=2, length=10.5)
    G.add_edge("b", "c", travel_time=2, length=1.25)
    G.add_edge("a", "c", travel_time=4, length=3.0)  # ties with a-b-c, shorter
    G.add_edge("c", "d", travel_time=1, length=7.0)
    got, sums = apsp.table(G, ["a", "d"], ["c", "a"], weight="travel_time", second="length")
    assert got.tolist() == [[4, 0], [1, 5]]
    assert sums.tolist() == [[3.0, 0.0], [7.0, 10.0]]


def test_refusals(tmp_path):
    g = sp.csr_matrix(([1.0], ([0], [1])), shape=(2, 2))
    with pytest.raises(ValueError, match="shape"):
        apsp.table(g, [0], [1], second=np.ones((3, 3)))
    with pytest.raises(ValueError, match="integer"):
        apsp.table(g, [0], [1], dtype="float64", second=g)
    with pytest.raises(ValueError, match=">= 0"):
        apsp.table(g, [0], [1], second=-g)
    (tmp_path / "g.gr").write_text("p sp 2 1\na 1 2 1\n")
    with pytest.raises(TypeError, match="one weight per edge"):
        apsp.table(apsp.read_graph(tmp_path / "g.gr"), [0], [1], second=g)
