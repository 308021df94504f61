"""`--undirected` on every command that reads a graph, and CSV distance matrices that carry the
input's vertex ids (`--csv-labels`, the default, and `--no-csv-labels`), checked against SciPy
on the symmetrised graph and against Python's own csv reader."""

import csv
import gzip
import io
import json

import numpy as np
import pytest
from scipy.sparse.csgraph import floyd_warshall

from conftest import assert_error
from graph_files import dense_min, write_gr

# Edge-list ids in no particular order and far from 0..n-1, so that a reader that assumed the
# sort order or 0-based positions would put rows in the wrong place.
IDS = [907, 12, 4400, 31, 5, 260, 77, 1999]


def random_id_edges(seed, m):
    """m random edges (parallel edges and self-loops included) over IDS, weights 1..50."""
    rng = np.random.default_rng(seed)
    u = rng.choice(IDS, m)
    v = rng.choice(IDS, m)
    w = rng.integers(1, 51, m)
    return list(zip(u.tolist(), v.tolist(), w.tolist()))


def write_edgelist(path, edges):
    path.write_text("".join(f"{u} {v} {w}\n" for u, v, w in edges))
    return path


def scipy_distances(edges, directed):
    """{(u_id, v_id): distance} by SciPy, for the ids that appear in an edge."""
    ids = sorted({x for u, v, _ in edges for x in (u, v)})
    index = {x: i for i, x in enumerate(ids)}
    # dense_min keeps the lightest of parallel edges and no self-loop weight (all are >= 1);
    # SciPy reads 0 as "no edge" in a dense matrix.
    d = dense_min(len(ids), [(index[u], index[v], w) for u, v, w in edges], one_based=False)
    d[np.isinf(d)] = 0
    dist = floyd_warshall(d, directed=directed)
    return {(a, b): dist[index[a], index[b]] for a in ids for b in ids}


def read_labelled_csv(text):
    """{(row_id, column_id): distance} of a CSV with a header row and an id column."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    assert header[0] == "", header
    out = {}
    for row in rows[1:]:
        assert len(row) == len(header), (row, header)
        for col, value in zip(header[1:], row[1:]):
            out[(row[0], col)] = float(value)
    return header[1:], [row[0] for row in rows[1:]], out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undirected_solve_matches_scipy_by_id(apsp, tmp_path, seed):
    edges = random_id_edges(seed, 14)
    write_edgelist(tmp_path / "e.txt", edges)
    r = apsp("solve", "e.txt", "--undirected", "-o", "d.csv", "-q")
    assert r.rc == 0, (seed, r)
    columns, row_ids, got = read_labelled_csv((tmp_path / "d.csv").read_text())
    present = {str(x) for u, v, _ in edges for x in (u, v)}
    assert set(columns) == present and set(row_ids) == present, (seed, columns, row_ids)
    want = scipy_distances(edges, directed=False)
    for (a, b), d in want.items():
        assert got[(str(a), str(b))] == d, (seed, a, b, got[(str(a), str(b))], d)
    # The directed reading differs on these graphs: the option is what made them equal.
    directed = scipy_distances(edges, directed=True)
    assert directed != want, seed
    r = apsp("solve", "e.txt", "-o", "directed.csv", "-q")
    assert r.rc == 0, r
    _, _, got_directed = read_labelled_csv((tmp_path / "directed.csv").read_text())
    assert all(got_directed[(str(a), str(b))] == d for (a, b), d in directed.items()), seed


def test_undirected_reaches_every_command_that_reads_a_graph(apsp, tmp_path):
    # 10 -> 20 -> 30 only one way: 30 reaches 10 only when the edges go both ways.
    write_edgelist(tmp_path / "e.txt", [(10, 20, 4), (20, 30, 1), (30, 30, 7)])
    r = apsp("path", "e.txt", "30", "10", "--json")
    assert r.rc == 0 and json.loads(r.out)["length"] is None, r
    r = apsp("path", "e.txt", "30", "10", "--undirected", "--json")
    assert r.rc == 0, r
    assert json.loads(r.out)["length"] == 5 and json.loads(r.out)["path"] == [30, 20, 10], r

    # info counts the reverse edges (not of the self-loop)
    r = apsp("info", "e.txt", "--json")
    assert r.rc == 0 and json.loads(r.out)["m"] == 3, r
    r = apsp("info", "e.txt", "--json", "--undirected")
    assert r.rc == 0 and json.loads(r.out)["m"] == 5, r

    # verify checks against the graph read the same way
    assert apsp("solve", "e.txt", "--undirected", "-o", "u.npy", "-q").rc == 0
    assert np.load(tmp_path / "u.npy")[2, 0] == 5
    assert apsp("verify", "e.txt", "u.npy", "--undirected").rc == 0
    assert apsp("verify", "e.txt", "u.npy").rc == 7

    # convert writes both directions: the result read as directed is the undirected graph
    assert apsp("convert", "e.txt", "u.gr", "--undirected", "-q").rc == 0
    arcs = sorted(line for line in (tmp_path / "u.gr").read_text().splitlines()
                  if line.startswith("a "))
    assert arcs == ["a 1 2 4", "a 2 1 4", "a 2 3 1", "a 3 2 1", "a 3 3 7"], arcs


def test_undirected_applies_to_every_format(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 2), (3, 2, 5)])
    r = apsp("solve", "g.gr", "--undirected", "-o", "d.npy", "-q")
    assert r.rc == 0, r
    assert np.load(tmp_path / "d.npy").tolist() == [[0, 2, 7], [2, 0, 5], [7, 5, 0]]
    # A negative edge both ways is a negative cycle (SciPy's directed=False says the same).
    write_gr(tmp_path / "n.gr", 2, [(1, 2, -1)])
    assert apsp("solve", "n.gr", "-q").rc == 0
    r = apsp("solve", "n.gr", "--undirected", "-q")
    assert r.rc == 4 and "negative cycle" in r.err, r


def test_dimacs_csv_has_its_one_based_ids(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 3, [(1, 2, 5), (2, 3, 7)])
    assert apsp("solve", "g.gr", "-o", "d.csv", "-q").rc == 0
    assert (tmp_path / "d.csv").read_text() == ",1,2,3\n1,0,5,12\n2,inf,0,7\n3,inf,inf,0\n"
    assert apsp("solve", "g.gr", "-o", "n.csv", "--no-csv-labels", "-q").rc == 0
    assert (tmp_path / "n.csv").read_text() == "0,5,12\ninf,0,7\ninf,inf,0\n"
    # --csv-labels says the default out loud
    assert apsp("solve", "g.gr", "-o", "l.csv", "--csv-labels", "-q").rc == 0
    assert (tmp_path / "l.csv").read_text() == (tmp_path / "d.csv").read_text()


def test_csv_ids_that_need_quotes_read_back(apsp, tmp_path):
    # Names with a comma, a quote and a space: csv.reader must get them back as they were.
    (tmp_path / "g.csv").write_text(
        'source,target,weight\n"b,1",a,2\na,"say ""hi""",3\n"say ""hi""", c ,0.5\n')
    r = apsp("solve", "g.csv", "--dtype", "float64", "-o", "d.csv.gz", "-q")
    assert r.rc == 0, r
    text = gzip.decompress((tmp_path / "d.csv.gz").read_bytes()).decode()
    columns, row_ids, got = read_labelled_csv(text)
    assert set(columns) == {"a", "b,1", 'say "hi"', " c "} and row_ids == columns, columns
    assert got[("b,1", " c ")] == 5.5 and got[("a", 'say "hi"')] == 3, got
    assert got[(" c ", "a")] == np.inf and got[("a", "a")] == 0, got
    # Without labels, the same numbers in the same (byte-string) order of the ids
    r = apsp("solve", "g.csv", "--dtype", "float64", "-o", "plain.csv", "--no-csv-labels", "-q")
    assert r.rc == 0, r
    plain = np.loadtxt(tmp_path / "plain.csv", delimiter=",", ndmin=2)
    order = sorted(columns)
    want = np.array([[got[(a, b)] for b in order] for a in order])
    assert np.array_equal(plain, want), (plain, want)


def test_csv_label_options_are_refused_where_they_mean_nothing(apsp, tmp_path):
    write_gr(tmp_path / "g.gr", 2, [(1, 2, 1)])
    assert_error(apsp("solve", "g.gr", "-o", "d.npy", "--no-csv-labels"), 2, "--no-csv-labels",
                 "CSV")
    assert_error(apsp("solve", "g.gr", "--csv-labels"), 2, "--csv-labels", "CSV")
    r = apsp("solve", "g.gr", "-o", "d.csv", "--csv-labels", "--no-csv-labels")
    assert r.rc == 2 and "excludes" in r.err, r
    assert not (tmp_path / "d.npy").exists() and not (tmp_path / "d.csv").exists()
