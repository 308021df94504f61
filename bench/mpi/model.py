#!/usr/bin/python3
"""Performance model of the distributed (MPI) blocked Floyd-Warshall schedule.

Schedule (2D block-cyclic over a Pr x Pc process grid, block b, R = ceil(n / b) rounds), per round:
  1. the owner of diagonal block (r, r) closes it (plain blocked FW on one GPU);
  2. it broadcasts the b x b pivot block along its process row and its process column;
  3. the ranks of the pivot block row update their (r, q) blocks, those of the pivot block column
     their (p, r) blocks (min-plus products of depth b);
  4. the pivot-row pieces (b x n/Pc) are broadcast down every process column, the pivot-column
     pieces (n/Pr x b) across every process row;
  5. every rank updates its (n/Pr) x (n/Pc) local blocks: a min-plus product of depth b.
Without look-ahead the round is the sum of 1-5. With look-ahead (depth 1, as in HPL) the next
round's strip, pivot and panels are computed first and their broadcasts overlap step 5.
docs/distributed_model.md states every assumption; the numbers below are those assumptions.

Use from other scripts:
    from model import predict, H100, H200, CLUSTERS
    r = predict(80000, 2, 512, (1, 2), CLUSTERS["2xH200-nvlink"], True, None, gpu=H200)
    r["seconds"], r["rate"], r["fits"]

Command line (/usr/bin/python3, standard library only; matplotlib only for --plot):
    bench/mpi/model.py                      # calibration, the 2x H200 predictions, a summary
    bench/mpi/model.py --markdown           # the tables of docs/distributed_model.md
    bench/mpi/model.py --csv F --plot G     # every predicted row as CSV, the two-panel figure
"""
import argparse
import csv
import math
import os
import subprocess
import sys

# --------------------------------------------------------------------------------------------
# Measured anchors (bench/results/cuda_2026-11-22.csv and cuda_paths_2026-11-22.csv): one H100,
# int32 distances, `apsp_bench_cuda` kernels only (all rounds of the in-core blocked FW with
# B = 128 tiles, matrix resident on the GPU), seconds for n^3 updates.
H100_ANCHORS = [  # (n, seconds, commit)
    (10000, 0.083961, "38b686a"),  # 11.9e12 updates/s
    (20000, 0.584305, "38b686a"),  # 13.7e12
    (40000, 4.41147, "6e7bdcf"),   # 14.5e12
]
# Multi-GPU measurements of the existing single-process solver (tile rows split, B = 128,
# pivot row pulled over NVLink, no look-ahead), whole solve incl. copies in and out:
H200_MULTI_MEASURED = [  # (n, one H200 s, two H200 s, source)
    (40000, 4.815, 2.787, "cuda_multi_2026-11-22.csv, 6e643ba"),
    (80000, 36.54, 19.06, "cuda_multi_2026-11-22.csv, 35b110f"),
    (140000, None, 98.155, "cuda_multi_2026-11-22.csv, 6e643ba (CLI solve stage)"),
]

TILE = 128          # output tile of the min-plus kernel (128 x 128, 256 threads)
KSLICE = 128        # depth one pass of the kernel streams per tile row of the pivot panel
ELEM = 4            # int32 bytes
LAUNCH = 4e-6       # seconds between dependent kernels on one stream (assumption)


class GPU:
    """Compute model of one GPU running apsp's min-plus kernel.

    A kernel over a rows x cols output with depth k runs ceil(tiles / slots) waves of 128 x 128
    tiles (slots = SMs x resident blocks per SM, 132 x 2 on H100/H200); a wave of depth 128 takes
    t_wave = 128^3 * slots / r_inf whether it is full or not; each kernel adds LAUNCH.
    Closing a b x b pivot block: b/128 sub-rounds of the single-GPU code (pivot kernel c_piv,
    then a panel kernel and a product kernel, one wave each).
    r_inf and c_piv are fitted to the single-GPU anchors (fit_gpu).
    """

    def __init__(self, name, sms, blocks_per_sm, r_inf, c_piv, mem_bytes):
        self.name = name
        self.slots = sms * blocks_per_sm
        self.r_inf = r_inf
        self.c_piv = c_piv
        self.mem_bytes = mem_bytes

    @property
    def t_wave(self):
        return TILE ** 3 * self.slots / self.r_inf

    def kernel_seconds(self, rows, cols, depth):
        if rows <= 0 or cols <= 0 or depth <= 0:
            return 0.0
        tiles = math.ceil(rows / TILE) * math.ceil(cols / TILE)
        waves = math.ceil(tiles / self.slots)
        return LAUNCH + waves * math.ceil(depth / KSLICE) * self.t_wave

    def rate(self, rows, cols, depth):
        """Default rate_fn: updates/s of one local min-plus product rows x cols x depth."""
        return rows * cols * depth / self.kernel_seconds(rows, cols, depth)

    def pivot_seconds(self, b):
        """Close a b x b diagonal block on one GPU (step 1)."""
        sub = math.ceil(b / TILE)
        if sub <= 1:
            return self.c_piv
        return sub * (self.c_piv + 2 * (LAUNCH + self.t_wave))


def single_gpu_round_seconds(gpu, n):
    """One round of apsp's own in-core solver (B = 128): pivot, both panels (one launch),
    the (T-1)^2 other tiles. Used for the calibration and as the one-GPU baseline."""
    t = math.ceil(n / TILE)
    panel = LAUNCH + math.ceil(2 * (t - 1) / gpu.slots) * gpu.t_wave
    bulk = LAUNCH + math.ceil((t - 1) ** 2 / gpu.slots) * gpu.t_wave
    return gpu.c_piv + panel + bulk


def fit_gpu(name, anchors, sms=132, blocks_per_sm=2, mem_bytes=80e9):
    """Least squares (relative errors) for c_piv and 1/r_inf: per round the single-GPU time is
    c_piv + waves * TILE^3 * slots / r_inf + 2 LAUNCH, linear in both unknowns."""
    slots = sms * blocks_per_sm
    rows = []
    for n, sec, _ in anchors:
        t = math.ceil(n / TILE)
        waves = math.ceil(2 * (t - 1) / slots) + math.ceil((t - 1) ** 2 / slots)
        a1 = t                                # coefficient of c_piv
        a2 = t * waves * TILE ** 3 * slots    # coefficient of 1/r_inf
        c = sec - t * 2 * LAUNCH
        rows.append((a1 / sec, a2 / sec, c / sec))
    s11 = sum(r[0] * r[0] for r in rows)
    s12 = sum(r[0] * r[1] for r in rows)
    s22 = sum(r[1] * r[1] for r in rows)
    y1 = sum(r[0] * r[2] for r in rows)
    y2 = sum(r[1] * r[2] for r in rows)
    det = s11 * s22 - s12 * s12
    c_piv = (y1 * s22 - y2 * s12) / det
    inv_r = (s11 * y2 - s12 * y1) / det
    return GPU(name, sms, blocks_per_sm, 1.0 / inv_r, c_piv, mem_bytes)


H100 = fit_gpu("H100 SXM 80 GB", H100_ANCHORS, mem_bytes=80e9)
# H200: same GH100 die (132 SMs, same clocks, DPX) -> same compute model; 141 GB of memory.
H200 = GPU("H200 141 GB", 132, 2, H100.r_inf, H100.c_piv, 141e9)


# --------------------------------------------------------------------------------------------
# Links and collectives.
class Link:
    def __init__(self, name, alpha, bytes_per_s):
        self.name = name
        self.alpha = alpha
        self.beta = 1.0 / bytes_per_s


class Cluster:
    """gpus_per_node GPUs on NVLink (intra), one NIC per GPU to the fabric (inter)."""

    def __init__(self, name, gpus_per_node, intra, inter):
        self.name = name
        self.g = gpus_per_node
        self.intra = intra
        self.inter = inter


NVLINK4 = Link("NVLink 4 (450 GB/s per direction per GPU)", 3e-6, 450e9)
IB_NDR = Link("InfiniBand NDR (400 Gb/s per GPU)", 4e-6, 50e9)
IB_HDR = Link("InfiniBand HDR (200 Gb/s per GPU)", 4e-6, 25e9)

CLUSTERS = {
    "8xNVL+NDR": Cluster("8 GPUs/node, NVLink 4 + NDR 400 Gb/s per GPU", 8, NVLINK4, IB_NDR),
    "8xNVL+HDR": Cluster("8 GPUs/node, NVLink 4 + HDR 200 Gb/s per GPU", 8, NVLINK4, IB_HDR),
    "4xNVL+NDR": Cluster("4 GPUs/node, NVLink 4 + NDR 400 Gb/s per GPU", 4, NVLINK4, IB_NDR),
    "4xNVL+HDR": Cluster("4 GPUs/node, NVLink 4 + HDR 200 Gb/s per GPU", 4, NVLINK4, IB_HDR),
    "2xH200-nvlink": Cluster("2x H200 in one node, NVLink 4", 2, NVLINK4, IB_NDR),
    "4xH200-nvlink": Cluster("4x H200 in one node, NVLink 4", 4, NVLINK4, IB_NDR),
}


def bcast_seconds(p, nbytes, link):
    """Broadcast of nbytes to p ranks over one kind of link: the best of
    binomial tree       ceil(log2 p) (alpha + m beta),
    van de Geijn        (ceil(log2 p) + p - 1) alpha + 2 (p-1)/p m beta  (scatter + ring allgather),
    pipelined chain     (p - 2 + s) (alpha + m beta / s), best whole s >= 1 segments."""
    if p <= 1 or nbytes <= 0:
        return 0.0
    a, mb = link.alpha, nbytes * link.beta
    lg = math.ceil(math.log2(p))
    binomial = lg * (a + mb)
    vdg = (lg + p - 1) * a + 2.0 * (p - 1) / p * mb
    s_opt = max(1.0, math.sqrt(max(p - 2, 0) * mb / a)) if a > 0 else 1.0
    chain = min((p - 2 + s) * (a + mb / s) for s in {max(1, math.floor(s_opt)), math.ceil(s_opt)})
    return min(binomial, vdg, chain)


def allgather_seconds(p, nbytes, link):
    """Ring allgather of a total of nbytes (nbytes / p from each rank)."""
    if p <= 1:
        return 0.0
    return (p - 1) * (link.alpha + nbytes / p * link.beta)


def comm_bcast(p, ranks_per_node, nbytes, cluster):
    """Broadcast in a communicator of p ranks, ranks_per_node of them in each node it spans.
    One node: over NVLink. Several: two levels, the j ranks of a node each send 1/j of the
    message over their own NIC to their peers in the other nodes (rail-parallel broadcast among
    k = p / j nodes), then a ring allgather inside each node over NVLink.
    Returns (seconds, bottleneck link kind)."""
    if p <= 1:
        return 0.0, None
    j = min(ranks_per_node, p)
    k = math.ceil(p / j)
    if k == 1:
        return bcast_seconds(p, nbytes, cluster.intra), "intra"
    t = bcast_seconds(k, nbytes / j, cluster.inter) + allgather_seconds(j, nbytes, cluster.intra)
    return t, "inter"


def concurrent(a, b):
    """Two broadcasts a rank takes part in at once: they share the link (sum) when both are
    limited by the same kind of link, else they overlap (max)."""
    (ta, ka), (tb, kb) = a, b
    if ka is None or kb is None or ka != kb:
        return max(ta, tb)
    return ta + tb


def default_grid(p):
    """Pr x Pc, as square as possible, Pr <= Pc."""
    pr = int(math.isqrt(p))
    while p % pr:
        pr -= 1
    return pr, p // pr


def node_grid(pr, pc, g):
    """The gr x gc piece of the process grid that one node holds (ranks placed so that a node
    holds a sub-grid, as square as possible with gc >= gr); all of it when P <= g."""
    if pr * pc <= g:
        return pr, pc
    best = None
    for gr in range(1, g + 1):
        if g % gr:
            continue
        gc = g // gr
        if gr > pr or gc > pc or pr % gr or pc % gc:
            continue
        key = (abs(math.log(gc / gr)), gr > gc)
        if best is None or key < best[0]:
            best = (key, gr, gc)
    if best is None:  # grid not divisible by a node: fall back to whole process rows
        return 1, min(pc, g)
    return best[1], best[2]


# --------------------------------------------------------------------------------------------
def predict(n, P, b, grid=None, link=None, lookahead=True, rate_fn=None, gpu=None,
            pivot_corun=False):
    """Predicted solve time of the distributed schedule (matrix resident on the GPUs; the
    initial scatter and the final gather of the matrix are not counted).

    n: vertices; P: ranks (one GPU each); b: distribution block; grid: (Pr, Pc) or None for the
    squarest; link: a Cluster (CLUSTERS[...]); lookahead: depth-1 look-ahead or none;
    rate_fn(rows, cols, depth) -> updates/s of a local min-plus product (default: the GPU
    model's); gpu: GPU (default H100); pivot_corun: with look-ahead, the pivot kernel (one
    thread block) runs beside the bulk product on a high-priority stream instead of taking the
    owner's GPU for t_pivot (default False: it takes the GPU).
    Returns a dict: seconds, rate (n^3 / seconds), per-round parts (seconds), bytes_per_gpu,
    fits (bool), and the inputs."""
    gpu = gpu or H100
    link = link or CLUSTERS["8xNVL+NDR"]
    pr, pc = grid or default_grid(P)
    if pr * pc != P:
        raise ValueError("grid %r does not have %d ranks" % ((pr, pc), P))
    if rate_fn is None:
        def kernel(r, c, k):
            return gpu.kernel_seconds(r, c, k)
    else:
        def kernel(r, c, k):
            return r * c * k / rate_fn(r, c, k) if r > 0 and c > 0 and k > 0 else 0.0

    rounds = math.ceil(n / b)
    loc_rows = math.ceil(rounds / pr) * b   # the most loaded rank (block-cyclic)
    loc_cols = math.ceil(rounds / pc) * b
    gr, gc = node_grid(pr, pc, link.g)

    t1 = gpu.pivot_seconds(b)
    # step 2: pivot block along the owner's process row (pc ranks) and column (pr ranks)
    t2 = concurrent(comm_bcast(pc, gc, ELEM * b * b, link), comm_bcast(pr, gr, ELEM * b * b, link))
    # step 3: the pivot owner updates its pieces of the pivot row and the pivot column
    t3 = kernel(b, loc_cols, b) + kernel(loc_rows, b, b)
    # step 4: row pieces down the process columns, column pieces across the process rows
    t4 = concurrent(comm_bcast(pr, gr, ELEM * b * loc_cols, link),
                    comm_bcast(pc, gc, ELEM * loc_rows * b, link))
    # step 5, per kind of rank (the pivot row and column pieces were done in step 3):
    t3_row, t3_col = kernel(b, loc_cols, b), kernel(loc_rows, b, b)
    pivot_busy = t1 / gpu.slots if (lookahead and pivot_corun) else t1
    owner = pivot_busy + t3 + kernel(loc_rows - b, loc_cols - b, b)   # holds (r, r)
    kinds = {"owner": (owner, kernel(loc_rows - b, loc_cols - b, b))}
    if pc > 1:  # in the pivot process row only
        bulk = kernel(loc_rows - b, loc_cols, b)
        kinds["row"] = (t3_row + bulk, bulk)
    if pr > 1:  # in the pivot process column only
        bulk = kernel(loc_rows, loc_cols - b, b)
        kinds["col"] = (t3_col + bulk, bulk)
    if pr > 1 and pc > 1:  # neither
        kinds["other"] = (kernel(loc_rows, loc_cols, b), kernel(loc_rows, loc_cols, b))
    t5 = max(k[1] for k in kinds.values())      # the largest bulk update
    chain = t1 + t2 + t3 + t4
    if lookahead:
        # Round r's update of round r+1's diagonal block goes first; the rest of round r+1's
        # block row and column (at most the size of step 3) is updated while that pivot is
        # closed and broadcast; then steps 3 and 4 of round r+1, all beside round r's bulk.
        chain_next = kernel(b, b, b) + max(t1 + t2, t3) + t3 + t4
        busy = max(k[0] for k in kinds.values())  # GPU time of the busiest rank in a round
        per_round = max(busy, chain_next)
        seconds = chain + rounds * per_round  # the first round's chain is not hidden
    else:
        per_round = chain + t5
        seconds = rounds * per_round
    panels = ELEM * (b * loc_cols + loc_rows * b) * (2 if lookahead else 1)
    bytes_per_gpu = ELEM * loc_rows * loc_cols + panels + 2 * ELEM * b * b
    return {
        "n": n, "P": P, "b": b, "grid": (pr, pc), "node_grid": (gr, gc), "lookahead": lookahead,
        "cluster": link.name, "gpu": gpu.name, "rounds": rounds,
        "local": (loc_rows, loc_cols),
        "t_pivot": t1, "t_pivot_bcast": t2, "t_panels": t3, "t_panel_bcast": t4, "t_bulk": t5,
        "per_round": per_round, "seconds": seconds, "rate": n ** 3 / seconds,
        "comm_fraction": (t2 + t4) / per_round,
        "bytes_per_gpu": bytes_per_gpu, "fits": bytes_per_gpu <= gpu.mem_bytes,
    }


def single_gpu_seconds(n, gpu=None):
    """apsp's own one-GPU solver (B = 128, all rounds, memory not checked): the baseline that
    parallel efficiency is measured against."""
    gpu = gpu or H100
    return math.ceil(n / TILE) * single_gpu_round_seconds(gpu, n)


BLOCKS = (256, 384, 512, 768, 1024)


def best(n, P, cluster, lookahead, gpu=None, blocks=BLOCKS, **kw):
    """The fastest b of `blocks` (b no larger than a rank's share of a dimension)."""
    pr, pc = default_grid(P)
    cands = [b for b in blocks if b <= max(TILE, n / max(pr, pc))] or [min(blocks)]
    rs = [predict(n, P, b, (pr, pc), cluster, lookahead, None, gpu, **kw) for b in cands]
    return min(rs, key=lambda r: r["seconds"])


def efficiency(r, n_single=None, gpu=None):
    """Rate over P times the one-GPU rate (apsp's solver) at n_single (default: r's n)."""
    ns = n_single or r["n"]
    one = ns ** 3 / single_gpu_seconds(ns, gpu)
    return r["rate"] / (r["P"] * one)


# --------------------------------------------------------------------------------------------
STRONG_N = (100000, 200000, 500000, 1000000, 2000000)
STRONG_P = tuple(2 ** i for i in range(13))        # 1 .. 4096
WEAK_M = (20000, 50000, 100000)                    # n / sqrt(P): local matrix m x m per GPU
WEAK_P = tuple(4 ** i for i in range(7))           # 1 .. 4096 (square grids)
CHECK = [(80000, 512), (80000, 1024), (140000, 512), (140000, 1024)]


def check_rows():
    """Predictions for the MPI solver on 2x H200 (one node, NVLink), 2 ranks, grid 1 x 2."""
    out = []
    for n, b in CHECK:
        for la in (False, True):
            r = predict(n, 2, b, (1, 2), CLUSTERS["2xH200-nvlink"], la, None, gpu=H200)
            out.append(r)
    return out


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, cwd=os.path.dirname(os.path.abspath(__file__)),
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def fmt_t(s):
    if s >= 100:
        return "%.0f" % s
    if s >= 10:
        return "%.1f" % s
    return "%.2f" % s if s >= 1 else "%.3f" % s


def fmt_r(x):
    return "%.3ge12" % (x / 1e12) if x < 1e15 else "%.3ge15" % (x / 1e15)


def print_calibration():
    g = H100
    print("GPU model fitted to the H100 anchors: r_inf = %.3ge12 updates/s, c_piv = %.0f us per "
          "128-pivot sub-round, wave of depth 128 = %.1f us (%d slots)"
          % (g.r_inf / 1e12, g.c_piv * 1e6, g.t_wave * 1e6, g.slots))
    for n, sec, commit in H100_ANCHORS:
        m = single_gpu_seconds(n)
        print("  n = %6d  measured %.4f s (%.2fe12/s, %s)  model %.4f s (%+.1f %%)"
              % (n, sec, n ** 3 / sec / 1e12, commit, m, 100 * (m / sec - 1)))
    print("Existing single-process solver on 2x H200 (B = 128, rows split, no look-ahead) "
          "against the model's rounds (measured times include the matrix copies in and out):")
    for n, one, two, src in H200_MULTI_MEASURED:
        m1 = single_gpu_seconds(n, H200)
        m2 = predict(n, 2, 128, (2, 1), CLUSTERS["2xH200-nvlink"], False, None, gpu=H200)
        print("  n = %6d  one: measured %s s, model %.2f s;  two: measured %.2f s, model %.2f s"
              "  [%s]" % (n, "%.2f" % one if one else "-", m1, two, m2["seconds"], src))


def print_check():
    print("Predictions for the MPI solver, 2 ranks on 2x H200 (NVLink, grid 1 x 2):")
    print("  %7s %5s %10s %9s %12s %6s %8s" % ("n", "b", "lookahead", "seconds", "updates/s",
                                               "eff", "comm %"))
    for r in check_rows():
        print("  %7d %5d %10s %9.2f %12s %5.0f%% %7.1f%%"
              % (r["n"], r["b"], "yes" if r["lookahead"] else "no", r["seconds"],
                 fmt_r(r["rate"]), 100 * efficiency(r, gpu=H200), 100 * r["comm_fraction"]))


def strong_rows(cluster_key, lookahead):
    rows = []
    for n in STRONG_N:
        for P in STRONG_P:
            r = best(n, P, CLUSTERS[cluster_key], lookahead)
            r["eff"] = efficiency(r)
            r["config"] = cluster_key
            rows.append(r)
    return rows


def weak_rows(cluster_key, lookahead):
    rows = []
    for m in WEAK_M:
        for P in WEAK_P:
            n = int(m * math.isqrt(P))
            r = best(n, P, CLUSTERS[cluster_key], lookahead)
            r["eff"] = efficiency(r, n_single=m)
            r["config"] = cluster_key
            r["m"] = m
            rows.append(r)
    return rows


def markdown_strong(cluster_key):
    la, nola = strong_rows(cluster_key, True), strong_rows(cluster_key, False)
    print("\n#### Strong scaling, %s (H100, 80 GB)\n" % CLUSTERS[cluster_key].name)
    print("Each cell: time in seconds / parallel efficiency, with look-ahead (b chosen) | "
          "without. `-` = the matrix does not fit in 80 GB per GPU.\n")
    print("| P | " + " | ".join("n = %s" % f"{n:,}" for n in STRONG_N) + " |")
    print("|---:|" + "---:|" * len(STRONG_N))
    for P in STRONG_P:
        cells = []
        for n in STRONG_N:
            a = next(r for r in la if r["n"] == n and r["P"] == P)
            z = next(r for r in nola if r["n"] == n and r["P"] == P)
            if not a["fits"]:
                cells.append("-")
            else:
                cells.append("%s s / %.0f %% (b %d) \\| %s s / %.0f %%"
                             % (fmt_t(a["seconds"]), 100 * a["eff"], a["b"], fmt_t(z["seconds"]),
                                100 * z["eff"]))
        print("| %d | %s |" % (P, " | ".join(cells)))


def markdown_strong_rate(cluster_key):
    la = strong_rows(cluster_key, True)
    print("\n#### Rate, %s, with look-ahead (updates/s)\n" % CLUSTERS[cluster_key].name)
    print("| P | " + " | ".join("n = %s" % f"{n:,}" for n in STRONG_N) + " |")
    print("|---:|" + "---:|" * len(STRONG_N))
    for P in STRONG_P:
        cells = []
        for n in STRONG_N:
            a = next(r for r in la if r["n"] == n and r["P"] == P)
            cells.append(fmt_r(a["rate"]) if a["fits"] else "-")
        print("| %d | %s |" % (P, " | ".join(cells)))


def markdown_weak():
    print("\n#### Weak scaling (n = m sqrt(P), m x m int32 per GPU), H100\n")
    print("Each cell: time in seconds / rate / parallel efficiency (against one GPU at n = m), "
          "with look-ahead | without.\n")
    keys = ["8xNVL+NDR", "4xNVL+HDR"]
    print("| m | P | n | " + " | ".join(CLUSTERS[k].name for k in keys) + " |")
    print("|---:|---:|---:|" + "---|" * len(keys))
    data = {(k, la): weak_rows(k, la) for k in keys for la in (True, False)}
    for m in WEAK_M:
        for P in WEAK_P:
            cells = []
            n = None
            for k in keys:
                a = next(r for r in data[(k, True)] if r["m"] == m and r["P"] == P)
                z = next(r for r in data[(k, False)] if r["m"] == m and r["P"] == P)
                n = a["n"]
                cells.append("%s s / %s / %.0f %% (b %d) \\| %s s / %.0f %%"
                             % (fmt_t(a["seconds"]), fmt_r(a["rate"]), 100 * a["eff"], a["b"],
                                fmt_t(z["seconds"]), 100 * z["eff"]))
            print("| %s | %d | %s | %s |" % (f"{m:,}", P, f"{n:,}", " | ".join(cells)))


BREAKDOWN = [(100000, 256), (100000, 4096), (200000, 1024), (500000, 4096), (1000000, 4096),
             (2000000, 4096)]


def markdown_breakdown():
    print("\n| n | P | b | local rows x cols | pivot close | pivot bcast | panel update | "
          "panel bcast | bulk update | round, look-ahead | round, none | look-ahead, pivot "
          "beside the bulk |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, P in BREAKDOWN:
        r = best(n, P, CLUSTERS["8xNVL+NDR"], True)
        z = predict(n, P, r["b"], r["grid"], CLUSTERS["8xNVL+NDR"], False)
        c = best(n, P, CLUSTERS["8xNVL+NDR"], True, pivot_corun=True)
        ms = lambda x: "%.2f" % (1e3 * x)
        print("| %s | %d | %d | %d x %d | %s | %s | %s | %s | %s | %s | %s | %s s, %.0f %% (b %d) |"
              % (f"{n:,}", P, r["b"], r["local"][0], r["local"][1], ms(r["t_pivot"]),
                 ms(r["t_pivot_bcast"]), ms(r["t_panels"]), ms(r["t_panel_bcast"]),
                 ms(r["t_bulk"]), ms(r["per_round"]), ms(z["per_round"]), fmt_t(c["seconds"]),
                 100 * efficiency(c), c["b"]))


def markdown_local_rate():
    sizes = (1024, 2048, 4096, 8192, 16384, 32768)
    print("\n| local m x m, depth b | " + " | ".join(f"{m:,}" for m in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    for b in (256, 512, 1024):
        print("| b = %d | %s |" % (b, " | ".join("%.1fe12" % (H100.rate(m, m, b) / 1e12)
                                                for m in sizes)))


def markdown_check():
    print("\n| n | b | look-ahead | predicted (s) | predicted updates/s | measured (s) | "
          "measured updates/s | measured / predicted |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|")
    rows = check_rows()
    for r in rows:
        print("| %s | %d | %s | %.1f | %s | | | |"
              % (f"{r['n']:,}", r["b"], "yes" if r["lookahead"] else "no", r["seconds"],
                 fmt_r(r["rate"])))
    print("\n| n | b | rounds | local rows x cols | pivot close (ms) | panel update (ms) | "
          "panel bcast (ms) | bulk update (ms) | round (ms), none / look-ahead |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for z, a in zip(rows[0::2], rows[1::2]):
        print("| %s | %d | %d | %d x %d | %.2f | %.2f | %.2f | %.1f | %.1f / %.1f |"
              % (f"{z['n']:,}", z["b"], z["rounds"], z["local"][0], z["local"][1],
                 1e3 * z["t_pivot"], 1e3 * z["t_panels"], 1e3 * z["t_panel_bcast"],
                 1e3 * z["t_bulk"], 1e3 * z["per_round"], 1e3 * a["per_round"]))


def write_csv(path, command):
    date = "2026-11-23"
    commit = git_commit()
    cols = ["date", "device", "commit", "command", "table", "config", "gpu", "n", "P", "grid",
            "b", "lookahead", "fits", "bytes_per_gpu", "seconds", "updates_per_s",
            "updates_per_s_per_gpu", "efficiency", "t_pivot", "t_pivot_bcast", "t_panels",
            "t_panel_bcast", "t_bulk", "per_round", "comm_fraction", "m"]
    rows = []
    for key in ("8xNVL+NDR", "8xNVL+HDR", "4xNVL+NDR", "4xNVL+HDR"):
        for la in (True, False):
            rows += [("strong", r) for r in strong_rows(key, la)]
            rows += [("weak", r) for r in weak_rows(key, la)]
    for r in check_rows():
        r["eff"] = efficiency(r, gpu=H200)
        r["config"] = "2xH200-nvlink"
        rows.append(("check_2xH200", r))
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for table, r in rows:
            w.writerow([date, "model", commit, command, table, r["config"], r["gpu"], r["n"],
                        r["P"], "%dx%d" % r["grid"], r["b"], int(r["lookahead"]), int(r["fits"]),
                        "%.4g" % r["bytes_per_gpu"], "%.6g" % r["seconds"], "%.6g" % r["rate"],
                        "%.6g" % (r["rate"] / r["P"]), "%.4f" % r["eff"],
                        "%.4g" % r["t_pivot"], "%.4g" % r["t_pivot_bcast"],
                        "%.4g" % r["t_panels"], "%.4g" % r["t_panel_bcast"],
                        "%.4g" % r["t_bulk"], "%.4g" % r["per_round"],
                        "%.4f" % r["comm_fraction"], r.get("m", "")])
    print("wrote", path, "(%d rows)" % len(rows))


# Published anchor: Sao et al., HPDC 2021: 8.1 PFLOP/s on 256 Summit nodes (1,536 V100), 70 % of
# peak, 80 % parallel efficiency (weak scaling). Assumed 2 FLOP (one add, one min) per update.
SAO_GPUS = 1536
SAO_UPDATES = 8.1e15 / 2
SAO_WEAK_EFF = 0.80


STYLES = (("8xNVL+NDR", True, "-", "8/node NVLink + NDR, look-ahead"),
          ("8xNVL+NDR", False, "--", "8/node NVLink + NDR, no look-ahead"),
          ("4xNVL+HDR", False, ":", "4/node NVLink + HDR, no look-ahead"))


def plot(path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5.6))
    colors = plt.cm.viridis([0.0, 0.22, 0.45, 0.68, 0.88])
    for key, la, ls, _ in STYLES:
        rows = strong_rows(key, la)
        for i, n in enumerate(STRONG_N):
            pts = [(r["P"], r["rate"]) for r in rows if r["n"] == n and r["fits"]]
            ax1.plot([p[0] for p in pts], [p[1] for p in pts], ls, color=colors[i],
                     marker="o" if ls == "-" else None, ms=3.5, lw=1.6 if ls == "-" else 1.1,
                     label=("n = %s" % f"{n:,}") if ls == "-" else None)
    ps = [1, 4096]
    one = H100.r_inf
    ax1.plot(ps, [p * one for p in ps], color="grey", lw=0.8, alpha=0.7)
    ax1.annotate("P x %.1fe12 (H100 kernel limit)" % (one / 1e12), xy=(64, 64 * one),
                 xytext=(6, 2e15), fontsize=7, color="grey",
                 arrowprops=dict(arrowstyle="-", color="grey", lw=0.6))
    ax1.plot([SAO_GPUS], [SAO_UPDATES], marker="*", color="crimson", ms=13, ls="none",
             label="Sao et al. 2021 (measured): 1,536 V100,\n8.1 PFLOP/s = 4.05e15 updates/s")
    for _, _, ls, lab in STYLES:
        ax1.plot([], [], "k" + ls, label=lab)
    ax1.set_xscale("log", base=2)
    ax1.set_yscale("log")
    ax1.set_xlabel("GPUs (P), H100 80 GB")
    ax1.set_ylabel("updates per second (n^3 / s)")
    ax1.set_title("Strong scaling, fixed n (only points where the matrix fits 80 GB/GPU)",
                  fontsize=10)
    ax1.grid(True, which="both", alpha=0.3)
    ax1.legend(fontsize=7, loc="upper left")

    markers = "os^"
    for key, la, ls, _ in STYLES:
        rows = weak_rows(key, la)
        for i, m in enumerate(WEAK_M):
            pts = [(r["P"], r["eff"]) for r in rows if r["m"] == m]
            ax2.plot([p[0] for p in pts], [100 * p[1] for p in pts], ls,
                     marker=markers[i] if ls == "-" else None, color=colors[1 + i], ms=4,
                     lw=1.6 if ls == "-" else 1.1,
                     label=("m = %s (%.1f GB/GPU)" % (f"{m:,}", 4 * m * m / 1e9))
                     if ls == "-" else None)
    ax2.plot([SAO_GPUS], [100 * SAO_WEAK_EFF], marker="*", color="crimson", ms=13, ls="none",
             label="Sao et al. 2021 (measured): 80 % on 1,536 V100")
    for _, _, ls, lab in STYLES:
        ax2.plot([], [], "k" + ls, label=lab)
    ax2.set_xscale("log", base=2)
    ax2.set_ylim(50, 102)
    ax2.set_xlabel("GPUs (P), H100 80 GB")
    ax2.set_ylabel("parallel efficiency (%) against one H100 at n = m")
    ax2.set_title("Weak scaling, m x m int32 per GPU (n = m sqrt(P))", fontsize=10)
    ax2.grid(True, which="both", alpha=0.3)
    ax2.legend(fontsize=7, loc="lower left")
    fig.suptitle("apsp distributed blocked Floyd-Warshall: performance model (predictions, not "
                 "measurements; bench/mpi/model.py)", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("wrote", path)


def print_summary():
    print("Strong scaling, 8 GPUs/node NVLink + NDR, look-ahead (best b):")
    for n in STRONG_N:
        rows = [r for r in strong_rows("8xNVL+NDR", True) if r["n"] == n and r["fits"]]
        first = rows[0]
        last = rows[-1]
        e50 = [r["P"] for r in rows if r["eff"] >= 0.5]
        print("  n = %8s: fits from P = %4d (%s s); P = 4096: %s s, %s/s, eff %.0f %%; "
              "eff >= 50 %% up to P = %s"
              % (f"{n:,}", first["P"], fmt_t(first["seconds"]), fmt_t(last["seconds"]),
                 fmt_r(last["rate"]), 100 * last["eff"], max(e50) if e50 else "-"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--markdown", action="store_true", help="print the tables of the doc")
    ap.add_argument("--csv", help="write every predicted row to this CSV")
    ap.add_argument("--plot", help="write the two-panel figure (needs matplotlib)")
    args = ap.parse_args()
    print_calibration()
    print()
    print_check()
    print()
    print_summary()
    if args.markdown:
        markdown_check()
        markdown_local_rate()
        markdown_breakdown()
        for key in ("8xNVL+NDR", "4xNVL+HDR"):
            markdown_strong(key)
        markdown_strong_rate("8xNVL+NDR")
        markdown_weak()
    if args.csv:
        write_csv(args.csv, "bench/mpi/model.py " + " ".join(sys.argv[1:]))
    if args.plot:
        plot(args.plot)


if __name__ == "__main__":
    main()
