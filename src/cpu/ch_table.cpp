#include "cpu/ch_table.hpp"

#include <omp.h>

#include <algorithm>
#include <cstddef>

#include "apsp/error.hpp"
#include "apsp/types.hpp"
#include "cpu/upward_search.hpp"

namespace apsp::cpu {
namespace {

/// The backward searches from every target on `workers` threads, each thread's entries kept
/// apart, then gathered by position (a counting sort).
template <class T>
ch_buckets<T> fill_buckets(const contraction_hierarchy<T>& ch,
                           std::span<const std::int32_t> targets, int workers, T cap, bool stall) {
  const auto n = static_cast<std::size_t>(ch.n);
  const auto count = static_cast<std::int64_t>(targets.size());
  struct met {
    std::int32_t position;
    bucket_entry<T> entry;
  };
  std::vector<std::vector<met>> found(static_cast<std::size_t>(workers));
#pragma omp parallel num_threads(workers)
  {
    upward_search<T> back(ch.n, cap);
    auto& mine = found[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t j = 0; j < count; ++j) {
      back.run(ch.down_offsets, ch.down_arcs,
               ch.position[static_cast<std::size_t>(targets[static_cast<std::size_t>(j)])],
               stall ? &ch.up_offsets : nullptr, stall ? &ch.up_arcs : nullptr);
      for (const std::int32_t p : back.reached()) {
        if (!back.stalled(p))
          mine.push_back({p, {static_cast<std::int32_t>(j), back.dist(p)}});
      }
    }
  }
  ch_buckets<T> b;
  b.offsets.assign(n + 1, 0);
  std::size_t total = 0;
  for (const auto& list : found) {
    total += list.size();
    for (const auto& f : list)
      ++b.offsets[static_cast<std::size_t>(f.position) + 1];
  }
  for (std::size_t p = 0; p < n; ++p)
    b.offsets[p + 1] += b.offsets[p];
  b.entries.resize(total);
  std::vector<std::int64_t> next(b.offsets.begin(), b.offsets.end() - 1);
  for (auto& list : found) {
    for (const auto& f : list)
      b.entries[static_cast<std::size_t>(next[static_cast<std::size_t>(f.position)]++)] = f.entry;
    list = {}; // free each thread's list once it is gathered
  }
  return b;
}

} // namespace

template <class T>
ch_buckets<T> ch_table_buckets(const contraction_hierarchy<T>& ch,
                               std::span<const std::int32_t> targets, int threads,
                               bool stall_on_demand) {
  APSP_EXPECTS(ch.complete, internal_error, "a table on an incomplete contraction hierarchy");
  const int asked = threads > 0 ? threads : omp_get_max_threads();
  const int workers = static_cast<int>(
      std::max<std::int64_t>(1, std::min<std::int64_t>(asked, std::ssize(targets))));
  return fill_buckets(ch, targets, workers, weight_traits<T>::infinity, stall_on_demand);
}

template <class T>
void ch_table_rows(const contraction_hierarchy<T>& ch, const ch_buckets<T>& b,
                   const std::vector<T>& h, std::span<const std::int32_t> sources,
                   std::span<const std::int32_t> targets, int threads, T* out,
                   bool stall_on_demand) {
  constexpr T cap = weight_traits<T>::infinity;
  const std::size_t cols = targets.size();
  const auto rows = static_cast<std::int64_t>(sources.size());
  if (rows == 0 || cols == 0)
    return;
  const int asked = threads > 0 ? threads : omp_get_max_threads();
  const int workers =
      static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(asked, rows)));
#pragma omp parallel num_threads(workers)
  {
    upward_search<T> up(ch.n, cap);
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t i = 0; i < rows; ++i) {
      T* row = out + static_cast<std::size_t>(i) * cols;
      std::fill(row, row + cols, cap);
      const std::int32_t s = sources[static_cast<std::size_t>(i)];
      up.run(ch.up_offsets, ch.up_arcs, ch.position[static_cast<std::size_t>(s)],
             stall_on_demand ? &ch.down_offsets : nullptr,
             stall_on_demand ? &ch.down_arcs : nullptr);
      for (const std::int32_t p : up.reached()) {
        if (up.stalled(p))
          continue;
        const T ds = up.dist(p);
        const auto first = b.offsets[static_cast<std::size_t>(p)];
        const auto last = b.offsets[static_cast<std::size_t>(p) + 1];
        for (std::int64_t e = first; e < last; ++e) {
          const auto& entry = b.entries[static_cast<std::size_t>(e)];
          const T c = ds + entry.dist; // both below cap
          T& cell = row[static_cast<std::size_t>(entry.target)];
          cell = c < cell ? c : cell;
        }
      }
      const T hs = h.empty() ? T{0} : h[static_cast<std::size_t>(s)];
      for (std::size_t j = 0; j < cols; ++j) {
        if (row[j] >= cap)
          row[j] = cap;
        else if (!h.empty())
          row[j] = static_cast<T>(row[j] + (h[static_cast<std::size_t>(targets[j])] - hs));
      }
    }
  }
}

template <class T>
void ch_table(const contraction_hierarchy<T>& ch, const std::vector<T>& h,
              std::span<const std::int32_t> sources, std::span<const std::int32_t> targets,
              int threads, T* out, bool stall_on_demand) {
  if (sources.empty() || targets.empty())
    return;
  const ch_buckets<T> b = ch_table_buckets(ch, targets, threads, stall_on_demand);
  ch_table_rows(ch, b, h, sources, targets, threads, out, stall_on_demand);
}

#define APSP_CH_TABLE(T)                                                                           \
  template ch_buckets<T> ch_table_buckets<T>(const contraction_hierarchy<T>&,                      \
                                             std::span<const std::int32_t>, int, bool);            \
  template void ch_table_rows<T>(const contraction_hierarchy<T>&, const ch_buckets<T>&,            \
                                 const std::vector<T>&, std::span<const std::int32_t>,             \
                                 std::span<const std::int32_t>, int, T*, bool);                    \
  template void ch_table<T>(const contraction_hierarchy<T>&, const std::vector<T>&,                \
                            std::span<const std::int32_t>, std::span<const std::int32_t>, int, T*, \
                            bool);
APSP_CH_TABLE(std::int32_t)
APSP_CH_TABLE(std::int64_t)
#undef APSP_CH_TABLE

} // namespace apsp::cpu
