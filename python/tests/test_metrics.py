"""apsp.metrics and the NetworkX-named measures against NetworkX 2.8's own functions, on small
seeded graphs (directed and undirected, weighted and hop counts, zero weights, not strongly
connected), on C. elegans (../shared/data) and on a sample of rome99's vertices."""

import csv
import gzip

import numpy as np
import pytest

import apsp
from conftest import data_file

nx = pytest.importorskip("networkx")
scipy_sparse = pytest.importorskip("scipy.sparse")

SEEDS = [11, 12, 13]


def random_graph(n, p, seed, directed, zero_share=0.15, connect=False):
    """A G(n, p) graph with integer weights 1..9, some 0 (printed seed on failure via ids).
    connect=True adds the cycle 0 -> 1 -> ... -> n-1 -> 0, so it is strongly connected."""
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    rng = np.random.default_rng(seed)
    if connect:
        G.add_edges_from((k, (k + 1) % n) for k in range(n))
    for u, v in G.edges:
        G[u][v]["weight"] = 0 if rng.random() < zero_share else int(rng.integers(1, 10))
    return G


def as_sparse(G, weight):
    """G's edges as a SciPy COO matrix (explicit zeros kept), in list(G)'s order."""
    index = {v: k for k, v in enumerate(G)}
    edges = list(G.edges(data=weight, default=1)) if weight else [(u, v, 1) for u, v in G.edges]
    rows = [index[u] for u, _, _ in edges]
    cols = [index[v] for _, v, _ in edges]
    data = np.array([w for _, _, w in edges], dtype=float)
    return scipy_sparse.coo_array((data, (rows, cols)), shape=(len(index), len(index)))


def reference(G, weight):
    """Every metric of docs/metrics.md from NetworkX's single-source lengths."""
    lengths = dict(nx.all_pairs_dijkstra_path_length(G, weight=weight) if weight
                   else nx.all_pairs_shortest_path_length(G))
    nodes = list(G)
    n = len(nodes)
    ref = {"out_eccentricity": {v: max(lengths[v].values()) for v in nodes},
           "in_eccentricity": {v: max(lengths[u][v] for u in nodes if v in lengths[u])
                               for v in nodes},
           "reach_out": {v: len(lengths[v]) - 1 for v in nodes},
           "reach_in": {v: sum(v in lengths[u] for u in nodes) - 1 for v in nodes},
           "closeness": nx.closeness_centrality(G, distance=weight),
           "harmonic": nx.harmonic_centrality(G, distance=weight)}
    finite = [d for u in nodes for v, d in lengths[u].items() if u != v]
    ref["reachable_pairs"] = len(finite)
    ref["average_path_length"] = sum(finite) / len(finite) if finite else 0
    ref["global_efficiency"] = sum(1 / d for d in finite if d > 0) / (n * (n - 1))
    ref["diameter"] = max(ref["out_eccentricity"].values())
    reaching = [ref["out_eccentricity"][v] for v in nodes if ref["reach_out"][v] > 0]
    ref["radius"] = min(reaching) if reaching else 0
    ref["finite"] = finite
    return ref


def check_against(m, ref, nodes, msg):
    for key in ("out_eccentricity", "in_eccentricity", "reach_out", "reach_in", "closeness",
                "harmonic"):
        got = m[key] if isinstance(m[key], dict) else dict(zip(nodes, m[key].tolist()))
        assert got == pytest.approx(ref[key], rel=1e-12), f"{msg}: {key}"
    for key in ("reachable_pairs", "average_path_length", "global_efficiency", "diameter",
                "radius"):
        assert m[key] == pytest.approx(ref[key], rel=1e-12), f"{msg}: {key}"
    counts, edges = m["histogram_counts"], m["histogram_edges"]
    assert counts.sum() == ref["reachable_pairs"], msg
    width, bins = m["histogram_width"], len(counts)
    if ref["finite"]:
        top = max(ref["finite"])
        # The smallest power of two (>= 2^-20 for float64) with every distance below bins * w.
        assert top < bins * width and (width == 2.0**-20 or top >= bins * width / 2), msg
        np.testing.assert_array_equal(counts, np.histogram(ref["finite"], bins=edges)[0],
                                      err_msg=msg)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("weight", ["weight", None])
@pytest.mark.parametrize("connect", [False, True])
def test_metrics_match_networkx(seed, directed, weight, connect):
    G = random_graph(24, 0.09, seed, directed, connect=connect)
    ref = reference(G, weight)
    msg = f"seed={seed} directed={directed} weight={weight} connect={connect}"
    m = apsp.metrics(G, weight=weight)
    assert m.nodes == list(G) and set(m["metrics"]) >= {"closeness", "histogram"}
    check_against(m, ref, list(G), msg + " networkx input")
    # The same graph as a SciPy matrix: arrays indexed by vertex, the same values.
    sparse = as_sparse(G, weight)
    for algorithm in ("johnson", "fw"):
        ms = apsp.metrics(sparse, directed=directed, algorithm=algorithm)
        assert isinstance(ms.closeness, np.ndarray) and ms.nodes is None
        check_against(ms, ref, list(G), f"{msg} sparse {algorithm}")
    assert "johnson" in apsp.metrics(sparse, directed=directed, algorithm="johnson").driver


@pytest.mark.parametrize("seed", SEEDS)
def test_dense_input_and_wf_improved(seed):
    G = random_graph(20, 0.12, seed, True, zero_share=0)  # a dense 0 is no edge
    dense = nx.to_numpy_array(G, nodelist=list(G), weight="weight")
    check_against(apsp.metrics(dense), reference(G, "weight"), list(G), f"seed={seed} dense")
    m = apsp.metrics(dense, wf_improved=False, metrics="closeness")
    expected = nx.closeness_centrality(G, distance="weight", wf_improved=False)
    assert dict(zip(G, m.closeness.tolist())) == pytest.approx(expected, rel=1e-12)


def test_metric_selection_and_errors():
    G = random_graph(10, 0.3, 1, True)
    m = apsp.metrics(G, metrics=["closeness", "reach_out", "diameter"])
    assert m.closeness is not None and m.reach_in is not None and m.diameter is not None
    assert m.harmonic is None and m.radius is None and m.histogram_counts is None
    assert m["metrics"] == ["closeness", "reachable", "diameter"]
    with pytest.raises(ValueError, match="unknown metric"):
        apsp.metrics(G, metrics=["closenes"])
    with pytest.raises(ValueError, match="histogram_bins"):
        apsp.metrics(G, histogram_bins=0)
    assert len(apsp.metrics(G, histogram_bins=5).histogram_counts) == 5


def _same_outcome(ours, theirs, msg):
    """`ours()` returns what `theirs()` returns, or raises an instance of the NetworkX (or
    other) exception class that `theirs()` raises."""
    try:
        expected = theirs()
    except (nx.NetworkXException, ValueError) as e:
        with pytest.raises(type(e)):
            ours()
        return "raised"
    got = ours()
    assert got == pytest.approx(expected, rel=1e-12), msg
    return "value"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("connect", [False, True])
def test_networkx_named_functions(seed, directed, connect):
    G = random_graph(20, 0.1, seed, directed, connect=connect)
    msg = f"seed={seed} directed={directed} connect={connect}"
    some = list(G)[:5]
    pairs = [
        (lambda: apsp.closeness_centrality(G), lambda: nx.closeness_centrality(G)),
        (lambda: apsp.closeness_centrality(G, distance="weight", wf_improved=False),
         lambda: nx.closeness_centrality(G, distance="weight", wf_improved=False)),
        (lambda: apsp.closeness_centrality(G, u=3, distance="weight"),
         lambda: nx.closeness_centrality(G, u=3, distance="weight")),
        (lambda: apsp.harmonic_centrality(G), lambda: nx.harmonic_centrality(G)),
        (lambda: apsp.harmonic_centrality(G, distance="weight"),
         lambda: nx.harmonic_centrality(G, distance="weight")),
        (lambda: apsp.harmonic_centrality(G, nbunch=some, sources=list(G)[3:9],
                                          distance="weight"),
         lambda: nx.harmonic_centrality(G, nbunch=some, sources=list(G)[3:9],
                                        distance="weight")),
        (lambda: apsp.eccentricity(G), lambda: nx.eccentricity(G)),
        (lambda: apsp.eccentricity(G, v=4), lambda: nx.eccentricity(G, v=4)),
        (lambda: apsp.eccentricity(G, v=some), lambda: nx.eccentricity(G, v=some)),
        (lambda: apsp.diameter(G), lambda: nx.diameter(G)),
        (lambda: apsp.radius(G), lambda: nx.radius(G)),
        (lambda: apsp.average_shortest_path_length(G),
         lambda: nx.average_shortest_path_length(G)),
        (lambda: apsp.average_shortest_path_length(G, weight="weight"),
         lambda: nx.average_shortest_path_length(G, weight="weight")),
        (lambda: apsp.average_shortest_path_length(G, weight="weight", method="unweighted"),
         lambda: nx.average_shortest_path_length(G, weight="weight", method="unweighted")),
        (lambda: apsp.global_efficiency(G), lambda: nx.global_efficiency(G)),
    ]
    outcomes = [_same_outcome(ours, theirs, f"{msg} call {k}")
                for k, (ours, theirs) in enumerate(pairs)]
    if connect:
        assert "raised" not in outcomes[:-1], msg


def test_weakly_connected_digraph_averages_like_networkx():
    # Weakly but not strongly connected: NetworkX divides the reachable sum by n (n - 1).
    G = nx.DiGraph([(0, 1), (1, 2), (2, 3), (0, 3)])
    assert apsp.average_shortest_path_length(G) == pytest.approx(
        nx.average_shortest_path_length(G))
    with pytest.raises(nx.NetworkXError):
        apsp.diameter(G)
    G.add_node(9)
    with pytest.raises(apsp.NotConnectedError, match="weakly"):
        apsp.average_shortest_path_length(G)


def test_edge_cases_and_error_classes():
    with pytest.raises(nx.NetworkXPointlessConcept):
        apsp.average_shortest_path_length(nx.Graph())
    with pytest.raises(ValueError):
        apsp.diameter(nx.Graph())
    single = nx.Graph()
    single.add_node("x")
    assert apsp.average_shortest_path_length(single) == 0
    assert apsp.eccentricity(single) == {"x": 0}
    with pytest.raises(nx.NetworkXNotImplemented):
        apsp.global_efficiency(nx.DiGraph([(0, 1)]))
    err = pytest.raises(nx.NetworkXError, apsp.eccentricity, nx.DiGraph([(0, 1)]))
    assert isinstance(err.value, apsp.NotConnectedError) and isinstance(err.value, ValueError)


def test_matrix_input_gives_arrays_and_raises_alike():
    G = random_graph(15, 0.2, 5, True, zero_share=0, connect=True)
    sparse = as_sparse(G, "weight")
    nodes = list(G)
    ecc = apsp.eccentricity(sparse)  # weight=None: hop counts, as NetworkX's default
    assert isinstance(ecc, np.ndarray)
    assert dict(zip(nodes, ecc.tolist())) == nx.eccentricity(G)
    assert apsp.eccentricity(sparse, v=2) == nx.eccentricity(G, v=nodes[2])
    assert apsp.diameter(sparse, weight="weight") == max(
        max(nx.single_source_dijkstra_path_length(G, v).values()) for v in G)
    closeness = apsp.closeness_centrality(sparse, distance="weight")
    assert dict(zip(nodes, closeness.tolist())) == pytest.approx(
        nx.closeness_centrality(G, distance="weight"))
    assert apsp.average_shortest_path_length(sparse) == pytest.approx(
        nx.average_shortest_path_length(G))
    cut = scipy_sparse.coo_array(([1.0], ([0], [1])), shape=(3, 3))
    with pytest.raises(apsp.NotConnectedError):
        apsp.radius(cut)
    with pytest.raises(apsp.NotConnectedError, match="weakly"):
        apsp.average_shortest_path_length(cut)


def read_c_elegans():
    path = data_file("c_elegans_hermaphrodite/edgelist.csv.gz")
    if path is None:
        pytest.skip("C. elegans (c_elegans_hermaphrodite/edgelist.csv.gz) is in none of data/, "
                    "tests/data, ../shared/data ($APSP_SHARED_DATA)")
    G = nx.DiGraph()
    with gzip.open(path, "rt", newline="") as f:
        for row in csv.DictReader(f):
            G.add_edge(row["source"], row["target"], weight=float(row["weight"]))
    return path, G


def test_c_elegans_against_networkx():
    path, G = read_c_elegans()
    assert G.number_of_nodes() == 473 and G.number_of_edges() == 6947
    for weight in ("weight", None):
        m = apsp.metrics(G, weight=weight)
        ref = reference(G, weight)
        check_against(m, ref, list(G), f"C. elegans weight={weight}")
    for ours, theirs in [(apsp.eccentricity, nx.eccentricity), (apsp.diameter, nx.diameter),
                         (apsp.average_shortest_path_length, nx.average_shortest_path_length)]:
        _same_outcome(lambda: ours(G), lambda: theirs(G), f"C. elegans {theirs.__name__}")
    # The file read by apsp itself (labels in file order) gives the same closeness by label.
    g = apsp.read_graph(path)
    from_file = apsp.metrics(g, metrics="closeness")
    by_label = dict(zip(g.labels, from_file.closeness.tolist()))
    assert by_label == pytest.approx(nx.closeness_centrality(G, distance="weight"), rel=1e-12)


def test_rome99_sample_against_networkx():
    path = data_file("rome99.gr")
    if path is None:
        pytest.skip("data/rome99.gr is missing")
    g = apsp.read_graph(path)
    src, dst, w = g.edges
    G = nx.DiGraph()
    G.add_nodes_from(range(g.n))
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        if not G.has_edge(u, v) or x < G[u][v]["weight"]:  # parallel arcs keep the least
            G.add_edge(u, v, weight=x)
    m = apsp.metrics(g)
    assert m.reachable_pairs == g.n * (g.n - 1)  # strongly connected
    sample = np.random.default_rng(99).choice(g.n, size=12, replace=False).tolist()
    reverse = G.reverse(copy=False)
    for v in sample:
        into = nx.single_source_dijkstra_path_length(reverse, v)
        out = nx.single_source_dijkstra_path_length(G, v)
        closeness = (len(into) - 1) / sum(into.values()) * (len(into) - 1) / (g.n - 1)
        assert m.closeness[v] == pytest.approx(closeness, rel=1e-12), f"vertex {v}"
        assert m.harmonic[v] == pytest.approx(sum(1 / d for d in into.values() if d > 0),
                                              rel=1e-12), f"vertex {v}"
        assert m.in_eccentricity[v] == max(into.values()) and \
            m.out_eccentricity[v] == max(out.values()), f"vertex {v}"
    hops = apsp.eccentricity(g, v=sample)
    assert dict(zip(sample, hops.tolist())) == nx.eccentricity(G, v=sample)


@pytest.mark.parametrize("algorithm", ["johnson", "fw"])
def test_progress_cancels_and_reports(algorithm):
    G = random_graph(30, 0.2, 3, True)
    with pytest.raises(apsp.Cancelled):
        apsp.metrics(G, algorithm=algorithm, progress=lambda done, total, rate: False)
    calls = []
    m = apsp.metrics(G, algorithm=algorithm, progress=lambda *a: calls.append(a))
    assert calls and calls[-1][0] == calls[-1][1]  # the last call reports every round done
    assert m.algorithm == algorithm


def test_errors_without_networkx_are_plain_value_errors(monkeypatch):
    import sys
    cut = scipy_sparse.coo_array(([1.0], ([0], [1])), shape=(3, 3))
    monkeypatch.setitem(sys.modules, "networkx", None)  # `import networkx` now fails
    with pytest.raises(apsp.NotConnectedError) as err:
        apsp.diameter(cut)
    assert not isinstance(err.value, nx.NetworkXError) and isinstance(err.value, ValueError)
