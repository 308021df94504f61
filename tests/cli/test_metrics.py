"""`apsp metrics` against NetworkX 2.8 (closeness, harmonic, eccentricity, average shortest path
length, global efficiency) on rome99.gr and small graphs; its outputs, errors and signals."""

import csv
import json
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import assert_error
from graph_files import grid_edges, write_gr

nx = pytest.importorskip("networkx")

ROME = Path(__file__).resolve().parents[2] / "data" / "rome99.gr"


def digraph(n, edges):
    """A NetworkX DiGraph of 1-based DIMACS edges, parallel edges keeping the least weight."""
    g = nx.DiGraph()
    g.add_nodes_from(range(1, n + 1))
    for u, v, w in edges:
        if u == v:
            continue  # a non-negative self-loop changes no distance
        if not g.has_edge(u, v) or g[u][v]["weight"] > w:
            g.add_edge(u, v, weight=w)
    return g


def read_gr(path):
    n, edges = 0, []
    for line in path.read_text().splitlines():
        if line.startswith("p "):
            n = int(line.split()[2])
        elif line.startswith("a "):
            _, u, v, w = line.split()
            edges.append((int(u), int(v), int(w)))
    return n, edges


def metrics_json(apsp, graph, *extra):
    r = apsp("metrics", graph, "-o", "m.json", "-q", *extra)
    assert r.rc == 0, r
    out = json.loads((Path(graph).parent / "m.json").read_text())
    return out, {v: i for i, v in enumerate(out["vertices"])}


def close(a, b):
    return a == pytest.approx(b, rel=1e-9, abs=1e-12)


def test_rome99_against_networkx(apsp, tmp_path):
    graph = tmp_path / "rome99.gr"
    graph.write_bytes(ROME.read_bytes())
    m, at = metrics_json(apsp, graph)
    n, edges = read_gr(graph)
    g = digraph(n, edges)
    assert nx.is_strongly_connected(g)
    assert m["n"] == n and m["vertices"] == list(range(1, n + 1))
    assert m["reachable-pairs"] == n * (n - 1)
    # NetworkX's closeness on the whole graph takes minutes: a fixed sample of vertices, each
    # through the function itself (inward distances on a DiGraph).
    sample = [1, 2, 17, 500, 1234, 2000, 2718, 3000, 3353]
    for v in sample:
        want = nx.closeness_centrality(g, u=v, distance="weight")
        assert close(m["closeness"][at[v]], want), v
    sp = {v: nx.single_source_dijkstra_path_length(g, v, weight="weight") for v in sample}
    ecc = nx.eccentricity(g, v=sample, sp=sp)
    for v in sample:
        assert m["out-eccentricity"][at[v]] == ecc[v], v
        assert m["reach-out"][at[v]] == n - 1 and m["reach-in"][at[v]] == n - 1
    assert m["diameter"] >= max(ecc.values())
    assert m["radius"] <= min(ecc.values())


def check_against_networkx(m, at, g, directed):
    closeness = nx.closeness_centrality(g, distance="weight")
    harmonic = nx.harmonic_centrality(g, distance="weight")
    for v in g.nodes:
        assert close(m["closeness"][at[v]], closeness[v]), v
        assert close(m["harmonic"][at[v]], harmonic[v]), v
    strongly = nx.is_strongly_connected(g) if directed else nx.is_connected(g)
    sp = dict(nx.shortest_path_length(g, weight="weight"))
    if strongly:
        ecc = nx.eccentricity(g, sp=sp)
        for v in g.nodes:
            assert m["out-eccentricity"][at[v]] == ecc[v]
        assert m["diameter"] == max(ecc.values())
        assert m["radius"] == min(ecc.values())
        assert close(m["average-path-length"],
                     nx.average_shortest_path_length(g, weight="weight"))
    pairs = sum(1 for u in sp for v in sp[u] if u != v)
    assert m["reachable-pairs"] == pairs
    for v in g.nodes:
        assert m["reach-out"][at[v]] == len(sp[v]) - 1
    return strongly


def test_not_strongly_connected_against_networkx(apsp, tmp_path):
    rng = np.random.default_rng(36)
    n = 40
    edges = [(int(u), int(v), int(w)) for u, v, w in zip(
        rng.integers(1, n + 1, 90), rng.integers(1, n + 1, 90), rng.integers(0, 9, 90))]
    edges += [(n, 1, 0)]  # a zero-weight edge
    graph = write_gr(tmp_path / "g.gr", n, edges)
    g = digraph(n, edges)
    for engine in (["--algorithm", "johnson", "--block", "7"], ["--algorithm", "fw"],
                   ["--backend", "reference"]):
        m, at = metrics_json(apsp, graph, *engine)
        assert not check_against_networkx(m, at, g, directed=True)


def test_undirected_unweighted_against_networkx(apsp, tmp_path):
    g = nx.connected_watts_strogatz_graph(50, 4, 0.3, seed=7)
    path = tmp_path / "u.txt"
    path.write_text("".join(f"{u} {v} 1\n" for u, v in g.edges))
    nx.set_edge_attributes(g, 1, "weight")
    for engine in (["--algorithm", "johnson"], ["--algorithm", "fw"]):
        m, at = metrics_json(apsp, path, "--undirected", "--dtype", "float64", *engine)
        assert check_against_networkx(m, at, g, directed=False)
        assert close(m["global-efficiency"], nx.global_efficiency(g))


def test_csv_npy_and_summary(apsp, tmp_path):
    graph = write_gr(tmp_path / "g.gr", 4, [(1, 2, 2), (2, 3, 3), (3, 1, 0)])
    r = apsp("metrics", graph, "-o", "m.csv", "--metrics", "closeness,reachable", "-q")
    assert r.rc == 0, r
    rows = list(csv.reader((tmp_path / "m.csv").open()))
    assert rows[0] == ["vertex", "closeness", "reach-out", "reach-in"]
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4"]
    assert float(rows[1][1]) == pytest.approx(2 / 3 * 2 / 3)
    assert rows[4][1:] == ["0", "0", "0"]
    r = apsp("metrics", graph, "-o", "m.npy", "--metrics", "out-eccentricity,harmonic", "-q")
    assert r.rc == 0, r
    a = np.load(tmp_path / "m.npy")
    assert a.dtype == np.float64 and a.shape == (4, 2)
    assert a[:, 0].tolist() == [5, 3, 2, 0]
    r = apsp("metrics", graph, "--json")
    assert r.rc == 0, r
    j = json.loads(r.out)
    assert j["diameter"] == 5 and j["radius"] == 2 and j["reachable-pairs"] == 6
    assert j["histogram"]["counts"][:6] == [1, 0, 2, 2, 0, 1]
    r = apsp("metrics", graph)
    assert r.rc == 0 and "diameter" in r.out and "5" in r.out, r


def test_errors(apsp, tmp_path):
    graph = write_gr(tmp_path / "g.gr", 3, [(1, 2, 1), (2, 1, -2)])
    assert_error(apsp("metrics", graph, "--metrics", "closeness,betweeness"), 2,
                 "'betweeness'", "average-path-length")
    assert_error(apsp("metrics", tmp_path / "missing.gr", "-o", tmp_path / "no" / "m.csv"), 2)
    assert_error(apsp("metrics", graph, "-o", "m.txt"), 2, ".csv, .json or .npy")
    assert_error(apsp("metrics", graph), 4, "negative cycle")
    assert not list(tmp_path.glob("*.apsp-partial*")) and not (tmp_path / "m.txt").exists()


def test_solve_metrics_is_apsp_metrics(apsp, tmp_path):
    graph = write_gr(tmp_path / "g.gr", 5, [(1, 2, 2), (2, 3, 3), (3, 1, 1), (4, 5, 7)])
    for out in ("a.csv", "a.npy", "a.json"):
        r = apsp("solve", graph, "--metrics", "closeness,harmonic,histogram", "--histogram-bins",
                 "4", "--no-wf-improved", "-o", out, "-q")
        assert r.rc == 0, r
        b = "b" + out[1:]
        r = apsp("metrics", graph, "--metrics", "closeness,harmonic,histogram",
                 "--histogram-bins", "4", "--no-wf-improved", "-o", b, "-q")
        assert r.rc == 0, r
        assert (tmp_path / out).read_bytes() == (tmp_path / b).read_bytes(), out
    j = json.loads(apsp("solve", graph, "--metrics", "diameter", "--json").out)
    assert j["diameter"] == 7 and j["metrics"] == ["diameter"] and "host_matrix" in j
    for extra, option in ((["--paths", "v.npy"], "--paths"), (["--map-output"], "--map-output"),
                          (["--sources", "1"], "--sources/--targets"),
                          (["--checkpoint", "ck"], "--checkpoint")):
        assert_error(apsp("solve", graph, "--metrics", "all", "-o", "m.csv", *extra), 2, option,
                     "--metrics")
    assert not (tmp_path / "m.csv").exists() and not (tmp_path / "v.npy").exists()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_leaves_no_file(apsp_bin, tmp_path, sig):
    # A long path: Dijkstra in batches of one source, so the run is slow enough to interrupt.
    n = 40000
    graph = write_gr(tmp_path / "p.gr", n, [(v, v + 1, 1) for v in range(1, n)])
    proc = subprocess.Popen([apsp_bin, "metrics", str(graph), "-o", "m.csv", "--algorithm",
                             "johnson", "--block", "1", "--threads", "1", "--progress"],
                            cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the run finished before the signal")
    assert proc.returncode == 128 + sig, err
    assert "no output was written" in err
    assert list(tmp_path.iterdir()) == [graph]


def test_progress_names_the_hierarchy_and_counts_sources(apsp, tmp_path):
    # A 75 x 75 grid, integer weights both ways: road-shaped, past PHAST's 5,000 vertices, so
    # the metrics come from the contraction hierarchy's sweeps (--json says "phast").
    rng = np.random.default_rng(31)
    w = 75
    write_gr(tmp_path / "grid.gr", w * w, grid_edges(w, w, rng))
    r = apsp("metrics", "grid.gr", "--json", "--progress", "--metrics", "diameter")
    assert r.rc == 0, r
    s = json.loads(r.out)
    assert s["algorithm"] == "phast" and s["driver"].startswith("phast rows"), s
    # The rate the progress lines count, in the summary too: sources over the metrics' seconds.
    assert s["sources_per_second"] == pytest.approx(w * w / s["seconds"]["metrics"]), s
    lines = r.err.splitlines()
    assert lines[0] == "apsp: reading grid.gr ...", r
    assert lines[1].startswith("apsp: building the contraction hierarchy ..."), r
    counted = lines[2:]
    assert counted and all(line.startswith("apsp: sources ") for line in counted), r
    assert all("sources/s" in line and "updates/s" not in line for line in counted), r
    assert counted[-1].startswith(f"apsp: sources {w * w}/{w * w} (100%)"), r


def test_plot_draws_the_histogram_as_svg(apsp, tmp_path):
    import xml.etree.ElementTree as ET

    r = apsp("metrics", ROME, "--metrics", "diameter", "--histogram-bins", "12", "--plot",
             "h.svg", "--json")
    assert r.rc == 0, r
    hist = json.loads(r.out)["histogram"]  # computed for the picture though not asked for
    svg = ET.parse(tmp_path / "h.svg").getroot()
    ns = "{http://www.w3.org/2000/svg}"
    bars = svg.findall(f"{ns}rect")
    assert len(bars) == 12 == len(hist["counts"]), r
    # One bar per bin, in order: its hover text names the bin and its count; heights scale with
    # the counts (the tallest fills the plot).
    heights = [float(b.get("height")) for b in bars]
    for bar, lo, count in zip(bars, hist["edges"], hist["counts"]):
        assert bar.find(f"{ns}title").text.startswith(f"[{lo:.6g}, "), bar
        assert bar.find(f"{ns}title").text.endswith(f": {count}"), bar
    most = max(hist["counts"])
    for h, count in zip(heights, hist["counts"]):
        assert h == pytest.approx(max(heights) * count / most, abs=1e-3)
    title = svg.find(f"{ns}text").text
    assert f"{sum(hist['counts'])} pairs in 12 bins" in title, title
    assert_error(apsp("metrics", ROME, "--plot", "h.png"), 2, "--plot", ".svg")
