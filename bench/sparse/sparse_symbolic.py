"""Graph input, fill-reducing orders and the symbolic Cholesky factorisation used to count the
updates of a sparsity-aware Floyd-Warshall (see docs/sparse_supernodal.md).

Everything works on the symmetrised structure of the graph, without the diagonal. Vertices are
relabelled by an elimination order and then by a postorder of its elimination tree (an
equivalent order: same tree, same fill, same counts), so that every elimination subtree is a
contiguous range [first[k], k].
"""

import ctypes
import ctypes.util

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import reverse_cuthill_mckee


def read_dimacs(path):
    """DIMACS .gr (`p sp n m`, `a u v w`, 1-based) -> (n, src, dst, w) with 0-based int64 ids."""
    n = None
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("a"):
                rows.append(line.split()[1:4])
            elif line.startswith("p"):
                n = int(line.split()[2])
    arcs = np.array(rows, dtype=np.int64).reshape(-1, 3)
    if n is None:
        raise ValueError(f"{path}: no 'p sp n m' line")
    return n, arcs[:, 0] - 1, arcs[:, 1] - 1, arcs[:, 2]


def symmetric_pattern(n, src, dst):
    """CSR pattern of A + A^T without the diagonal (data all ones, indices sorted)."""
    keep = src != dst
    r = np.concatenate([src[keep], dst[keep]])
    c = np.concatenate([dst[keep], src[keep]])
    a = sp.csr_matrix((np.ones(r.size, dtype=np.int8), (r, c)), shape=(n, n))
    a.sum_duplicates()
    a.data[:] = 1
    a.sort_indices()
    return a


def load_metis():
    """ctypes handle on libmetis (Debian libmetis-dev), or None when it is not installed."""
    for name in ("libmetis.so", "libmetis.so.5", ctypes.util.find_library("metis")):
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError:
            pass
    return None


def metis_nd_order(pattern, seed=1):
    """METIS_NodeND nested-dissection order: order[p] = vertex eliminated p-th."""
    lib = load_metis()
    if lib is None:
        raise RuntimeError("libmetis not found (apt-get install -y libmetis-dev)")
    idx = ctypes.c_int32  # Debian's metis.h: IDXTYPEWIDTH 32
    n = pattern.shape[0]
    xadj = np.ascontiguousarray(pattern.indptr, dtype=np.int32)
    adjncy = np.ascontiguousarray(pattern.indices, dtype=np.int32)
    options = (idx * 40)()  # METIS_NOPTIONS
    lib.METIS_SetDefaultOptions(options)
    options[8] = seed  # METIS_OPTION_SEED
    perm = np.zeros(n, dtype=np.int32)
    iperm = np.zeros(n, dtype=np.int32)
    nv = idx(n)
    ptr = lambda a: a.ctypes.data_as(ctypes.POINTER(idx))
    rc = lib.METIS_NodeND(ctypes.byref(nv), ptr(xadj), ptr(adjncy), None, options,
                          ptr(perm), ptr(iperm))
    if rc != 1:  # METIS_OK
        raise RuntimeError(f"METIS_NodeND returned {rc}")
    # METIS manual: row i of the permuted matrix is row perm[i] of the original.
    return perm.astype(np.int64)


def order_by_name(pattern, name):
    n = pattern.shape[0]
    if name == "natural":
        return np.arange(n, dtype=np.int64)
    if name == "rcm":
        return reverse_cuthill_mckee(pattern, symmetric_mode=True).astype(np.int64)
    if name == "metis":
        return metis_nd_order(pattern)
    raise ValueError(f"unknown order {name!r}")


def permute(pattern, order):
    """Pattern relabelled so that new vertex p is old vertex order[p]."""
    return pattern[order][:, order].tocsr(copy=True).sorted_indices()


def elimination_tree(pattern):
    """Liu's algorithm with path compression: parent[j] = min{i > j : L[i, j] != 0} or -1."""
    n = pattern.shape[0]
    indptr, indices = pattern.indptr.tolist(), pattern.indices.tolist()
    parent = [-1] * n
    ancestor = [-1] * n
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            while j != -1 and j < i:  # climb from j to the root of its current subtree
                up = ancestor[j]
                ancestor[j] = i
                if up == -1:
                    parent[j] = i
                j = up
    return np.array(parent, dtype=np.int64)


def postorder(parent):
    """post[p] = the node visited p-th by a depth-first postorder (children in index order)."""
    n = parent.size
    children = [[] for _ in range(n)]
    roots = []
    for j in range(n):
        (roots if parent[j] < 0 else children[parent[j]]).append(j)
    post = []
    for r in roots:
        stack = [(r, 0)]
        while stack:
            node, c = stack.pop()
            if c < len(children[node]):
                stack.append((node, c + 1))
                stack.append((children[node][c], 0))
            else:
                post.append(node)
    return np.array(post, dtype=np.int64)


def subtree_sizes(parent):
    """Number of nodes in each elimination subtree (node included); parent[j] > j."""
    size = np.ones(parent.size, dtype=np.int64)
    for j in range(parent.size):  # children have smaller labels than parents
        if parent[j] >= 0:
            size[parent[j]] += size[j]
    return size


def column_counts(pattern, parent):
    """|struct(L[:, j])| including the diagonal, in O(|A| alpha) without forming L.

    Needs a postordered labelling. Row i of L is the row subtree of the etree spanned by the
    columns k < i with A[i, k] != 0 up to i; the count of column j is the number of row subtrees
    through j. Each row puts +1 on its subtree's leaves and -1 on the lowest common ancestor of
    consecutive leaves (LCAs by an offline union-find, Tarjan), and -1 on parent(i) so that
    ancestors of i do not count row i; subtree sums of these weights are the column counts
    (Gilbert, Ng and Peyton 1994).
    """
    n = pattern.shape[0]
    indptr, indices = pattern.indptr.tolist(), pattern.indices.tolist()
    par = parent.tolist()
    size = subtree_sizes(parent).tolist()
    delta = [0] * n
    prev_nz = [-1] * n  # last column seen in each row
    prev_leaf = [-1] * n  # last row-subtree leaf seen in each row
    uf = list(range(n))  # union-find: finished nodes point towards their parents
    for j in range(n):
        if par[j] >= 0:
            delta[par[j]] -= 1
        first_j = j - size[j] + 1
        for p in range(indptr[j], indptr[j + 1]):
            i = indices[p]
            if i <= j:
                continue
            is_leaf = first_j > prev_nz[i]  # no earlier nonzero of row i inside subtree(j)
            prev_nz[i] = j
            if not is_leaf:
                continue
            delta[j] += 1
            q = prev_leaf[i]
            if q >= 0:
                root = q
                while uf[root] != root:
                    root = uf[root]
                while uf[q] != root:  # path compression
                    uf[q], q = root, uf[q]
                delta[root] -= 1  # LCA(previous leaf, j)
            prev_leaf[i] = j
        if prev_leaf[j] == -1:  # row j has no off-diagonal entry: only its diagonal
            delta[j] += 1
        if par[j] >= 0:
            uf[j] = par[j]
    cc = np.array(delta, dtype=np.int64)
    for j in range(n):
        if par[j] >= 0:
            cc[par[j]] += cc[j]
    return cc


def column_structures(pattern, parent):
    """Explicit struct(L[:, j]) below the diagonal, by row subtrees: O(|L|) (validation)."""
    n = pattern.shape[0]
    indptr, indices = pattern.indptr.tolist(), pattern.indices.tolist()
    par = parent.tolist()
    cols = [[] for _ in range(n)]
    mark = [-1] * n
    for i in range(n):
        mark[i] = i
        for p in range(indptr[i], indptr[i + 1]):
            k = indices[p]
            while k < i and mark[k] != i:  # climb from k towards i until a visited node
                cols[k].append(i)
                mark[k] = i
                k = par[k]
    return cols


class Symbolic:
    """Elimination order -> postordered pattern, etree, subtree sizes and column counts."""

    def __init__(self, pattern, order):
        p0 = permute(pattern, order)
        post = postorder(elimination_tree(p0))
        self.order = order[post]  # final elimination order: vertex eliminated p-th
        self.pattern = permute(pattern, self.order)
        self.parent = elimination_tree(self.pattern)
        self.size = subtree_sizes(self.parent)
        self.first = np.arange(self.size.size) - self.size + 1
        self.cc = column_counts(self.pattern, self.parent)

    def reach_sizes(self):
        """|R_k| = rows i != k with D[i, k] finite when pivot k is reached (see the doc)."""
        return (self.size - 1) + (self.cc - 1)
