"""dtype=None follows the weights (issue 43): apsp.solve computes and returns int32 where every
weight is a whole number and no path can reach int32's no-path value, float64 otherwise; the
SciPy drop-ins compute in int32 on the same terms and return SciPy's float64 with inf."""

import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.csgraph as csg

import apsp
from apsp import _core
from conftest import random_dense


def with_unreachable(dense):
    """The graph with vertex 0 cut off from every other (no arc into it), so inf appears."""
    out = dense.copy()
    out[1:, 0] = 0
    return out


@pytest.fixture
def computed_in(monkeypatch):
    """The dtypes the compiled solvers were called with, in order."""
    seen = []
    for name in ("solve_dense", "solve_edges", "solve_graph", "solve_sources_edges",
                 "solve_sources_csr", "solve_sources_graph"):
        original = getattr(_core, name)

        def spy(*args, _original=original, **kwargs):
            seen.append(kwargs["dtype"])
            return _original(*args, **kwargs)

        monkeypatch.setattr(_core, name, spy)
    return seen


def drop_ins(graph):
    """(name, apsp's result, SciPy's) for every drop-in on `graph`."""
    sources = [0, 3, 7]
    return [
        ("floyd_warshall", apsp.floyd_warshall(graph), csg.floyd_warshall(graph)),
        ("shortest_path", apsp.shortest_path(graph), csg.shortest_path(graph)),
        ("shortest_path D", apsp.shortest_path(graph, method="D", indices=sources),
         csg.shortest_path(graph, method="D", indices=sources)),
        ("dijkstra", apsp.dijkstra(graph, indices=sources), csg.dijkstra(graph, indices=sources)),
        ("johnson", apsp.johnson(graph, indices=sources), csg.johnson(graph, indices=sources)),
        ("bellman_ford", apsp.bellman_ford(graph, indices=sources),
         csg.bellman_ford(graph, indices=sources)),
    ]


@pytest.mark.parametrize("sparse", [False, True])
def test_whole_weights_compute_in_int32_and_return_scipys_float64(computed_in, sparse):
    dense = with_unreachable(random_dense(40, 0.15, 301))
    graph = scipy.sparse.csr_matrix(dense) if sparse else dense
    for name, got, expected in drop_ins(graph):
        assert got.dtype == np.float64, name
        np.testing.assert_array_equal(got, expected, err_msg=name)
        assert np.isinf(got).any(), name  # vertex 0 is unreachable: inf kept
    assert computed_in and set(computed_in) == {"int32"}, computed_in
    r = apsp.solve(graph)
    assert r.dtype == "int32" and r.distances.dtype == np.int32
    full = csg.floyd_warshall(dense)
    np.testing.assert_array_equal(np.where(r.distances == apsp.no_path("int32"), np.inf,
                                           r.distances), full)
    block = apsp.solve(graph, sources=[1, 2], targets=[0, 5])
    assert block.dtype == np.int32
    np.testing.assert_array_equal(np.where(block == apsp.no_path("int32"), np.inf, block),
                                  full[np.ix_([1, 2], [0, 5])])


def test_fractional_weights_compute_in_float64(computed_in):
    dense = with_unreachable(random_dense(40, 0.15, 302, integral=False))
    for name, got, expected in drop_ins(dense):
        assert got.dtype == np.float64, name
        np.testing.assert_allclose(got, expected, rtol=1e-12, err_msg=name)
        assert np.array_equal(np.isinf(got), np.isinf(expected)), name
    assert computed_in and set(computed_in) == {"float64"}, computed_in
    assert apsp.solve(dense).dtype == "float64"


def test_an_explicit_dtype_wins(computed_in):
    dense = random_dense(30, 0.2, 303)
    assert apsp.solve(dense, dtype="float64").dtype == "float64"
    assert apsp.floyd_warshall(dense, dtype="float32").dtype == np.float32
    assert apsp.dijkstra(dense, indices=[0], dtype="int64").dtype == np.int64
    assert computed_in == ["float64", "float32", "int64"], computed_in


def test_paths_near_int32s_range_fall_back_to_float64(computed_in):
    # Whole weights below int32's no-path value (2^30 - 1), but three of them in a row reach
    # 3 * 2^29: the engine's overflow check refuses int32, so the solve runs in float64.
    big = float(2**29)
    dense = np.zeros((4, 4))
    dense[0, 1] = dense[1, 2] = dense[2, 3] = big
    with pytest.raises(apsp.OverflowRisk):
        apsp.solve(dense, dtype="int32")
    computed_in.clear()
    r = apsp.solve(dense)
    assert r.dtype == "float64" and r.distance(0, 3) == 3 * big
    assert computed_in == ["int32", "float64"], computed_in
    for name, got, expected in drop_ins_small(dense):
        assert got.dtype == np.float64, name
        np.testing.assert_array_equal(got, expected, err_msg=name)
    # A weight at int32's no-path value or beyond is not tried in int32 at all.
    dense[0, 1] = 2.0**31
    computed_in.clear()
    assert apsp.solve(dense).dtype == "float64"
    assert computed_in == ["float64"], computed_in
    np.testing.assert_array_equal(apsp.floyd_warshall(dense), csg.floyd_warshall(dense))


def drop_ins_small(graph):
    return [("floyd_warshall", apsp.floyd_warshall(graph), csg.floyd_warshall(graph)),
            ("dijkstra", apsp.dijkstra(graph, indices=[0, 1]),
             csg.dijkstra(graph, indices=[0, 1])),
            ("johnson", apsp.johnson(graph), csg.johnson(graph))]


def test_unweighted_and_graph_inputs_follow_the_same_rule(computed_in):
    g = apsp.Graph(4, [0, 1, 2], [1, 2, 3], [0.5, 1.5, 2.5])
    assert apsp.solve(g).dtype == "float64"
    assert apsp.solve(g, unweighted=True).dtype == "int32"
    np.testing.assert_array_equal(apsp.dijkstra(g, indices=[0], unweighted=True),
                                  [[0, 1, 2, 3]])
    assert computed_in == ["float64", "int32", "int32"], computed_in
