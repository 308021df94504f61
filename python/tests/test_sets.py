"""apsp.solve(..., sources=, targets=): the |S| x |T| block equals the rows and columns of the
full solve and SciPy's dijkstra(indices=), for every input kind."""

import numpy as np
import pytest

import apsp
from conftest import as_float, random_dense, with_negative_edges

scipy_sparse = pytest.importorskip("scipy.sparse")
csgraph = pytest.importorskip("scipy.sparse.csgraph")


def _sets(n, seed):
    rng = np.random.default_rng(seed)
    sources = rng.choice(n, size=max(1, n // 4), replace=False)
    targets = rng.choice(n, size=max(1, n // 3), replace=False)
    return sources, targets


def _with_zero_edges(dense, seed):
    """A CSR copy of `dense` with some edges stored as explicit zeros (zero-weight edges)."""
    rng = np.random.default_rng(seed)
    csr = scipy_sparse.csr_matrix(dense)
    csr.data[rng.random(csr.data.size) < 0.2] = 0
    return csr


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("directed", [True, False])
def test_block_is_the_full_solve_restricted(seed, directed):
    n = 37
    sparse = _with_zero_edges(random_dense(n, 0.12, seed), seed)
    full = csgraph.dijkstra(sparse, directed=directed)
    s, t = _sets(n, seed)
    coo = sparse.tocoo()
    kinds = {"csr": sparse, "coo": coo, "csc": sparse.tocsc(),
             "graph": apsp.Graph(n, coo.row, coo.col, coo.data)}
    for name, g in kinds.items():
        msg = f"seed={seed} directed={directed} input={name}"
        block = as_float(apsp.solve(g, sources=s, targets=t, directed=directed))
        assert block.shape == (len(s), len(t)), msg
        np.testing.assert_array_equal(block, full[np.ix_(s, t)], err_msg=msg)
        apsp_full = as_float(apsp.solve(g, directed=directed, paths=False).distances)
        np.testing.assert_array_equal(block, apsp_full[np.ix_(s, t)], err_msg=msg)
        np.testing.assert_array_equal(as_float(apsp.solve(g, sources=s, directed=directed)),
                                      full[s],
                                      err_msg=msg)
        np.testing.assert_array_equal(as_float(apsp.solve(g, targets=t, directed=directed)),
                                      full[:, t],
                                      err_msg=msg)
        # More targets than sources searches the other way round; the block is the same.
        np.testing.assert_array_equal(as_float(apsp.solve(g, sources=t, targets=s,
                                                          directed=directed)),
                                      full[np.ix_(t, s)], err_msg=msg)


@pytest.mark.parametrize("seed", [4, 5])
def test_block_matches_scipy_dijkstra_indices(seed):
    n = 50
    dense = random_dense(n, 0.1, seed, integral=False)
    s, t = _sets(n, seed)
    expected = csgraph.dijkstra(dense, indices=s)[:, t]
    np.testing.assert_allclose(apsp.solve(dense, sources=s, targets=t), expected, rtol=1e-12)
    hops = csgraph.dijkstra(dense, indices=s, unweighted=True)[:, t]
    np.testing.assert_array_equal(apsp.solve(dense, sources=s, targets=t, unweighted=True), hops)


def test_dense_rules_are_floyd_warshalls():
    # A masked array's unmasked zeros are no edge, as in floyd_warshall (not as in dijkstra).
    values = np.array([[0, 0, 5.0, 0], [1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]])
    masked = np.ma.masked_array(values, mask=values == 5.0)
    full = apsp.floyd_warshall(masked)
    np.testing.assert_array_equal(as_float(apsp.solve(masked, targets=[0, 3])), full[:, [0, 3]])
    np.testing.assert_array_equal(as_float(apsp.solve(masked, sources=[2], targets=[0, 1])),
                                  full[[2]][:, [0, 1]])


def test_negative_weights_and_repeated_sources():
    n = 30
    dense = with_negative_edges(random_dense(n, 0.2, 7), 7)
    full = apsp.floyd_warshall(dense)
    s = np.array([3, 3, 0, 29])
    t = np.array([1])
    np.testing.assert_array_equal(apsp.solve(dense, sources=s, targets=t), full[np.ix_(s, t)])
    np.testing.assert_array_equal(apsp.solve(dense, targets=[5, 2]), full[:, [5, 2]])


def test_negative_cycle_anywhere_raises():
    # The cycle 2 <-> 3 is reachable from neither source nor target, as in the full solve.
    g = scipy_sparse.csr_matrix(np.array([[0, 1.0, 0, 0], [0, 0, 0, 0], [0, 0, 0, -2],
                                          [0, 0, 1.0, 0]]))
    with pytest.raises(apsp.NegativeCycleError):
        apsp.solve(g, sources=[0], targets=[1])
    with pytest.raises(apsp.NegativeCycleError):
        apsp.solve(g, targets=[1])


def test_integer_dtype_keeps_no_path():
    dense = np.array([[0, 4, 0], [0, 0, 1], [0, 0, 0]], dtype=float)
    block = apsp.solve(dense, sources=[2, 0], targets=[0, 2], dtype="int32")
    assert block.dtype == np.int32
    np.testing.assert_array_equal(block, [[apsp.no_path("int32"), 0], [0, 5]])


def test_networkx_nodes_label_the_columns():
    nx = pytest.importorskip("networkx")
    G = nx.DiGraph()
    G.add_weighted_edges_from([("a", "b", 2), ("b", "c", 1), ("a", "c", 5), ("c", "d", 1)])
    block = apsp.solve(G, sources=["a", "b"], targets=["d", "a"])
    assert block.nodes == ["d", "a"]
    lengths = {u: nx.single_source_dijkstra_path_length(G, u) for u in ["a", "b"]}
    expected = [[lengths[u].get(v, np.inf) for v in ["d", "a"]] for u in ["a", "b"]]
    np.testing.assert_array_equal(as_float(block), expected)
    column = apsp.solve(G, targets=["c"], weight=None)
    assert column.shape == (4, 1)
    np.testing.assert_array_equal(as_float(column)[:, 0], [1, 1, 0, np.inf])


def test_options_a_block_cannot_honour():
    dense = random_dense(5, 0.5, 1)
    with pytest.raises(ValueError, match="cpu"):
        apsp.solve(dense, sources=[0], backend="cuda")
    with pytest.raises(ValueError, match="Dijkstra"):
        apsp.solve(dense, sources=[0], algorithm="fw")
    with pytest.raises(ValueError, match="paths"):
        apsp.solve(dense, sources=[0], paths=True)
    with pytest.raises(ValueError):
        apsp.solve(dense, targets=[5])
    # Without sources and targets, solve is unchanged: a Result with paths.
    assert apsp.solve(dense).has_paths
