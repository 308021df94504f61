"""The schedule's communication, not its speed: under mpirun with cpu ranks, the messages and
bytes each rank sends and receives (counted in the communicator wrapper, reported in `--json`'s
rank_reports) equal what the block-cyclic layout implies, round by round, summed over the
rounds. A change that adds a broadcast, a round trip or a wait fails here, not in a benchmark.

Per round r of T (tile edge b, grid R x C, this rank at process row `row`, column `col`, holding
`ltr` tile rows and `ltc` tile columns; P = the bytes of one tile as the cpu executor ships it,
the same for every message):
  pivot tile   the owner (r % R, r % C) broadcasts it along its process row (C - 1 receivers)
               and its process column (R - 1 receivers), blocking;
  panels       process row r % R sends each rank of its process column its ltc row-panel tiles,
               process column r % C each rank of its process row its ltr column-panel tiles,
               started (non-blocking), then one wait;
  agreement    one all-rank OR (go on, save, stop), and one more after the last round.
"""

import json
import subprocess

import numpy as np
import pytest

from mpi_env import CLI, ENV, MPIEXEC, need_binary


@pytest.fixture(scope="module", autouse=True)
def binary():
    need_binary()


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    d = tmp_path_factory.mktemp("traffic")
    n = 230  # 8 tiles of 32, the last one partial
    rng = np.random.default_rng(5)
    m = 1800
    lines = [f"p sp {n} {m}"] + [f"a {u + 1} {v + 1} {w}" for u, v, w in
                                 zip(rng.integers(0, n, m), rng.integers(0, n, m),
                                     rng.integers(1, 50, m))]
    (d / "g.gr").write_text("\n".join(lines) + "\n")
    return d, n


def expected(T, R, C, row, col):
    """Messages of each kind for the rank at (row, col), and the panel bytes in units of P."""
    ltr = len([t for t in range(T) if t % R == row])
    ltc = len([t for t in range(T) if t % C == col])
    e = {k: 0 for k in ("pivot_sent", "pivot_recv", "panel_sent", "panel_recv",
                        "panel_sent_tiles", "panel_recv_tiles")}
    for r in range(T):
        pr, pc = r % R, r % C
        if row == pr:  # in the pivot's process row: its broadcast along the row
            if col == pc:
                e["pivot_sent"] += C - 1
            elif C > 1:
                e["pivot_recv"] += 1
        if col == pc:  # in the pivot's process column
            if row == pr:
                e["pivot_sent"] += R - 1
            elif R > 1:
                e["pivot_recv"] += 1
        if R > 1:  # the row panel down every process column
            if row == pr:
                e["panel_sent"] += R - 1
                e["panel_sent_tiles"] += ltc * (R - 1)
            else:
                e["panel_recv"] += 1
                e["panel_recv_tiles"] += ltc
        if C > 1:  # the column panel across every process row
            if col == pc:
                e["panel_sent"] += C - 1
                e["panel_sent_tiles"] += ltr * (C - 1)
            else:
                e["panel_recv"] += 1
                e["panel_recv_tiles"] += ltr
    return e


@pytest.mark.parametrize("ranks,grid", [(4, "2x2"), (4, "1x4"), (4, "4x1"), (2, "1x2"),
                                        (3, "3x1")])
@pytest.mark.parametrize("lookahead", ["--lookahead", "--no-lookahead"])
def test_each_rank_sends_what_the_layout_implies(graph, ranks, grid, lookahead):
    d, n = graph
    cmd = [MPIEXEC, "-np", str(ranks), "--oversubscribe", CLI, "solve", "g.gr", "--backend",
           "cpu", "--block", "32", "--grid", grid, lookahead, "--json"]
    r = subprocess.run(cmd, cwd=d, capture_output=True, text=True, timeout=300, env=ENV)
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    R, C = map(int, grid.split("x"))
    T = -(-n // 32)
    assert s["rounds"] == T
    reports = s["rank_reports"]
    assert [k["rank"] for k in reports] == list(range(ranks))
    tile_bytes = set()
    for k in reports:
        row, col = divmod(k["rank"], C)
        e = expected(T, R, C, row, col)
        t = k["traffic"]
        assert t["pivots"]["sent_messages"] == e["pivot_sent"], k
        assert t["pivots"]["received_messages"] == e["pivot_recv"], k
        assert t["panels"]["sent_messages"] == e["panel_sent"], k
        assert t["panels"]["received_messages"] == e["panel_recv"], k
        assert t["device"] == {"sent_messages": 0, "sent_bytes": 0, "received_messages": 0,
                               "received_bytes": 0}
        assert t["waits"] == T
        assert t["agreements"] == T + 1
        # Bytes: every message is whole tiles of one size P, the same on every rank.
        for kind, tiles in (("pivots", e["pivot_sent"]), ("panels", e["panel_sent_tiles"])):
            sent = t[kind]["sent_bytes"]
            assert (sent == 0) == (tiles == 0)
            if tiles:
                assert sent % tiles == 0
                tile_bytes.add(sent // tiles)
        for kind, tiles in (("pivots", e["pivot_recv"]), ("panels", e["panel_recv_tiles"])):
            got = t[kind]["received_bytes"]
            assert (got == 0) == (tiles == 0)
            if tiles:
                assert got % tiles == 0
                tile_bytes.add(got // tiles)
        # Where the time went: the three parts of a cpu rank's rounds add up to them.
        sec = k["seconds"]
        assert min(sec.values()) >= 0
        assert sec["compute"] + sec["communication"] + sec["wait"] == pytest.approx(
            sec["rounds"], rel=1e-6, abs=1e-6)
        assert k["computes_on"].startswith("cpu")
        assert k["cpus"] and k["placement"]
        assert k["busiest_threads"] and k["busiest_threads"][0]["threads"] >= 1
    assert len(tile_bytes) == 1 and min(tile_bytes) >= 32 * 32 * 4, tile_bytes
    # All messages sent are received: the sum over ranks balances.
    for kind in ("pivots", "panels"):
        sent = sum(k["traffic"][kind]["sent_bytes"] for k in reports)
        got = sum(k["traffic"][kind]["received_bytes"] for k in reports)
        assert sent == got
    assert 0 <= s["slowest_rank"] < ranks


def test_rank_cpus_launcher_keeps_the_launchers_placement(graph):
    d, _ = graph
    cmd = [MPIEXEC, "-np", "2", "--oversubscribe", CLI, "solve", "g.gr", "--backend", "cpu",
           "--rank-cpus", "launcher", "--json"]
    r = subprocess.run(cmd, cwd=d, capture_output=True, text=True, timeout=300, env=ENV)
    assert r.returncode == 0, r.stderr
    for k in json.loads(r.stdout)["rank_reports"]:
        assert "as the launcher set them" in k["placement"], k["placement"]
    bad = subprocess.run(cmd[:-3] + ["--rank-cpus", "sideways"], cwd=d, capture_output=True,
                         text=True, timeout=300, env=ENV)
    assert bad.returncode != 0
