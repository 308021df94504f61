"""apsp.read_graph on small files written here and on the real graphs of the data folder."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra as scipy_dijkstra
from scipy.sparse.csgraph import floyd_warshall as scipy_fw

import apsp
from conftest import data_file


def test_dimacs_file(tmp_path):
    f = tmp_path / "tiny.gr"
    f.write_text("c tiny\np sp 4 5\na 1 2 3\na 2 3 0\na 3 1 4\na 1 2 7\na 4 4 2\n")
    g = apsp.read_graph(f)
    assert (g.n, g.num_edges, g.format) == (4, 5, "dimacs")
    src, dst, w = g.edges
    assert list(src) == [0, 1, 2, 0, 3] and list(dst) == [1, 2, 0, 1, 3]
    assert list(w) == [3, 0, 4, 7, 2] and not w.flags.writeable
    assert g.labels == ["1", "2", "3", "4"] and g.index("3") == 2 and g.label(0) == "1"
    dist = apsp.floyd_warshall(g)
    # The zero-weight arc 2 -> 3 is an edge; parallel arcs keep the minimum (3).
    expected = np.array([[0, 3, 3, np.inf], [4, 0, 0, np.inf], [4, 7, 0, np.inf],
                         [np.inf, np.inf, np.inf, 0]])
    assert np.array_equal(dist, expected)
    r = apsp.solve(g, dtype="int32")
    assert r.path(0, 2) == [0, 1, 2] and r.distances[0, 3] == apsp.no_path("int32")


def test_edge_list_and_csv_keep_file_ids(tmp_path):
    el = tmp_path / "ids.txt"
    el.write_text("# comment\n10 3 2\n3 77 5\n77 10 1\n")
    g = apsp.read_graph(el)
    assert g.n == 3 and g.labels == ["3", "10", "77"]  # numeric ids, sorted as numbers
    dist = apsp.floyd_warshall(g)
    a, b, c = (g.index(x) for x in ("3", "10", "77"))
    assert dist[b, c] == 7 and dist[c, a] == 3
    csv = tmp_path / "named.csv"
    csv.write_text("source,target,cost\nbob,alice,2\nalice,carol,5\ncarol,bob,1\n")
    g2 = apsp.read_graph(csv, weight_column="cost")
    assert g2.labels == ["alice", "bob", "carol"]
    a, b, c = (g2.index(x) for x in ("alice", "bob", "carol"))
    d2 = apsp.floyd_warshall(g2)
    assert d2[b, c] == 7 and d2[c, a] == 3
    with pytest.raises(KeyError):
        g2.index("dave")
    assert np.array_equal(apsp.read_graph(csv, format="csv", weight_column="none").edges[2],
                          np.ones(3))


def test_graph_and_sparse_views_agree(tmp_path):
    f = tmp_path / "g.mtx"
    f.write_text("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 0.5\n2 3 0\n3 1 2\n")
    g = apsp.read_graph(f)
    src, dst, w = g.edges
    csr = sp.csr_matrix((w, (src, dst)), shape=(g.n, g.n))
    assert np.array_equal(apsp.floyd_warshall(g), scipy_fw(csr))


def checksums(dist, no_path):
    off = ~np.eye(dist.shape[0], dtype=bool)
    reach = off & (dist != no_path)
    return int(reach.sum()), int(dist[reach].astype(np.int64).sum()), int(dist[reach].max())


ROME_CHECKSUMS = {
    # Independent all-sources Dijkstra, ../shared/data/README.md.
    True: (11_239_256, 160_839_610_183, 77_403, 30_305),
    False: (11_239_256, 158_438_920_664, 76_654, 30_290),
}


@pytest.mark.parametrize("directed", [True, False])
def test_rome99_checksums(directed):
    path = data_file("rome99.gr")
    if path is None:
        pytest.skip("rome99.gr is in none of data/, tests/data, ../shared/data")
    g = apsp.read_graph(path)
    assert (g.n, g.num_edges) == (3353, 8870)
    dist = apsp.floyd_warshall(g, directed=directed, dtype="int32")
    pairs, total, longest, corner = ROME_CHECKSUMS[directed]
    assert checksums(dist, apsp.no_path("int32")) == (pairs, total, longest)
    assert dist[0, g.n - 1] == corner


def test_c_elegans_checksums():
    path = data_file("c_elegans_hermaphrodite/edgelist.csv.gz")
    if path is None:
        pytest.skip("the C. elegans edge list is in none of data/, tests/data, ../shared/data")
    g = apsp.read_graph(path)
    assert g.n == 473 and g.num_edges == 6947
    weighted = apsp.floyd_warshall(g, dtype="int32")
    assert checksums(weighted, apsp.no_path("int32")) == (219_952, 5_039_308, 378)
    hops = apsp.floyd_warshall(g, unweighted=True)
    assert checksums(hops, np.inf) == (219_952, 978_234, 24)


def test_npy_graph_uses_the_file_rule_not_scipys(tmp_path):
    # In a .npy graph file inf means "no edge" and 0 is a zero-weight edge; the same matrix
    # passed as an array follows SciPy's rule (0 = no edge).
    m = np.array([[0, 0, np.inf], [np.inf, 0, 2], [1, np.inf, 0]])
    f = tmp_path / "g.npy"
    np.save(f, m)
    g = apsp.read_graph(f)
    assert g.n == 3 and g.format == "npy"
    from_file = apsp.floyd_warshall(g)
    assert from_file[0, 1] == 0 and from_file[0, 2] == 2
    assert np.isinf(apsp.floyd_warshall(m)[0, 1])


def test_ids_that_are_not_utf8_round_trip_through_labels_and_index(tmp_path):
    f = tmp_path / "latin1.csv"
    f.write_bytes(b"source,target,weight\n\xe9t\xe9,b,1\nb,c,2\n")
    g = apsp.read_graph(f)
    assert "\udce9t\udce9" in g.labels  # the undecodable bytes as surrogates, as os.fsdecode does
    for k, label in enumerate(g.labels):
        assert g.index(label) == k and g.label(k) == label


def test_undirected_edge_list_is_scipys_symmetrised_graph(tmp_path):
    rng = np.random.default_rng(41)
    n, m = 40, 120
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0, 20, m)  # zeros included; repeats and self-loops happen
    f = tmp_path / "g.txt"
    f.write_text("".join(f"{a} {b} {c}\n" for a, b, c in zip(u, v, w)))
    directed = apsp.read_graph(f, format="edgelist")
    g = apsp.read_graph(f, format="edgelist", undirected=True)
    assert apsp.read_graph(f, format="edgelist", directed=False).num_edges == g.num_edges
    assert g.num_edges == 2 * m - np.count_nonzero(u == v) > directed.num_edges
    # SciPy's reading of the same edges with directed=False (the lightest of each pair both
    # ways, zeros kept as explicit entries); apsp's vertex i is the file's id int(label i).
    order = np.array([int(s) for s in g.labels])
    lightest = {}
    for a_, b_, c_ in zip(u, v, w):
        lightest[(a_, b_)] = min(lightest.get((a_, b_), np.inf), c_)
    rows, cols = zip(*lightest)
    a = sp.csr_matrix((np.array(list(lightest.values()), dtype=float), (rows, cols)),
                      shape=(n, n))
    want = scipy_dijkstra(a, directed=False)[np.ix_(order, order)]
    got = apsp.floyd_warshall(g)
    np.testing.assert_array_equal(got, want)
    assert not np.array_equal(apsp.floyd_warshall(directed), want)
    with pytest.raises(ValueError, match="contradicts"):
        apsp.read_graph(f, format="edgelist", undirected=True, directed=True)
