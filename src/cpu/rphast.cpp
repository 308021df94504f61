#include "cpu/rphast.hpp"

#include <omp.h>

#include <algorithm>
#include <cstddef>

#include "apsp/error.hpp"
#include "apsp/types.hpp"
#include "cpu/downward_sweep.hpp"

namespace apsp::cpu {

template <class T>
rphast_targets<T> rphast_select(const contraction_hierarchy<T>& ch,
                                std::span<const std::int32_t> targets) {
  APSP_EXPECTS(ch.complete, internal_error, "RPHAST on an incomplete contraction hierarchy");
  rphast_targets<T> sel;
  const auto n = static_cast<std::size_t>(ch.n);
  sel.slot_of.assign(n, -1);
  // Breadth first from the targets' positions, marking with slot 0 until the closure is known.
  std::vector<std::int32_t> found;
  for (const std::int32_t t : targets) {
    const std::int32_t p = ch.position[static_cast<std::size_t>(t)];
    if (sel.slot_of[static_cast<std::size_t>(p)] < 0) {
      sel.slot_of[static_cast<std::size_t>(p)] = 0;
      found.push_back(p);
    }
  }
  for (std::size_t next = 0; next < found.size(); ++next) {
    const auto p = static_cast<std::size_t>(found[next]);
    for (std::int64_t a = ch.down_offsets[p]; a < ch.down_offsets[p + 1]; ++a) {
      const std::int32_t u = ch.down_arcs[static_cast<std::size_t>(a)].other;
      if (sel.slot_of[static_cast<std::size_t>(u)] < 0) {
        sel.slot_of[static_cast<std::size_t>(u)] = 0;
        found.push_back(u);
      }
    }
  }
  std::sort(found.begin(), found.end());
  sel.position = std::move(found);
  for (std::size_t s = 0; s < sel.position.size(); ++s)
    sel.slot_of[static_cast<std::size_t>(sel.position[s])] = static_cast<std::int32_t>(s);
  sel.down_offsets.assign(sel.position.size() + 1, 0);
  for (std::size_t s = 0; s < sel.position.size(); ++s) {
    const auto p = static_cast<std::size_t>(sel.position[s]);
    sel.down_offsets[s + 1] = sel.down_offsets[s] + (ch.down_offsets[p + 1] - ch.down_offsets[p]);
  }
  sel.down_arcs.resize(static_cast<std::size_t>(sel.down_offsets.back()));
  for (std::size_t s = 0; s < sel.position.size(); ++s) {
    const auto p = static_cast<std::size_t>(sel.position[s]);
    auto out = static_cast<std::size_t>(sel.down_offsets[s]);
    for (std::int64_t a = ch.down_offsets[p]; a < ch.down_offsets[p + 1]; ++a) {
      const ch_arc<T>& arc = ch.down_arcs[static_cast<std::size_t>(a)];
      // Every tail is in the closure: the search above followed this arc.
      sel.down_arcs[out++] = {sel.slot_of[static_cast<std::size_t>(arc.other)], arc.weight};
    }
  }
  sel.target_slot.resize(targets.size());
  for (std::size_t j = 0; j < targets.size(); ++j)
    sel.target_slot[j] =
        sel.slot_of[static_cast<std::size_t>(ch.position[static_cast<std::size_t>(targets[j])])];
  return sel;
}

template <class T>
void rphast_seeds_of(const contraction_hierarchy<T>& ch, const rphast_targets<T>& sel,
                     std::span<const std::int32_t> sources, upward_search<T>& search,
                     rphast_seeds<T>& out) {
  out.offsets.assign(1, 0);
  out.slot.clear();
  out.dist.clear();
  for (const std::int32_t s : sources) {
    search.run(ch.up_offsets, ch.up_arcs, ch.position[static_cast<std::size_t>(s)],
               &ch.down_offsets, &ch.down_arcs);
    for (const std::int32_t p : search.reached()) {
      const std::int32_t slot = sel.slot_of[static_cast<std::size_t>(p)];
      if (slot >= 0 && !search.stalled(p)) {
        out.slot.push_back(slot);
        out.dist.push_back(search.dist(p));
      }
    }
    out.offsets.push_back(static_cast<std::int64_t>(out.slot.size()));
  }
}

template <class T>
void rphast_rows(const contraction_hierarchy<T>& ch, const rphast_targets<T>& sel,
                 const std::vector<T>& h, std::span<const std::int32_t> sources,
                 std::span<const std::int32_t> target_vertex, int threads, int lanes, T* out) {
  APSP_EXPECTS(target_vertex.size() == sel.target_slot.size(), internal_error,
               "RPHAST: the targets differ from those the closure was made for");
  constexpr T cap = weight_traits<T>::infinity;
  const auto rows = static_cast<std::int64_t>(sources.size());
  const std::size_t cols = sel.target_slot.size();
  if (rows == 0 || cols == 0)
    return;
  const sweep_fn<T> sweep = downward_sweep<T>(lanes);
  const auto stride = static_cast<std::size_t>(lanes);
  const std::int64_t batches = (rows + lanes - 1) / lanes;
  const int asked = threads > 0 ? threads : omp_get_max_threads();
  const int workers =
      static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(asked, batches)));
  std::vector<T> target_potential;
  if (!h.empty()) {
    target_potential.resize(cols);
    for (std::size_t j = 0; j < cols; ++j)
      target_potential[j] = h[static_cast<std::size_t>(target_vertex[j])];
  }
  const auto slots = static_cast<std::size_t>(sel.size());
#pragma omp parallel num_threads(workers)
  {
    aligned_lanes<T> d(slots * stride);
    upward_search<T> up(ch.n, cap);
    rphast_seeds<T> found;
    std::vector<sweep_seed<T>> seeds;
    std::vector<T> hs(stride); // the batch's sources' potentials
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < batches; ++b) {
      const std::int64_t first = b * lanes;
      const auto count = static_cast<std::size_t>(std::min<std::int64_t>(lanes, rows - first));
      const auto batch = sources.subspan(static_cast<std::size_t>(first), count);
      rphast_seeds_of(ch, sel, batch, up, found);
      seeds.clear();
      for (std::size_t k = 0; k < count; ++k) {
        for (auto e = found.offsets[k]; e < found.offsets[k + 1]; ++e) {
          seeds.push_back({found.slot[static_cast<std::size_t>(e)], static_cast<std::int32_t>(k),
                           found.dist[static_cast<std::size_t>(e)]});
        }
      }
      std::sort(seeds.begin(), seeds.end(), [](const sweep_seed<T>& x, const sweep_seed<T>& y) {
        return x.position < y.position;
      });
      sweep(sweep_args<T>{sel.size(), sel.down_offsets.data(), sel.down_arcs.data(), seeds.data(),
                          seeds.size(), d.data.get(), cap});
      // Target by target: each one's lanes are one cache line, read once for the batch's rows.
      T* first_row = out + static_cast<std::size_t>(first) * cols;
      for (std::size_t k = 0; k < count; ++k)
        hs[k] = h.empty() ? T{0} : h[static_cast<std::size_t>(batch[k])];
      for (std::size_t j = 0; j < cols; ++j) {
        const T* lanes_at = d.data.get() + static_cast<std::size_t>(sel.target_slot[j]) * stride;
        const T ht = h.empty() ? T{0} : target_potential[j];
        for (std::size_t k = 0; k < count; ++k) {
          const T v = lanes_at[k];
          first_row[k * cols + j] = v >= cap ? cap : static_cast<T>(v + (ht - hs[k]));
        }
      }
    }
  }
}

#define APSP_RPHAST(T)                                                                             \
  template rphast_targets<T> rphast_select<T>(const contraction_hierarchy<T>&,                     \
                                              std::span<const std::int32_t>);                      \
  template void rphast_seeds_of<T>(const contraction_hierarchy<T>&, const rphast_targets<T>&,      \
                                   std::span<const std::int32_t>, upward_search<T>&,               \
                                   rphast_seeds<T>&);                                              \
  template void rphast_rows<T>(const contraction_hierarchy<T>&, const rphast_targets<T>&,          \
                               const std::vector<T>&, std::span<const std::int32_t>,               \
                               std::span<const std::int32_t>, int, int, T*);
APSP_RPHAST(std::int32_t)
APSP_RPHAST(std::int64_t)
#undef APSP_RPHAST

} // namespace apsp::cpu
