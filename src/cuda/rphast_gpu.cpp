// RPHAST's tables on one GPU (cuda/rphast_gpu.hpp): the closure as the sweeps' structure, and
// each batch's seeds made by cpu::rphast_seeds_of on the cpu threads, a share of the batch's
// sources each, while the device sweeps the batch before (cuda/phast_table.hpp).

#include "cuda/rphast_gpu.hpp"

#include <omp.h>

#include <algorithm>
#include <string>

#include "apsp/error.hpp"
#include "apsp/types.hpp"
#include "core/algorithm_choice.hpp"
#include "core/backend.hpp"
#include "core/tuning.hpp"
#include "cpu/upward_search.hpp"
#include "cuda/device_query.hpp"
#include "cuda/nvtx.hpp"

namespace apsp::cuda {
namespace {

using hierarchy = cpu::contraction_hierarchy<std::int32_t>;
using closure = cpu::rphast_targets<std::int32_t>;

/// The upward searches of a batch's sources cut to the closure, on cpu threads (each with its
/// own search scratch and seeds, kept from batch to batch), as the sweep's seeds in lanes.
class closure_seed_maker {
public:
  closure_seed_maker(const hierarchy& ch, const closure& sel, int threads)
      : ch_(ch), sel_(sel), threads_(std::max(1, threads)) {
    searches_.reserve(static_cast<std::size_t>(threads_));
    for (int t = 0; t < threads_; ++t)
      searches_.emplace_back(ch.n, weight_traits<std::int32_t>::infinity);
    found_.resize(static_cast<std::size_t>(threads_));
  }

  /// The seeds of sources[0 .. count), source k in lane k, into `out`.
  void make(std::span<const std::int32_t> sources, int count, std::vector<sweep_seed>& out) {
    const int shares = std::min(threads_, std::max(1, count));
#pragma omp parallel for schedule(static, 1) num_threads(shares)
    for (int t = 0; t < shares; ++t) {
      const int first = static_cast<int>(static_cast<std::int64_t>(count) * t / shares);
      const int last = static_cast<int>(static_cast<std::int64_t>(count) * (t + 1) / shares);
      auto& f = found_[static_cast<std::size_t>(t)];
      cpu::rphast_seeds_of(ch_, sel_,
                           sources.subspan(static_cast<std::size_t>(first),
                                           static_cast<std::size_t>(last - first)),
                           searches_[static_cast<std::size_t>(t)], f);
    }
    out.clear();
    for (int t = 0; t < shares; ++t) {
      const auto& f = found_[static_cast<std::size_t>(t)];
      const int first = static_cast<int>(static_cast<std::int64_t>(count) * t / shares);
      for (std::size_t k = 0; k + 1 < f.offsets.size(); ++k)
        for (auto e = f.offsets[k]; e < f.offsets[k + 1]; ++e)
          out.push_back({f.slot[static_cast<std::size_t>(e)],
                         first + static_cast<std::int32_t>(k),
                         f.dist[static_cast<std::size_t>(e)]});
    }
  }

private:
  const hierarchy& ch_;
  const closure& sel_;
  int threads_;
  std::vector<cpu::upward_search<std::int32_t>> searches_;
  std::vector<cpu::rphast_seeds<std::int32_t>> found_;
};

/// The potentials of `vertices` (empty h: none).
std::vector<std::int32_t> potentials_of(const std::vector<std::int32_t>& h,
                                        std::span<const std::int32_t> vertices) {
  std::vector<std::int32_t> out;
  if (h.empty())
    return out;
  out.reserve(vertices.size());
  for (const std::int32_t v : vertices)
    out.push_back(h[static_cast<std::size_t>(v)]);
  return out;
}

} // namespace

sweep_structure structure_of(const closure& sel) {
  static_assert(sizeof(cpu::ch_arc<std::int32_t>) == 2 * sizeof(std::int32_t),
                "a closure's arc is the sweep's (tail slot, weight) pair");
  return {sel.size(), sel.down_offsets.data(),
          reinterpret_cast<const std::int32_t*>(sel.down_arcs.data())};
}

void rphast_table_on_gpu(const hierarchy& ch, const closure& sel,
                         const std::vector<std::int32_t>& h, std::span<const std::int32_t> sources,
                         std::span<const std::int32_t> targets, const gpu_sweep_config& cfg,
                         std::int32_t* out) {
  nvtx_range range("apsp::cuda::rphast_table");
  APSP_EXPECTS(ch.complete, internal_error, "GPU sweeps of an incomplete contraction hierarchy");
  APSP_EXPECTS(targets.size() == sel.target_slot.size(), internal_error,
               "RPHAST: the targets differ from those the closure was made for");
  for (const std::int32_t s : sources)
    APSP_EXPECTS(s >= 0 && s < ch.n, invalid_argument_error,
                 "source " + std::to_string(s) + " is not a vertex");
  const auto rows = static_cast<std::int64_t>(sources.size());
  const auto cols = static_cast<std::int64_t>(targets.size());
  if (rows == 0 || cols == 0)
    return;
  const std::vector<std::int32_t> th = potentials_of(h, targets);
  const std::vector<std::int32_t> sh = potentials_of(h, sources);
  closure_seed_maker up(ch, sel, cfg.threads);
  const seed_source seeds = [&up, sources](std::int64_t first, int count,
                                           std::vector<sweep_seed>& found) {
    up.make(sources.subspan(static_cast<std::size_t>(first)), count, found);
  };
  sweep_table_on_gpu(structure_of(sel), seeds, rows, sel.target_slot.data(),
                     th.empty() ? nullptr : th.data(), cols, sh.empty() ? nullptr : sh.data(),
                     cfg, out);
}

} // namespace apsp::cuda

namespace apsp::detail {

void rphast_rows_on_gpu(const cpu::contraction_hierarchy<std::int32_t>& ch,
                        const cpu::rphast_targets<std::int32_t>& sel,
                        const std::vector<std::int32_t>& h, std::span<const std::int32_t> sources,
                        std::span<const std::int32_t> targets, const drivers::cuda_table& how,
                        std::int32_t* out) {
  std::string why;
  APSP_EXPECTS(device_count(&why) > 0, backend_unavailable_error,
               "back end 'cuda' is unavailable: " + why);
  cuda::gpu_sweep_config cfg;
  cfg.device = how.device;
  cfg.lanes = how.lanes;
  cfg.threads = how.threads;
  cfg.launch_graph = current_tuning().cuda_phast_graph;
  cuda::rphast_table_on_gpu(ch, sel, h, sources, targets, cfg, out);
  note_gpu_started(); // the context exists now: later plans leave its start out
}

} // namespace apsp::detail
