"""Bad inputs raise Python exceptions, never crash; negative cycles are reported."""

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

import apsp
from conftest import cuda_available


def negative_cycle_graph():
    a = np.zeros((6, 6))
    a[0, 1] = 1
    a[2, 3], a[3, 4], a[4, 2] = 2, -3, 0.5  # cycle 2 -> 3 -> 4 -> 2 of weight -0.5
    return a


@pytest.mark.parametrize("kind", ["dense", "sparse", "graph"])
def test_negative_cycle_error_names_vertices(kind, backend):
    a = negative_cycle_graph()
    graph = {"dense": a, "sparse": sp.csr_matrix(a),
             "graph": apsp.Graph(6, *np.nonzero(a), a[np.nonzero(a)])}[kind]
    dtype = "float32" if backend == "cuda" else None
    with pytest.raises(apsp.NegativeCycleError) as info:
        apsp.floyd_warshall(graph, backend=backend, dtype=dtype)
    assert isinstance(info.value, csgraph.NegativeCycleError)  # SciPy code catches it
    assert sorted(info.value.vertices) == [2, 3, 4]
    assert "2, 3, 4" in str(info.value)


def test_scipy_agrees_it_is_a_negative_cycle():
    with pytest.raises(csgraph.NegativeCycleError):
        csgraph.floyd_warshall(negative_cycle_graph())


def test_undirected_negative_edge_and_negative_self_loop_are_cycles():
    a = np.array([[0, -1.0], [0, 0]])
    apsp.floyd_warshall(a)  # directed: fine
    with pytest.raises(apsp.NegativeCycleError):
        apsp.floyd_warshall(a, directed=False)
    with pytest.raises(apsp.NegativeCycleError):
        apsp.floyd_warshall(np.array([[-1.0, 2], [0, 0]]))  # SciPy ignores this diagonal
    with pytest.raises(apsp.NegativeCycleError):
        apsp.floyd_warshall(sp.csr_matrix(np.array([[-1.0, 2], [0, 0]])), dtype="int32")


@pytest.mark.parametrize("bad", [
    np.zeros((2, 3)), np.zeros(4), np.zeros((2, 2, 2)), np.float64(3.0),
    [[0, 1], [1]], sp.csr_matrix((2, 3)),
])
def test_shape_errors_are_value_errors(bad):
    with pytest.raises(ValueError):
        apsp.floyd_warshall(bad)


@pytest.mark.parametrize("bad", [
    np.array([[0, 1j], [1, 0]]), np.array([["a", "b"], ["c", "d"]]),
    np.array([[0, object()], [1, 0]], dtype=object),
])
def test_non_numeric_inputs_are_type_errors(bad):
    with pytest.raises(TypeError):
        apsp.floyd_warshall(bad)


def test_nan_and_minus_inf_in_sparse_input():
    for x in (np.nan, -np.inf):
        g = sp.csr_matrix((np.array([1.0, x]), np.array([1, 0]), np.array([0, 1, 2])),
                          shape=(2, 2))
        with pytest.raises(ValueError, match="NaN|-inf"):
            apsp.floyd_warshall(g)
    # +inf stored in a sparse matrix is simply not an edge.
    g = sp.csr_matrix((np.array([np.inf]), np.array([1]), np.array([0, 1, 1])), shape=(2, 2))
    assert np.isinf(apsp.floyd_warshall(g)[0, 1])


@pytest.mark.parametrize("kwargs", [
    dict(backend="gpu"), dict(backend=3), dict(dtype="float16"), dict(dtype="complex128"),
    dict(dtype="nonsense"), dict(progress=42),
])
def test_bad_options(kwargs):
    with pytest.raises((ValueError, TypeError)):
        apsp.floyd_warshall(np.eye(3), **kwargs)


def test_unknown_shortest_path_method_names_supported_ones():
    for method in ("fw", "dijkstra", "X"):  # SciPy's names only, case included
        with pytest.raises(ValueError, match="auto, FW, J, D, BF"):
            apsp.shortest_path(np.eye(3), method=method)
    with pytest.raises(ValueError):
        apsp.shortest_path(np.eye(3), indices=[5])


def test_integer_dtypes_refuse_what_they_cannot_hold():
    with pytest.raises(ValueError, match="dtype=float64"):
        apsp.floyd_warshall(np.array([[0, 1.5], [1, 0]]), dtype="int32")
    with pytest.raises(ValueError, match="dtype="):
        apsp.floyd_warshall(sp.csr_matrix(np.array([[0, 1.5], [1, 0]])), dtype="int64")
    with pytest.raises(ValueError, match="dtype="):  # paths could overflow int32
        apsp.floyd_warshall(np.full((4, 4), 1e9), dtype="int32")
    big = np.array([[0, 3e9], [1, 0]])
    with pytest.raises(ValueError):
        apsp.floyd_warshall(big, dtype="int32")
    assert apsp.floyd_warshall(big, dtype="int64")[0, 1] == 3e9


@pytest.mark.parametrize("make", [
    lambda n: sp.csr_matrix((n, n)),
    lambda n: np.broadcast_to(np.float64(0), (n, n)),  # a 0-byte view of an n x n matrix
])
def test_too_large_is_memory_error(make):
    with pytest.raises(MemoryError):
        apsp.floyd_warshall(make(2_000_000))  # 32 TB of distances


@pytest.mark.skipif(cuda_available(), reason="a CUDA device is present")
def test_unavailable_backend():
    with pytest.raises(apsp.BackendUnavailable, match="cuda|CUDA"):
        apsp.floyd_warshall(np.eye(3), backend="cuda", dtype="float32")


def test_bad_graph_construction():
    with pytest.raises(ValueError):
        apsp.Graph(3, [0, 5], [1, 1])  # vertex out of range
    with pytest.raises(ValueError):
        apsp.Graph(3, [0], [1], [np.nan])
    with pytest.raises(ValueError):
        apsp.Graph(3, [0, 1], [1], [1.0, 2.0])
    with pytest.raises(ValueError):
        apsp.Graph(-1, [], [])


def test_read_graph_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        apsp.read_graph(tmp_path / "missing.gr")
    bad = tmp_path / "bad.gr"
    bad.write_text("p sp 3 1\na 1 9 4\n")
    with pytest.raises(ValueError, match="bad.gr"):
        apsp.read_graph(bad)
    with pytest.raises(ValueError):
        apsp.read_graph(bad, format="no-such-format")


def test_arguments_are_whole_numbers_where_whole_numbers_are_meant():
    with pytest.raises(ValueError, match="whole numbers"):
        apsp.Graph(3, [0.7], [1.9], [5.0])
    with pytest.raises(TypeError, match="integer vertex ids"):
        apsp.Graph(3, [True], [1], [5.0])
    assert apsp.Graph(3, [0.0], [2.0], [5.0]).edges[1].tolist() == [2]
    pred = apsp.floyd_warshall(np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]], float),
                               return_predecessors=True)[1]
    assert apsp.path(pred, np.int64(0), 2) == [0, 1, 2]
    for bad in (0.9, "0"):
        with pytest.raises(TypeError, match="integers"):
            apsp.path(pred, bad, 2)
    with pytest.raises(ValueError, match="integers"):
        apsp.path(pred.astype(float), 0, 2)
    g = np.array([[0, 1.0], [1.0, 0]])
    for bad in (1.5, "2", True):
        with pytest.raises(TypeError, match="threads"):
            apsp.solve(g, threads=bad)
    with pytest.raises(ValueError, match="threads"):
        apsp.solve(g, threads=-1)
    for bad in (b"ab", {0: 1}, {0}):
        with pytest.raises(TypeError, match="devices"):
            apsp.solve(g, devices=bad)


def test_any_false_value_but_none_cancels():
    a = np.ones((300, 300)) - np.eye(300)
    for stop in (np.False_, 0):
        with pytest.raises(apsp.Cancelled):
            apsp.solve(a, backend="cpu", dtype="int32", progress=lambda d, t, r: stop)
    assert apsp.solve(a, backend="cpu", dtype="int32", progress=lambda d, t, r: None).seconds >= 0


def test_messages_name_python_keywords_not_command_line_flags():
    with pytest.raises(apsp.BackendUnavailable) as info:
        apsp.solve(np.ones((3, 3)), backend="reference", algorithm="johnson")
    assert "--" not in str(info.value), info.value


@pytest.mark.parametrize("obj, hint", [
    ({0: {1: 2.0}}, "networkx.DiGraph"),
    ("graph.gr", "apsp.read_graph"),
    ({1, 2}, "scipy.sparse"),
    (object(), "scipy.sparse"),
])
def test_objects_that_are_no_graph_name_the_conversion(obj, hint):
    for f in (apsp.floyd_warshall, apsp.dijkstra, apsp.solve):
        with pytest.raises(TypeError, match="pass a SciPy sparse matrix, a NumPy array") as info:
            f(obj)
        assert hint in str(info.value), str(info.value)
    with pytest.raises(TypeError, match=hint):
        apsp.johnson(obj, indices=[0])
