"""apsp.dijkstra(indices=...) (and johnson, bellman_ford) run the engine the core planner chooses
for |S| sources and every vertex as target, the one `apsp solve --sources` runs: Dijkstra from
the sources, a contraction hierarchy's table or the whole matrix; with predecessors always
Dijkstra from the sources (their tie rule). The results stay SciPy's."""

import json
import os
import subprocess

import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.csgraph as csg

import apsp
from conftest import random_dense


def cli_driver(tmp_path, dense, sources):
    """The driver `apsp solve --sources` names in --json for this graph (DIMACS, 1-based)."""
    tool = os.path.join(os.path.dirname(apsp.__file__), "bin", "apsp")
    if not os.access(tool, os.X_OK):
        pytest.skip("the package has no apsp tool beside it")
    rows, cols = np.nonzero(dense)
    path = tmp_path / "g.gr"
    lines = [f"p sp {dense.shape[0]} {rows.size}"]
    lines += [f"a {u + 1} {v + 1} {int(dense[u, v])}" for u, v in zip(rows, cols)]
    path.write_text("\n".join(lines) + "\n")
    r = subprocess.run([tool, "solve", str(path), "--sources", ",".join(str(s + 1) for s in sources),
                        "--json"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["driver"]


def test_many_sources_of_a_dense_graph_take_the_planners_whole_matrix(tmp_path):
    dense = random_dense(300, 0.5, 401)
    sources = list(range(0, 300, 2))
    dist, engine = apsp.dijkstra(dense, indices=sources, return_engine=True)
    # The planner's choice, as the command line makes it, and as apsp.table gets it.
    assert engine == cli_driver(tmp_path, dense, sources)
    assert engine == apsp.table(dense, sources, range(300), return_engine=True)[1]
    assert not engine.startswith("dijkstra"), engine  # the whole matrix is sooner here
    np.testing.assert_array_equal(dist, csg.dijkstra(dense, indices=sources))
    csr = scipy.sparse.csr_matrix(dense)
    dist, same = apsp.johnson(csr, indices=sources, return_engine=True)
    assert same == engine
    np.testing.assert_array_equal(dist, csg.johnson(csr, indices=sources))


def test_few_sources_are_dijkstra_from_the_sources(tmp_path):
    dense = random_dense(300, 0.02, 402)
    dist, engine = apsp.dijkstra(scipy.sparse.csr_matrix(dense), indices=[5, 9],
                                 return_engine=True)
    assert engine.startswith("dijkstra from the sources"), engine
    assert engine == cli_driver(tmp_path, dense, [5, 9])
    np.testing.assert_array_equal(dist, csg.dijkstra(dense, indices=[5, 9]))


def test_predecessors_keep_dijkstra_from_the_sources_and_scipys_answer():
    # Where the distances alone take the whole matrix, predecessors still come from Dijkstra's
    # trees (docs/semantics.md), and they are valid shortest-path trees.
    dense = random_dense(300, 0.5, 403)
    sources = list(range(0, 300, 2))
    assert not apsp.dijkstra(dense, indices=sources, return_engine=True)[1].startswith("dijkstra")
    dist, pred, engine = apsp.dijkstra(dense, indices=sources, return_predecessors=True,
                                       return_engine=True)
    assert engine.startswith("dijkstra from the sources"), engine
    expected = csg.dijkstra(dense, indices=sources)
    np.testing.assert_array_equal(dist, expected)
    for r, s in enumerate(sources):
        for t in range(300):
            if t == s or not np.isfinite(dist[r, t]):
                assert pred[r, t] == apsp.NO_PREDECESSOR
                continue
            p = pred[r, t]
            assert dense[p, t] != 0 and dist[r, p] + dense[p, t] == dist[r, t], (s, t)


def test_a_negative_cycle_no_source_reaches_does_not_refuse_dijkstra():
    # SciPy's dijkstra and bellman_ford count a negative cycle only where a source reaches it;
    # the table and the whole matrix refuse any, so the rows then come from Dijkstra.
    dense = random_dense(300, 0.5, 404)
    dense[:, 298:] = 0
    dense[298, 299], dense[299, 298] = -5, 1  # a negative cycle nothing else reaches
    sources = list(range(0, 296, 2))
    with pytest.raises(apsp.NegativeCycleError):
        apsp.johnson(dense, indices=sources)
    dist, engine = apsp.bellman_ford(dense, indices=sources, return_engine=True)
    assert engine.startswith("dijkstra from the sources (a negative cycle refused "), engine
    np.testing.assert_array_equal(dist, _reference_rows(dense, sources))


def _reference_rows(dense, sources):
    """SciPy's rows on the graph without the unreachable cycle (vertices 298, 299 unreached)."""
    inner = csg.dijkstra(dense[:298, :298], indices=sources)
    return np.hstack([inner, np.full((len(sources), 2), np.inf)])
