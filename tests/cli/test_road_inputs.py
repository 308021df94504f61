"""Road inputs end to end: a TransportationNetworks `_net.tntp` file (free-flow time by default,
another column by --weight-column, a second by --second-weight) and an OSMnx-style CSV (u, v,
oneway, quoted geometry) with --oneway-column, tables checked against SciPy's Dijkstra on the
arcs the formats describe; errors name the file and line."""

import json
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from conftest import assert_error

DATA = Path(__file__).resolve().parents[1] / "data"
INT32_INF = 1073741823

# tests/data/tiny_net.tntp, 0-based: (from, to, length, free_flow_time)
TNTP_LINKS = [(0, 1, 6, 6), (1, 0, 6, 6), (0, 2, 4, 4), (2, 3, 5, 4), (1, 3, 5, 9), (3, 4, 2, 3),
              (4, 0, 8, 2)]


def scipy_table(n, arcs, sources, targets):
    rows, cols, w = zip(*arcs)
    g = csr_matrix((np.array(w, dtype=float), (rows, cols)), shape=(n, n))
    return dijkstra(g, indices=sources)[:, targets]


def test_tntp_free_flow_time_and_length(apsp, tmp_path):
    net = DATA / "tiny_net.tntp"
    r = apsp("solve", net, "--sources", "1,2,5", "--targets", "4,1,5", "-o", "t.npy", "--json")
    assert r.rc == 0, r
    assert json.loads(r.out)["format"] == "tntp"
    want = scipy_table(5, [(a, b, t) for a, b, _, t in TNTP_LINKS], [0, 1, 4], [3, 0, 4])
    np.testing.assert_array_equal(np.load(tmp_path / "t.npy"), want)
    r = apsp("solve", net, "--weight-column", "length", "--sources", "1", "--targets", "4", "-o",
             "l.npy", "-q")
    assert r.rc == 0, r
    assert np.load(tmp_path / "l.npy").tolist() == [[9]]  # 1 -> 3 -> 4 by length
    r = apsp("solve", net, "--sources", "1", "--targets", "4", "--second-weight", "length",
             "--second-output", "len.npy", "-o", "t.npy", "-q")
    assert r.rc == 0, r
    # By free-flow time 1 -> 3 -> 4 (8) beats 1 -> 2 -> 4 (15); its length is 4 + 5.
    assert np.load(tmp_path / "t.npy").tolist() == [[8]]
    assert np.load(tmp_path / "len.npy").tolist() == [[9.0]]


def test_tntp_errors(apsp, tmp_path):
    (tmp_path / "bad_net.tntp").write_text("<NUMBER OF NODES> 2\n<NUMBER OF LINKS> 1\n"
                                           "<END OF METADATA>\n1 3 1 1 1 ;\n")
    assert_error(apsp("solve", "bad_net.tntp", "--sources", "1"), 3, "bad_net.tntp", "line 4")
    assert_error(apsp("convert", DATA / "tiny_net.tntp", "out.tntp"), 2, "TNTP")


def test_osmnx_style_csv_with_oneway(apsp, tmp_path):
    csv = DATA / "osm_edges.csv"
    common = ["--weight-column", "travel_time", "--oneway-column", "oneway"]
    r = apsp("solve", csv, *common, "--sources", "101,102,103,104", "--targets",
             "101,102,103,104", "-o", "t.npy", "-q")
    assert r.rc == 0, r
    # ids 101..104 -> 0..3; 101-102 both ways (9), 102 -> 103 (6), 101 -> 103 (-1 row, 20),
    # 103-104 both ways (3).
    arcs = [(0, 1, 9), (1, 0, 9), (1, 2, 6), (0, 2, 20), (2, 3, 3), (3, 2, 3)]
    want = scipy_table(4, arcs, [0, 1, 2, 3], [0, 1, 2, 3])
    got = np.load(tmp_path / "t.npy").astype(float)
    got[got == INT32_INF] = np.inf
    np.testing.assert_array_equal(got, want)
    r = apsp("solve", csv, "--weight-column", "travel_time", "--sources", "103", "--targets",
             "101", "-o", "t.npy", "-q")  # without --oneway-column: one arc a row, u -> v
    assert r.rc == 0 and np.load(tmp_path / "t.npy").tolist() == [[20]], r
    assert_error(apsp("solve", csv, "--oneway-column", "one_way", "--sources", "101"), 3,
                 "no oneway column")
    assert_error(apsp("solve", csv, "--source-column", "u", "--sources", "101"), 3,
                 "both endpoint columns")
