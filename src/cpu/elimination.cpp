#include "cpu/elimination.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <utility>

#include "apsp/error.hpp"

#ifdef APSP_HAS_METIS
#include <metis.h>
#endif

namespace apsp::cpu {
namespace {

/// The symmetrised pattern without the diagonal, in compressed rows (each list sorted, no
/// duplicates).
struct pattern {
  std::vector<std::int64_t> offsets;
  std::vector<std::int32_t> targets;
  [[nodiscard]] std::int64_t n() const { return static_cast<std::int64_t>(offsets.size()) - 1; }
};

pattern symmetric_pattern(std::int64_t n, const std::vector<std::int32_t>& heads,
                          const std::vector<std::int32_t>& tails) {
  pattern p;
  p.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t a = 0; a < heads.size(); ++a) {
    if (heads[a] == tails[a])
      continue;
    ++p.offsets[static_cast<std::size_t>(heads[a]) + 1];
    ++p.offsets[static_cast<std::size_t>(tails[a]) + 1];
  }
  std::partial_sum(p.offsets.begin(), p.offsets.end(), p.offsets.begin());
  p.targets.resize(static_cast<std::size_t>(p.offsets.back()));
  std::vector<std::int64_t> cursor(p.offsets.begin(), p.offsets.end() - 1);
  for (std::size_t a = 0; a < heads.size(); ++a) {
    if (heads[a] == tails[a])
      continue;
    p.targets[static_cast<std::size_t>(cursor[static_cast<std::size_t>(heads[a])]++)] = tails[a];
    p.targets[static_cast<std::size_t>(cursor[static_cast<std::size_t>(tails[a])]++)] = heads[a];
  }
  // Sort and deduplicate each list, compacting in place.
  std::int64_t out = 0;
  for (std::int64_t v = 0; v < n; ++v) {
    auto b = p.targets.begin() + p.offsets[static_cast<std::size_t>(v)];
    auto e = p.targets.begin() + p.offsets[static_cast<std::size_t>(v) + 1];
    std::sort(b, e);
    e = std::unique(b, e);
    const std::int64_t start = out;
    for (auto it = b; it != e; ++it)
      p.targets[static_cast<std::size_t>(out++)] = *it;
    p.offsets[static_cast<std::size_t>(v)] = start;
  }
  p.offsets[static_cast<std::size_t>(n)] = out;
  p.targets.resize(static_cast<std::size_t>(out));
  return p;
}

/// The pattern relabelled: new vertex q is old vertex old_of[q]; new_of is the inverse.
pattern relabel(const pattern& a, const std::vector<std::int32_t>& old_of,
                const std::vector<std::int32_t>& new_of) {
  const std::int64_t n = a.n();
  pattern p;
  p.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  p.targets.reserve(a.targets.size());
  for (std::int64_t q = 0; q < n; ++q) {
    const auto v = static_cast<std::size_t>(old_of[static_cast<std::size_t>(q)]);
    for (std::int64_t e = a.offsets[v]; e < a.offsets[v + 1]; ++e)
      p.targets.push_back(new_of[static_cast<std::size_t>(a.targets[static_cast<std::size_t>(e)])]);
    std::sort(p.targets.begin() + static_cast<std::ptrdiff_t>(p.offsets[static_cast<std::size_t>(q)]),
              p.targets.end());
    p.offsets[static_cast<std::size_t>(q) + 1] = static_cast<std::int64_t>(p.targets.size());
  }
  return p;
}

/// Nested dissection by METIS_NodeND: order[p] = the vertex eliminated p-th.
std::vector<std::int32_t> fill_reducing_order(const pattern& a, std::string& name) {
  const std::int64_t n = a.n();
  std::vector<std::int32_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
#ifdef APSP_HAS_METIS
  if (n >= 3 && !a.targets.empty()) {
    std::vector<idx_t> xadj(a.offsets.begin(), a.offsets.end());
    std::vector<idx_t> adjncy(a.targets.begin(), a.targets.end());
    std::vector<idx_t> perm(static_cast<std::size_t>(n)), iperm(static_cast<std::size_t>(n));
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = 1; // the same order, and so the same float roundings, every run
    idx_t nv = static_cast<idx_t>(n);
    const int rc = METIS_NodeND(&nv, xadj.data(), adjncy.data(), nullptr, options, perm.data(),
                                iperm.data());
    if (rc == METIS_OK) {
      // METIS: row i of the permuted matrix is row perm[i] of the original.
      for (std::int64_t p = 0; p < n; ++p)
        order[static_cast<std::size_t>(p)] = static_cast<std::int32_t>(perm[static_cast<std::size_t>(p)]);
      name = "METIS nested dissection";
      return order;
    }
    name = "natural (METIS_NodeND failed with code " + std::to_string(rc) + ")";
    return order;
  }
  name = "natural (no edges to order)";
#else
  name = "natural (built without METIS: install libmetis-dev and rebuild)";
#endif
  return order;
}

/// Liu's algorithm with path compression: parent[j] = min{i > j : L[i][j] != 0}, or -1.
std::vector<std::int32_t> elimination_tree(const pattern& a) {
  const std::int64_t n = a.n();
  std::vector<std::int32_t> parent(static_cast<std::size_t>(n), -1);
  std::vector<std::int32_t> ancestor(static_cast<std::size_t>(n), -1);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t e = a.offsets[static_cast<std::size_t>(i)];
         e < a.offsets[static_cast<std::size_t>(i) + 1]; ++e) {
      std::int32_t j = a.targets[static_cast<std::size_t>(e)];
      while (j != -1 && j < i) { // climb from j to the root of its current subtree
        const std::int32_t up = ancestor[static_cast<std::size_t>(j)];
        ancestor[static_cast<std::size_t>(j)] = static_cast<std::int32_t>(i);
        if (up == -1)
          parent[static_cast<std::size_t>(j)] = static_cast<std::int32_t>(i);
        j = up;
      }
    }
  }
  return parent;
}

/// post[q] = the node visited q-th by a depth-first postorder (children in label order).
std::vector<std::int32_t> postorder(const std::vector<std::int32_t>& parent) {
  const auto n = static_cast<std::int64_t>(parent.size());
  std::vector<std::int32_t> head(static_cast<std::size_t>(n), -1), next(static_cast<std::size_t>(n), -1);
  // Children lists in increasing label order: push in decreasing order.
  for (std::int64_t j = n - 1; j >= 0; --j) {
    const std::int32_t p = parent[static_cast<std::size_t>(j)];
    if (p >= 0) {
      next[static_cast<std::size_t>(j)] = head[static_cast<std::size_t>(p)];
      head[static_cast<std::size_t>(p)] = static_cast<std::int32_t>(j);
    }
  }
  std::vector<std::int32_t> post;
  post.reserve(static_cast<std::size_t>(n));
  std::vector<std::int32_t> stack;
  for (std::int64_t r = 0; r < n; ++r) {
    if (parent[static_cast<std::size_t>(r)] >= 0)
      continue;
    stack.push_back(static_cast<std::int32_t>(r));
    while (!stack.empty()) {
      const std::int32_t v = stack.back();
      const std::int32_t c = head[static_cast<std::size_t>(v)];
      if (c >= 0) {
        head[static_cast<std::size_t>(v)] = next[static_cast<std::size_t>(c)]; // consume the child
        stack.push_back(c);
      } else {
        post.push_back(v);
        stack.pop_back();
      }
    }
  }
  return post;
}

/// |struct(L[:, j])| with the diagonal, in O(|A| alpha(n)) without forming L (Gilbert, Ng and
/// Peyton 1994): each row subtree puts +1 on its leaves and -1 on the lowest common ancestor of
/// consecutive leaves; subtree sums give the counts. Needs a postordered labelling.
std::vector<std::int64_t> column_counts(const pattern& a, const std::vector<std::int32_t>& parent,
                                        const std::vector<std::int64_t>& size) {
  const std::int64_t n = a.n();
  std::vector<std::int64_t> delta(static_cast<std::size_t>(n), 0);
  std::vector<std::int32_t> prev_nz(static_cast<std::size_t>(n), -1);
  std::vector<std::int32_t> prev_leaf(static_cast<std::size_t>(n), -1);
  std::vector<std::int32_t> uf(static_cast<std::size_t>(n));
  std::iota(uf.begin(), uf.end(), 0);
  for (std::int64_t j = 0; j < n; ++j) {
    const auto ju = static_cast<std::size_t>(j);
    if (parent[ju] >= 0)
      --delta[static_cast<std::size_t>(parent[ju])];
    const std::int64_t first_j = j - size[ju] + 1;
    for (std::int64_t e = a.offsets[ju]; e < a.offsets[ju + 1]; ++e) {
      const auto i = static_cast<std::size_t>(a.targets[static_cast<std::size_t>(e)]);
      if (static_cast<std::int64_t>(i) <= j)
        continue;
      const bool leaf = first_j > prev_nz[i]; // no earlier nonzero of row i inside subtree(j)
      prev_nz[i] = static_cast<std::int32_t>(j);
      if (!leaf)
        continue;
      ++delta[ju];
      std::int32_t q = prev_leaf[i];
      if (q >= 0) {
        std::int32_t root = q;
        while (uf[static_cast<std::size_t>(root)] != root)
          root = uf[static_cast<std::size_t>(root)];
        while (uf[static_cast<std::size_t>(q)] != root) { // path compression
          const std::int32_t up = uf[static_cast<std::size_t>(q)];
          uf[static_cast<std::size_t>(q)] = root;
          q = up;
        }
        --delta[static_cast<std::size_t>(root)]; // the LCA of the previous leaf and j
      }
      prev_leaf[i] = static_cast<std::int32_t>(j);
    }
    if (prev_leaf[ju] == -1) // row j has no off-diagonal entry left of the diagonal
      ++delta[ju];
    if (parent[ju] >= 0)
      uf[ju] = parent[ju];
  }
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int32_t p = parent[static_cast<std::size_t>(j)];
    if (p >= 0)
      delta[static_cast<std::size_t>(p)] += delta[static_cast<std::size_t>(j)];
  }
  return delta;
}

} // namespace

bool have_metis() noexcept {
#ifdef APSP_HAS_METIS
  return true;
#else
  return false;
#endif
}

elimination_plan plan_elimination(std::int64_t n, const std::vector<std::int32_t>& heads,
                                  const std::vector<std::int32_t>& tails, std::int64_t max_fill) {
  APSP_EXPECTS(heads.size() == tails.size(), internal_error, "plan_elimination: arc arrays differ");
  const auto began = std::chrono::steady_clock::now();
  elimination_plan out;
  out.n = n;
  const pattern sym = symmetric_pattern(n, heads, tails);
  const std::vector<std::int32_t> nd = fill_reducing_order(sym, out.order_name);
  std::vector<std::int32_t> nd_label(static_cast<std::size_t>(n));
  for (std::int64_t p = 0; p < n; ++p)
    nd_label[static_cast<std::size_t>(nd[static_cast<std::size_t>(p)])] = static_cast<std::int32_t>(p);
  const std::vector<std::int32_t> post = postorder(elimination_tree(relabel(sym, nd, nd_label)));

  // The final order: the nested-dissection order, postordered (same tree, same fill).
  out.order.resize(static_cast<std::size_t>(n));
  out.label.resize(static_cast<std::size_t>(n));
  for (std::int64_t q = 0; q < n; ++q) {
    const std::int32_t v = nd[static_cast<std::size_t>(post[static_cast<std::size_t>(q)])];
    out.order[static_cast<std::size_t>(q)] = v;
    out.label[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(q);
  }
  const pattern a = relabel(sym, out.order, out.label);
  const std::vector<std::int32_t> parent = elimination_tree(a);
  std::vector<std::int64_t> size(static_cast<std::size_t>(n), 1);
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int32_t p = parent[static_cast<std::size_t>(j)];
    if (p >= 0)
      size[static_cast<std::size_t>(p)] += size[static_cast<std::size_t>(j)];
  }
  const std::vector<std::int64_t> cc = column_counts(a, parent, size);
  const std::int64_t fill = std::accumulate(cc.begin(), cc.end(), std::int64_t{0}) - n;
  if (fill > max_fill) {
    out.updates = std::numeric_limits<double>::infinity();
    out.order_name += "; Cholesky pattern of " + std::to_string(fill) + " entries exceeds " +
                      std::to_string(max_fill);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    return out;
  }

  // struct(L[:, k]) below the diagonal for every column, by row subtrees: O(|L|), each list
  // ascending because rows are visited in order.
  std::vector<std::int64_t> col_offsets(static_cast<std::size_t>(n) + 1, 0);
  for (std::int64_t k = 0; k < n; ++k)
    col_offsets[static_cast<std::size_t>(k) + 1] = col_offsets[static_cast<std::size_t>(k)] + cc[static_cast<std::size_t>(k)] - 1;
  std::vector<std::int32_t> col_rows(static_cast<std::size_t>(col_offsets.back()));
  {
    std::vector<std::int64_t> cursor(col_offsets.begin(), col_offsets.end() - 1);
    std::vector<std::int32_t> mark(static_cast<std::size_t>(n), -1);
    for (std::int64_t i = 0; i < n; ++i) {
      mark[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i);
      for (std::int64_t e = a.offsets[static_cast<std::size_t>(i)];
           e < a.offsets[static_cast<std::size_t>(i) + 1]; ++e) {
        std::int32_t k = a.targets[static_cast<std::size_t>(e)];
        while (k >= 0 && k < i && mark[static_cast<std::size_t>(k)] != i) {
          col_rows[static_cast<std::size_t>(cursor[static_cast<std::size_t>(k)]++)] = static_cast<std::int32_t>(i);
          mark[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(i);
          k = parent[static_cast<std::size_t>(k)];
        }
      }
    }
    for (std::int64_t k = 0; k < n; ++k)
      APSP_EXPECTS(cursor[static_cast<std::size_t>(k)] == col_offsets[static_cast<std::size_t>(k) + 1],
                   internal_error, "supernodal analysis: column counts disagree with the structure");
  }

  // Fundamental supernodes: column j + 1 joins j's when it is j's parent, has no other child and
  // struct(L[:, j]) = {j + 1} + struct(L[:, j + 1]).
  std::vector<std::int32_t> children(static_cast<std::size_t>(n), 0);
  for (std::int64_t j = 0; j < n; ++j) {
    if (parent[static_cast<std::size_t>(j)] >= 0)
      ++children[static_cast<std::size_t>(parent[static_cast<std::size_t>(j)])];
  }
  std::vector<std::int32_t> start; // first column of each fundamental supernode
  for (std::int64_t j = 0; j < n; ++j) {
    const bool joins = j > 0 && parent[static_cast<std::size_t>(j) - 1] == j &&
                       children[static_cast<std::size_t>(j)] == 1 &&
                       cc[static_cast<std::size_t>(j) - 1] == cc[static_cast<std::size_t>(j)] + 1;
    if (!joins)
      start.push_back(static_cast<std::int32_t>(j));
  }
  const std::size_t count = start.size();
  std::vector<std::int32_t> top(count);
  std::vector<std::int32_t> sn_of(static_cast<std::size_t>(n));
  for (std::size_t s = 0; s < count; ++s) {
    top[s] = (s + 1 < count ? start[s + 1] : static_cast<std::int32_t>(n)) - 1;
    for (std::int32_t j = start[s]; j <= top[s]; ++j)
      sn_of[static_cast<std::size_t>(j)] = static_cast<std::int32_t>(s);
  }
  // Relaxed supernodes: a child's pivots join its parent's step when the merged block costs at
  // most 1.25 x the two apart (|M| rows^2 updates) and is at most 256 wide: fewer, wider steps
  // stream each block fewer times. Still a topological order of the tree, so the rows of each
  // step stay those predicted (a child's rows lie within its parent's).
  auto rows_of = [&](std::size_t s) {
    const auto t = static_cast<std::size_t>(top[s]);
    return static_cast<double>(size[t] + cc[t] - 1);
  };
  std::vector<std::int64_t> width(count);
  std::vector<std::vector<std::int32_t>> parts(count); // fundamental supernodes in each step
  for (std::size_t s = 0; s < count; ++s) {
    width[s] = top[s] - start[s] + 1;
    parts[s] = {static_cast<std::int32_t>(s)};
  }
  std::vector<std::vector<std::int32_t>> sn_children(count);
  for (std::size_t s = 0; s < count; ++s) {
    const std::int32_t p = parent[static_cast<std::size_t>(top[s])];
    if (p >= 0)
      sn_children[static_cast<std::size_t>(sn_of[static_cast<std::size_t>(p)])].push_back(static_cast<std::int32_t>(s));
  }
  std::vector<bool> merged(count, false);
  for (std::size_t p = 0; p < count; ++p) { // children precede parents: theirs are final here
    for (const std::int32_t c32 : sn_children[p]) {
      const auto c = static_cast<std::size_t>(c32);
      const std::int64_t w = width[c] + width[p];
      const double apart = static_cast<double>(width[c]) * rows_of(c) * rows_of(c) +
                           static_cast<double>(width[p]) * rows_of(p) * rows_of(p);
      if (w <= 256 && static_cast<double>(w) * rows_of(p) * rows_of(p) <= 1.25 * apart) {
        width[p] = w;
        parts[c].insert(parts[c].end(), parts[p].begin(), parts[p].end());
        parts[p] = std::move(parts[c]);
        parts[c].clear();
        merged[c] = true;
      }
    }
  }

  for (std::size_t s = 0; s < count; ++s) { // by top column: a topological order of the steps
    if (merged[s])
      continue;
    supernode_step step;
    for (const std::int32_t f : parts[s]) {
      for (std::int32_t j = start[static_cast<std::size_t>(f)]; j <= top[static_cast<std::size_t>(f)]; ++j)
        step.members.push_back(j);
    }
    const auto t = static_cast<std::size_t>(top[s]);
    step.first = static_cast<std::int32_t>(static_cast<std::int64_t>(t) - size[t] + 1);
    step.ancestors_begin = col_offsets[t]; // the column structures are kept as they are
    step.ancestors_end = col_offsets[t + 1];
    out.updates += step.updates();
    out.widest = std::max<std::int64_t>(out.widest, static_cast<std::int64_t>(step.members.size()));
    out.steps.push_back(std::move(step));
  }
  out.ancestors = std::move(col_rows);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return out;
}

} // namespace apsp::cpu
