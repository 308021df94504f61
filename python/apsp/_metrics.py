"""apsp.metrics: per-vertex centralities and whole-graph summaries of the all-pairs distances,
computed by apsp::compute_metrics without keeping the n x n matrix (docs/metrics.md)."""

from . import _core, _inputs, _networkx, _progress

# Per-vertex entries of the result, and the metric (docs/metrics.md's name) that fills each.
PER_VERTEX = {"out_eccentricity": "out-eccentricity", "in_eccentricity": "in-eccentricity",
              "closeness": "closeness", "harmonic": "harmonic", "reach_out": "reachable",
              "reach_in": "reachable"}
METRIC_NAMES = ("out-eccentricity", "in-eccentricity", "closeness", "harmonic", "reachable",
                "diameter", "radius", "average-path-length", "global-efficiency",
                "reachable-pairs", "histogram")


class Metrics(dict):
    """The result of :func:`apsp.metrics`: a dict whose entries are also attributes
    (``m.closeness`` is ``m["closeness"]``).

    Per vertex (NumPy arrays indexed by vertex; for a NetworkX graph, dicts keyed by node):
    ``out_eccentricity``, ``in_eccentricity``, ``closeness``, ``harmonic``, ``reach_out``,
    ``reach_in``. Whole graph: ``diameter``, ``radius``, ``average_path_length``,
    ``global_efficiency``, ``reachable_pairs``, ``histogram_edges`` (bins + 1 floats),
    ``histogram_counts``, ``histogram_width``, ``histogram_negative``. Entries of metrics not
    asked for are None. About the run: ``n``, ``metrics`` (the names computed), ``dtype``,
    ``backend``, ``device``, ``driver`` (``"johnson rows, ..."`` for Dijkstra in batches,
    ``"phast rows ..."`` for contraction hierarchy sweeps, never an n x n matrix), ``algorithm``, ``algorithm_reason``, ``seconds``, ``nodes`` (a NetworkX
    graph's nodes in vertex order, else None).
    """

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        shown = ", ".join(f"{k}={self[k]!r}" for k in ("n", "diameter", "radius",
                                                        "average_path_length", "driver")
                          if self.get(k) is not None)
        return f"<apsp.Metrics {shown}>"


def metric_list(metrics):
    """None -> 'all'; a name or a list of names (docs/metrics.md's, '_' or '-' alike, or the
    per-vertex entries such as 'reach_out') -> the comma-separated list the core parses."""
    if metrics is None:
        return "all"
    if isinstance(metrics, str):
        metrics = [metrics]
    try:
        items = list(metrics)
    except TypeError:
        raise TypeError("metrics must be None, a metric name or a list of names") from None
    names = []
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"metric names are strings, not {type(item).__name__} {item!r}")
        name = PER_VERTEX.get(item, item.replace("_", "-"))
        if name not in METRIC_NAMES and name != "all":
            raise ValueError(f"unknown metric {item!r}; expected some of {', '.join(METRIC_NAMES)}"
                             " (or 'all')")
        names.append(name)
    if not names:
        raise ValueError("metrics names no metric; None means all")
    return ",".join(names)


def metrics(graph, *, directed=True, unweighted=False, metrics=None, wf_improved=True,
            histogram_bins=32, backend="auto", algorithm="auto", threads=0, dtype=None,
            progress=None, weight="weight"):
    """Centralities and summaries of all shortest distances, without the n x n matrix.

    Takes what :func:`apsp.floyd_warshall` takes (dense or masked NumPy arrays, SciPy sparse
    matrices, :class:`apsp.Graph`, NetworkX graphs, with the same "no edge" rules and
    ``directed``, ``unweighted``, ``weight``). A graph is solved by Dijkstra from every source
    in batches, each row reduced and dropped (memory O(m + n x threads)), or by the plan
    apsp.solve would run, solved in RAM, reduced and freed, as apsp::compute_metrics decides
    (docs/metrics.md); a dense array is solved in place of its initial matrix.

    metrics : None (all), or names from docs/metrics.md: 'out-eccentricity',
        'in-eccentricity', 'closeness', 'harmonic', 'reachable' (reach_out and reach_in),
        'diameter', 'radius', 'average-path-length', 'global-efficiency', 'reachable-pairs',
        'histogram' ('_' for '-' works too).
    wf_improved : NetworkX's closeness scaling by the share of the graph that reaches v.
    histogram_bins : bins of the distance histogram (>= 1).
    backend, algorithm, threads, dtype, progress : as in :func:`apsp.solve` (progress comes
        after each batch of sources or each Floyd-Warshall round).

    Values are over the pairs that are reachable: unlike NetworkX's functions of the same name
    (:func:`apsp.eccentricity` and the others), nothing is refused for a graph that is not
    strongly connected. Returns a :class:`apsp.Metrics`.
    """
    csgraph, directed, nodes = _networkx.prepare(graph, weight, directed)
    bins = _inputs._as_int(histogram_bins)
    if bins is None or bins < 1:
        raise ValueError(f"histogram_bins must be a whole number >= 1, not {histogram_bins!r}")
    kwargs = dict(directed=bool(directed), unweighted=bool(unweighted),
                  which=metric_list(metrics), wf_improved=bool(wf_improved),
                  histogram_bins=bins, dtype=_inputs.normalize_dtype(dtype),
                  backend=_inputs.normalize_backend(backend),
                  algorithm=_inputs.normalize_algorithm(algorithm),
                  threads=_inputs.normalize_threads(threads))
    kind, g = _inputs.classify(csgraph)
    with _progress.callback_for(progress) as callback:
        if kind == "graph":
            out = _core.metrics_graph(g, **kwargs, progress=callback)
        elif kind == "edges":
            out = _core.metrics_edges(g.n, g.rows, g.cols, g.weights, **kwargs,
                                      progress=callback)
        else:
            out = _core.metrics_dense(*g, **kwargs, progress=callback)
    out["nodes"] = nodes
    if nodes is not None:
        for key in PER_VERTEX:
            if out[key] is not None:
                out[key] = dict(zip(nodes, out[key].tolist()))
    return Metrics(out)
