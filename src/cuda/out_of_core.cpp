// The out-of-core driver (see out_of_core.hpp): planning, and the solve around its rounds
// (out_of_core_rounds.hpp): checkpoints, the via matrix's start, page-locking.

#include "cuda/out_of_core.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/checkpoint.hpp"
#include "core/host_memory.hpp"
#include "core/process_checkpoints.hpp"
#include "core/tuning.hpp"
#include "cuda/block_ops.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/out_of_core_rounds.hpp"
#include "cuda/resources.hpp"
#include "cuda/tagged_panels.hpp"

namespace apsp::cuda {
namespace {

constexpr std::int64_t tile = kernels::fw_tile;
constexpr int slots = out_of_core_slots;
/// Deeper outer blocks add little once the rounds are compute-bound (see out_of_core.hpp).
constexpr std::int64_t max_outer_block = 4096;
constexpr const char* marker = "(out-of-core, outer block ";

/// The largest outer block from `top` down to `bottom` (multiples of the tile edge) whose
/// buffers fit in `usable` bytes, 0 when none does. The workspaces are small next to the panels
/// except at the smallest blocks: drop them only when nothing fits with them.
std::int64_t largest_fitting_block(std::int64_t n, std::size_t elem_bytes, bool paths,
                                   std::uint64_t usable, std::int64_t top, std::int64_t bottom,
                                   bool* tagged) {
  for (const bool with_tags : {paths, false}) {
    for (std::int64_t bo = top; bo >= bottom; bo -= tile) {
      if (out_of_core_device_bytes(n, bo, elem_bytes, paths, with_tags) <= usable) {
        if (tagged != nullptr)
          *tagged = with_tags;
        return bo;
      }
    }
  }
  return 0;
}

} // namespace

std::uint64_t out_of_core_device_bytes(std::int64_t n, std::int64_t bo, std::size_t elem_bytes,
                                       bool paths, bool tagged) {
  const auto ldp = static_cast<std::uint64_t>(round_up(n, bo));
  const auto b = static_cast<std::uint64_t>(bo);
  // Row and column panels, the pivot block and the phase-3 tiles; with paths the same again in
  // int32 plus the pivot block's local via, and the tagged slices of the products.
  const std::uint64_t cells = 2 * b * ldp + (1 + slots) * b * b;
  const std::uint64_t tags = paths && tagged
                                 ? tag_workspace_bytes(static_cast<std::int64_t>(ldp),
                                                       static_cast<std::int64_t>(ldp), bo / tile) +
                                       slots * tag_workspace_bytes(bo, bo, bo / tile)
                                 : 0;
  return cells * (elem_bytes + (paths ? 4 : 0)) + (paths ? 4 * b * b : 0) + tags;
}

std::int64_t choose_outer_block(std::int64_t n, std::size_t elem_bytes, bool paths,
                                std::uint64_t usable, bool* tagged) {
  const std::int64_t top = std::min(max_outer_block, round_up(std::max<std::int64_t>(n, 1), tile));
  return largest_fitting_block(n, elem_bytes, paths, usable, top, tile, tagged);
}

std::uint64_t forced_out_of_core_bytes() {
  return apsp::detail::current_tuning().cuda_force_out_of_core_bytes;
}

bool plan_out_of_core(plan& p, const std::string& device_label, std::uint64_t usable,
                      const solve_options& o, const std::vector<int>& devices) {
  const std::size_t elem = size_of(p.type);
  bool tagged = false;
  std::int64_t bo = choose_outer_block(p.n, elem, p.paths, usable, &tagged);
  if (bo == 0 || p.n == 0)
    return false;
  if (!o.resume_dir.empty()) {
    // The checkpoint was saved with its own outer block (part of its identity), chosen from the
    // free memory then: keep it where its buffers fit; otherwise the resume names the
    // difference.
    const std::int64_t saved = apsp::detail::checkpoint_store::saved_block(o.resume_dir);
    if (saved > 0 && saved % tile == 0) {
      bool saved_tagged = false;
      if (largest_fitting_block(p.n, elem, p.paths, usable, saved, saved, &saved_tagged) == saved) {
        bo = saved;
        tagged = saved_tagged;
      }
    }
  }
  p.block = bo;
  p.rounds = (p.n + bo - 1) / bo;
  p.device_bytes = out_of_core_device_bytes(p.n, bo, elem, p.paths, tagged);
  // The matrices stay in host memory (RAM or their memory-mapped files): the core counts them.
  p.working_host_bytes = 0;
  p.device = device_label + " " + marker + std::to_string(bo) + ")";
  p.run = drivers::cuda_out_of_core{devices, p.paths && tagged};
  p.fits = true;
  p.reason.clear();
  return true;
}

template <class T>
void solve_out_of_core(dense_matrix<T>& h_d, via_matrix* h_via, apsp::detail::run_context& ctx,
                       const std::vector<int>& devices, std::int64_t bo, bool tagged) {
  const std::int64_t n = h_d.n();
  if (n == 0 || devices.empty())
    return;
  const std::int64_t blocks = (n + bo - 1) / bo;
  const bool paths = h_via != nullptr;
  nvtx_range range("apsp::cuda::solve (out-of-core)");
  device_guard keep(devices.front()); // restores the caller's device after the teardown below

  T* h = h_d.data();
  std::int32_t* hv = paths ? h_via->data() : nullptr;
  // Checkpoints hold the whole host matrices; a resumed solve loads them here.
  apsp::detail::process_checkpoints saved(ctx, n, bo, h, hv, blocks);
  if (paths && saved.hooks.first_round == 0) {
    // Every entry must start as "direct edge"; the device only writes entries that improve.
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i)
      std::fill(hv + i * n, hv + (i + 1) * n, no_via);
  }

  // The rounds' devices are released before the host memory is unpinned.
  // Page-locking in place (portable: for every device) lets every tile copy run asynchronously
  // at full speed without a host copy (each round moves the matrix twice).
  // APSP_CUDA_OOC_NO_PIN=1 skips it (pageable copies, for comparison); APSP_CUDA_VERBOSE=1
  // prints what it cost.
  const bool pin = ctx.tuning().cuda_ooc_pin;
  const auto pin_start = std::chrono::steady_clock::now();
  host_registration pin_d(pin ? h : nullptr, h_d.size() * sizeof(T));
  host_registration pin_v(pin ? hv : nullptr, paths ? h_via->size() * sizeof(std::int32_t) : 0);
  if (ctx.tuning().cuda_verbose) {
    const double sec =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - pin_start).count();
    std::fprintf(stderr,
                 "apsp cuda out-of-core: n=%lld, outer block %lld, %lld rounds, %d device(s); "
                 "host matrices %s in %.3f s\n",
                 static_cast<long long>(n), static_cast<long long>(bo),
                 static_cast<long long>(blocks), static_cast<int>(devices.size()),
                 pin_d.pinned() ? "page-locked" : "pageable (not page-locked)", sec);
  }
  run_out_of_core_rounds(h, hv, n, ctx, saved.hooks, devices, bo, tagged);
}

template void solve_out_of_core<std::int32_t>(dense_matrix<std::int32_t>&, via_matrix*,
                                              apsp::detail::run_context&, const std::vector<int>&,
                                              std::int64_t, bool);
template void solve_out_of_core<float>(dense_matrix<float>&, via_matrix*,
                                       apsp::detail::run_context&, const std::vector<int>&,
                                       std::int64_t, bool);

} // namespace apsp::cuda
