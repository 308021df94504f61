#include "cpu/csr_graph.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "apsp/types.hpp"

namespace apsp::cpu {
namespace {

/// Sorts each adjacency list by target and keeps the lightest of parallel arcs, compacting the
/// arrays in place (rows only shrink, so a forward pass never overwrites unread arcs).
template <class W> void merge_parallel_arcs(csr_graph<W>& g) {
  const std::int64_t n = g.n;
  std::vector<std::int64_t> kept(static_cast<std::size_t>(n), 0);
#pragma omp parallel
  {
    std::vector<csr_arc<W>> row;
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t u = 0; u < n; ++u) {
      const auto begin = static_cast<std::size_t>(g.offsets[static_cast<std::size_t>(u)]);
      const auto end = static_cast<std::size_t>(g.offsets[static_cast<std::size_t>(u) + 1]);
      row.assign(g.arcs.begin() + static_cast<std::ptrdiff_t>(begin),
                 g.arcs.begin() + static_cast<std::ptrdiff_t>(end));
      std::sort(row.begin(), row.end());
      std::size_t out = begin;
      for (std::size_t a = 0; a < row.size(); ++a) {
        if (a > 0 && row[a].target == row[a - 1].target)
          continue; // sorted by weight too: the first of equal targets is the lightest
        g.arcs[out++] = row[a];
      }
      kept[static_cast<std::size_t>(u)] = static_cast<std::int64_t>(out - begin);
    }
  }
  std::int64_t write = 0;
  for (std::int64_t u = 0; u < n; ++u) {
    const std::int64_t read = g.offsets[static_cast<std::size_t>(u)];
    const std::int64_t count = kept[static_cast<std::size_t>(u)];
    for (std::int64_t a = 0; a < count; ++a) {
      g.arcs[static_cast<std::size_t>(write + a)] = g.arcs[static_cast<std::size_t>(read + a)];
    }
    g.offsets[static_cast<std::size_t>(u)] = write;
    write += count;
  }
  g.offsets[static_cast<std::size_t>(n)] = write;
  g.arcs.resize(static_cast<std::size_t>(write));
}

template <class W> void note_self_loop(csr_graph<W>& g, std::int32_t v, W w) {
  if (w < W{0} && (g.negative_loop < 0 || w < g.negative_loop_weight)) {
    g.negative_loop = v;
    g.negative_loop_weight = w;
  }
}

} // namespace

template <class T> csr_graph<johnson_key_t<T>> csr_from_edges(const graph& in) {
  using W = johnson_key_t<T>;
  csr_graph<W> g;
  g.n = in.num_vertices();
  const auto& src = in.sources();
  const auto& dst = in.targets();
  const auto& w = in.weights();
  g.offsets.assign(static_cast<std::size_t>(g.n) + 1, 0);
  for (std::size_t e = 0; e < src.size(); ++e) {
    if (src[e] != dst[e])
      ++g.offsets[static_cast<std::size_t>(src[e]) + 1];
  }
  std::partial_sum(g.offsets.begin(), g.offsets.end(), g.offsets.begin());
  const auto arcs = static_cast<std::size_t>(g.offsets.back());
  g.arcs.resize(arcs);
  std::vector<std::int64_t> next(g.offsets.begin(), g.offsets.end() - 1);
  for (std::size_t e = 0; e < src.size(); ++e) {
    const W weight = static_cast<W>(static_cast<T>(w[e]));
    if (src[e] == dst[e]) {
      note_self_loop(g, src[e], weight);
      continue;
    }
    const auto at = static_cast<std::size_t>(next[static_cast<std::size_t>(src[e])]++);
    g.arcs[at] = {dst[e], weight};
  }
  merge_parallel_arcs(g);
  return g;
}

template <class T> csr_graph<johnson_key_t<T>> csr_from_matrix(const dense_matrix<T>& d) {
  using W = johnson_key_t<T>;
  csr_graph<W> g;
  g.n = d.n();
  g.offsets.assign(static_cast<std::size_t>(g.n) + 1, 0);
  const auto finite = [](T v) {
    if constexpr (std::is_floating_point_v<T>)
      return std::isfinite(v);
    else
      return v < weight_traits<T>::infinity;
  };
  for (std::int64_t i = 0; i < g.n; ++i) {
    const T* row = d.row(i);
    for (std::int64_t j = 0; j < g.n; ++j) {
      if (j == i) {
        if (row[j] < T{0})
          note_self_loop(g, static_cast<std::int32_t>(i), static_cast<W>(row[j]));
      } else if (finite(row[j])) {
        g.arcs.push_back({static_cast<std::int32_t>(j), static_cast<W>(row[j])});
      }
    }
    g.offsets[static_cast<std::size_t>(i) + 1] = static_cast<std::int64_t>(g.arcs.size());
  }
  return g;
}

#define APSP_CSR(T)                                                                                \
  template csr_graph<johnson_key_t<T>> csr_from_edges<T>(const graph&);                            \
  template csr_graph<johnson_key_t<T>> csr_from_matrix<T>(const dense_matrix<T>&);
APSP_CSR(std::int32_t)
APSP_CSR(float)
APSP_CSR(std::int64_t)
APSP_CSR(double)
#undef APSP_CSR

} // namespace apsp::cpu
