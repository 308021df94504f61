"""`apsp solve G.csv --sources S --targets T --second-weight length --second-output L.npy`: the
table of the weights and, along the same paths, the sums of a second column, against a
lexicographic Bellman-Ford in Python with the same tie rule (of the paths of least weight, the least
second sum); refusals (other formats, missing column, a lone option, --hierarchy, float dtype)."""

import json

import numpy as np

from conftest import assert_error

INT32_INF = 1073741823


def reference(n, edges, source):
    """{vertex: (weight, length)} from `source` by Bellman-Ford on (weight, length) pairs
    compared lexicographically, lengths summed from the source (0-based edges)."""
    best = {source: (0, 0.0)}
    for _ in range(n):
        changed = False
        for u, v, w, length in edges:
            if u in best and u != v:
                cand = (best[u][0] + w, best[u][1] + length)
                if v not in best or cand < best[v]:
                    best[v], changed = cand, True
        if not changed:
            return best
    return best


def road_csv(path, side, seed):
    """A side x side grid, both ways, travel times 1..4 (many ties), lengths with decimals."""
    rng = np.random.default_rng(seed)
    edges = []
    for r in range(side):
        for c in range(side):
            v = r * side + c
            for u in ([v + 1] if c + 1 < side else []) + ([v + side] if r + 1 < side else []):
                for a, b in ((v, u), (u, v)):
                    edges.append((a, b, int(rng.integers(1, 5)),
                                  round(float(rng.uniform(5, 90)), 2)))
    lines = ["u,v,length,travel_time"] + [f"n{a},n{b},{ln},{w}" for a, b, w, ln in edges]
    path.write_text("\n".join(lines) + "\n")
    return edges


def test_times_and_lengths_along_the_same_paths(apsp, tmp_path):
    side = 9
    edges = road_csv(tmp_path / "roads.csv", side, 3)
    sources, targets = ["n0", "n40", "n7", "n0"], ["n80", "n0", "n13"]
    r = apsp("solve", "roads.csv", "--weight-column", "travel_time", "--sources",
             ",".join(sources), "--targets", ",".join(targets), "--second-weight", "length",
             "--second-output", "len.npy", "-o", "time.npy", "--json")
    assert r.rc == 0, r
    report = json.loads(r.out)
    assert report["second_weight"] == "length" and report["second_output"] == "len.npy"
    time, length = np.load(tmp_path / "time.npy"), np.load(tmp_path / "len.npy")
    assert time.shape == length.shape == (4, 3) and length.dtype == np.float64
    for i, s in enumerate(sources):
        best = reference(side * side, edges, int(s[1:]))
        for j, t in enumerate(targets):
            d, total = best[int(t[1:])]
            assert time[i, j] == d and length[i, j] == total, (s, t)


def test_csv_output_and_unreachable(apsp, tmp_path):
    (tmp_path / "g.csv").write_text("source,target,weight,length\na,b,2,10.5\nb,c,2,1\na,c,4,3\n"
                                    "d,a,1,1\n")
    r = apsp("solve", "g.csv", "--sources", "a,c", "--targets", "c,d", "--second-weight",
             "length", "--second-output", "len.csv", "-o", "t.npy", "-q")
    assert r.rc == 0, r
    assert np.load(tmp_path / "t.npy").tolist() == [[4, INT32_INF], [0, INT32_INF]]
    lines = (tmp_path / "len.csv").read_text().splitlines()
    assert lines[0] == ",c,d" and lines[1].startswith("a,3,") and lines[2].startswith("c,0,")


def test_refusals(apsp, tmp_path):
    (tmp_path / "g.csv").write_text("source,target,weight,length\na,b,2,10\n")
    (tmp_path / "g.gr").write_text("p sp 2 1\na 1 2 3\n")
    ask = ["--sources", "a", "--targets", "b"]
    assert_error(apsp("solve", "g.csv", *ask, "--second-weight", "length"), 2,
                 "--second-output")
    assert_error(apsp("solve", "g.csv", *ask, "--second-weight", "lenght", "--second-output",
                      "l.npy"), 3, "lenght")
    assert_error(apsp("solve", "g.gr", "--sources", "1", "--second-weight", "length",
                      "--second-output", "l.npy"), 3, "one weight per edge")
    assert_error(apsp("solve", "g.csv", *ask, "--second-weight", "length", "--second-output",
                      "l.npy", "--dtype", "float64"), 2, "integer")
    assert_error(apsp("solve", "g.csv", *ask, "--second-weight", "length", "--second-output",
                      "l.bin"), 2, ".npy or .csv")
    (tmp_path / "neg.csv").write_text("source,target,weight,length\na,b,2,-1\n")
    assert_error(apsp("solve", "neg.csv", *ask, "--second-weight", "length", "--second-output",
                      "l.npy"), 3, ">= 0")
    assert not (tmp_path / "l.npy").exists()
