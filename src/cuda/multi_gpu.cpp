// The multi-GPU driver (see multi_gpu.hpp): planning, and the devices as a process grid of GPU
// executors on the shared round schedule.

#include "cuda/multi_gpu.hpp"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>

#include "apsp/error.hpp"
#include "core/host_memory.hpp"
#include "core/process_checkpoints.hpp"
#include "core/tuning.hpp"
#include "cuda/block_ops.hpp"
#include "cuda/device_group.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/out_of_core.hpp"
#include "cuda/rank_executor.hpp"
#include "cuda/resources.hpp"
#include "cuda/whole_matrix_start.hpp"

namespace apsp::cuda {
namespace {

constexpr std::int64_t tile = kernels::fw_tile;
constexpr const char* marker = "(multi-GPU";

using apsp::detail::gib;

/// The tile edge of an in-core split: 256, 512 from n = 60,000 on (2 GPU ranks on 2x H200,
/// docs/distributed.md: 256 was fastest at n = 40,000, 512 at n = 80,000).
std::int64_t split_block(std::int64_t n) {
  return n < 60000 ? 256 : 512;
}

/// Device d's layout among `used`: tile rows dealt out cyclically, all columns.
apsp::detail::grid_layout layout_of(std::int64_t n, int used, int d) {
  apsp::detail::grid_layout L;
  L.n = n;
  L.b = split_block(n);
  L.rows = used;
  L.row = d;
  return L;
}

/// Look-ahead of the split's rounds: as for GPU ranks on one node (mpi/distributed.cpp), on
/// below n = 50,000, where it hides the short rounds' pivot and panel steps, off above, where
/// splitting the product costs more; APSP_CUDA_LOOKAHEAD=0 or 1 decides instead.
bool split_lookahead(std::int64_t n) {
  if (const auto on = apsp::detail::current_tuning().cuda_lookahead)
    return *on;
  return n < 50000;
}

/// "0,1,...": the first `count` devices.
std::string device_list(const std::vector<int>& devices, int count) {
  std::string list;
  for (int i = 0; i < count; ++i) {
    if (i > 0)
      list.push_back(',');
    list.append(std::to_string(devices[static_cast<std::size_t>(i)]));
  }
  return list;
}

/// `--devices all` splits an in-core matrix only from this n on: below it the per-round pivot
/// row exchange and the synchronisation cost more than the second GPU saves. In whole runs on
/// two GPUs the split was slower than one GPU below this n, about even at it (with the ranks'
/// prefault, rank_executor.cpp) and clearly faster above (measured: docs/dev/benchmark-log.md,
/// 'Figures from code comments'). An explicit device list is always honoured.
constexpr std::int64_t all_devices_min_n = 30000;

bool asks_for_all(const solve_options& o) {
  return std::any_of(o.devices.begin(), o.devices.end(), [](int d) { return d < 0; });
}

/// APSP_CUDA_FORCE_MULTI_GPU (tests): the multi-GPU driver runs even for one listed device,
/// and a device may be listed twice, so its exchange logic runs on a single GPU.
bool forced_multi_gpu() {
  return apsp::detail::current_tuning().cuda_force_multi_gpu;
}

} // namespace

std::vector<int> resolve_devices(const solve_options& o, int count) {
  std::vector<int> out;
  for (int d : o.devices) {
    if (d < 0) {
      out.clear();
      for (int i = 0; i < count; ++i)
        out.push_back(i);
      return out;
    }
    APSP_EXPECTS(d < count, invalid_argument_error,
                 "CUDA device " + std::to_string(d) + " does not exist (" + std::to_string(count) +
                     " found)");
    APSP_EXPECTS(forced_multi_gpu() || std::find(out.begin(), out.end(), d) == out.end(),
                 invalid_argument_error, "CUDA device " + std::to_string(d) + " is listed twice");
    out.push_back(d);
  }
  if (out.empty())
    out.push_back(0);
  return out;
}

bool plan_multi_gpu(plan& p, const solve_options& o, int count) {
  const std::vector<int> devices = resolve_devices(o, count);
  if ((devices.size() < 2 && !(forced_multi_gpu() && !o.devices.empty())) || p.n == 0)
    return false;
  if (asks_for_all(o) && p.n < all_devices_min_n && forced_out_of_core_bytes() == 0) {
    // One device, if the matrix fits there (the caller plans it); else the split below.
    const std::size_t cell = size_of(p.type) + (p.paths ? 4 : 0);
    const auto need = static_cast<std::uint64_t>(round_up(p.n, tile)) *
                      static_cast<std::uint64_t>(round_up(p.n, tile)) * cell;
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    {
      device_guard guard(devices.front());
      APSP_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    }
    std::uint64_t usable =
        free_bytes > device_reserve_bytes ? free_bytes - device_reserve_bytes : 0;
    if (o.device_memory_limit != 0)
      usable = std::min<std::uint64_t>(usable, o.device_memory_limit);
    if (need <= usable)
      return false;
  }
  const std::int64_t block = split_block(p.n);
  const std::int64_t tiles = (p.n + block - 1) / block;
  const int used =
      static_cast<int>(std::min<std::int64_t>(tiles, static_cast<std::int64_t>(devices.size())));
  const std::size_t elem = size_of(p.type);
  cudaDeviceProp prop{};
  APSP_CUDA_TRY(cudaGetDeviceProperties(&prop, devices.front()));
  p.device = std::to_string(used) + "x " + prop.name + " " + marker + ", devices " +
             device_list(devices, used) + ", tile rows split)";
  p.devices = used;
  p.run = drivers::cuda_split{
      std::vector<int>(devices.begin(), devices.begin() + static_cast<std::ptrdiff_t>(used))};
  p.block = block;
  p.rounds = tiles;
  p.device_bytes = 0;
  p.fits = true;
  p.reason.clear();
  std::uint64_t least_usable = ~std::uint64_t{0};
  for (int i = 0; i < used; ++i) {
    const int dev = devices[static_cast<std::size_t>(i)];
    const std::uint64_t need = rank_executor_bytes(layout_of(p.n, used, i), elem, p.paths);
    p.device_bytes = std::max(p.device_bytes, need);
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    {
      device_guard guard(dev);
      APSP_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    }
    std::uint64_t usable =
        free_bytes > device_reserve_bytes ? free_bytes - device_reserve_bytes : 0;
    if (o.device_memory_limit != 0)
      usable = std::min<std::uint64_t>(usable, o.device_memory_limit);
    least_usable = std::min(least_usable, usable);
    if (need > usable && p.fits) {
      p.fits = false;
      p.reason = "device " + std::to_string(dev) + " needs " + gib(need) + " for its rows but " +
                 gib(usable) + " is usable";
    }
  }
  // Larger than the devices together (or a test forcing it): every device streams tiles out of
  // core, block rows dealt out among them (out_of_core.hpp).
  const std::uint64_t forced = forced_out_of_core_bytes();
  if (p.fits && forced == 0)
    return true;
  if (forced != 0)
    least_usable = std::min(least_usable, forced);
  plan ooc = p;
  const int all = static_cast<int>(devices.size());
  const std::string label = std::to_string(all) + "x " + prop.name + " " + marker + ", devices " +
                            device_list(devices, all) + ")";
  if (plan_out_of_core(ooc, label, least_usable, o, devices)) {
    p = ooc;
  } else {
    p.reason += " (even out of core with the smallest outer block)";
  }
  return true;
}

template <class T>
void solve_multi_gpu(dense_matrix<T>& h_d, via_matrix* h_via, apsp::detail::run_context& ctx,
                     const std::vector<int>& devices, std::int64_t block) {
  using apsp::detail::round_hooks;
  // With run_context::reduction() the devices reduce their rows and h_d is unset.
  const std::int64_t n = ctx.n();
  if (n == 0 || devices.empty())
    return;
  APSP_EXPECTS(static_cast<std::int64_t>(devices.size()) <= (n + block - 1) / block,
               internal_error, "a split plan has a device without tile rows");
  const int used = static_cast<int>(devices.size());
  std::int32_t* via = h_via != nullptr ? h_via->data() : nullptr;
  apsp::detail::weight_facts weights;
  weights.has_negative = ctx.negative_weights();
  weights.has_fraction = ctx.fractional_weights();
  nvtx_range range("apsp::cuda::solve (multi-GPU)");
  device_guard keep(devices.front()); // the caller's device again afterwards

  // Checkpoints hold the whole host matrix: every device makes its rows current there (the
  // executors' download before a save), then device 0's commit saves and commits it, once all
  // of them have.
  whole_matrix_start start(ctx, n, block, h_d.data(), via, (n + block - 1) / block);
  auto& saved = start.saved;
  const std::int64_t first_round = start.first_round();
  // Built on the devices from the edges, or uploaded (a filled or resumed host matrix).
  const graph* initial = start.initial_edges();
  if (via != nullptr && initial == nullptr && first_round == 0)
    std::fill(via, via + h_via->size(), no_via);
  std::vector<round_hooks> hooks(static_cast<std::size_t>(used));
  for (auto& h : hooks) {
    h.first_round = first_round;
    h.lookahead = split_lookahead(n);
    if (saved && saved->hooks.save)
      h.save = [](std::int64_t) {};
  }
  if (saved && saved->hooks.save) {
    hooks[0].save_due = saved->hooks.save_due;
    hooks[0].commit = [&](std::int64_t done) {
      saved->hooks.save(done);
      saved->hooks.commit(done);
    };
  }
  // Progress and cancelling from device 0's thread only.
  solve_options quiet = ctx.options();
  quiet.progress = nullptr;

  device_group group(used, 1, devices);
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(used));
  std::vector<std::thread> threads;
  for (int i = 0; i < used; ++i) {
    threads.emplace_back([&, i] {
      const auto at = static_cast<std::size_t>(i);
      apsp::detail::grid_comm& comm = group.comm(i);
      apsp::detail::run_context own(quiet, n, ctx.negative_weights());
      own.set_reduction(ctx.reduction());
      try {
        const device_guard on(devices[at]);
        std::unique_ptr<rank_gpu<T>> gpu;
        std::uint32_t made = apsp::detail::go_on;
        try {
          const apsp::detail::local_tiles<T> tiles{layout_of(n, used, i), h_d.data(), via};
          gpu = make_rank_gpu<T>(devices[at], tiles, weights, initial, /*whole_host=*/true);
        } catch (...) {
          errors[at] = std::current_exception();
          made = apsp::detail::stop_now;
        }
        // Every device's rows are ready, or none starts.
        if (comm.all_or(made) != apsp::detail::go_on)
          return;
        gpu->run(comm, i == 0 ? ctx : own, hooks[at]);
      } catch (...) {
        if (!errors[at])
          errors[at] = std::current_exception();
      }
    });
  }
  for (auto& t : threads)
    t.join();
  // The cause, not the others' "stopped": a failed copy, else a failure other than a cancel.
  for (int i = 0; i < used; ++i) {
    if (std::exception_ptr f = group.failure(i))
      std::rethrow_exception(f);
  }
  std::exception_ptr first;
  for (const auto& e : errors) {
    if (!e)
      continue;
    try {
      std::rethrow_exception(e);
    } catch (const cancelled_error&) {
      if (!first)
        first = e;
    } catch (...) {
      throw;
    }
  }
  if (first)
    std::rethrow_exception(first);
}

template void solve_multi_gpu<std::int32_t>(dense_matrix<std::int32_t>&, via_matrix*,
                                            apsp::detail::run_context&, const std::vector<int>&,
                                            std::int64_t);
template void solve_multi_gpu<float>(dense_matrix<float>&, via_matrix*, apsp::detail::run_context&,
                                     const std::vector<int>&, std::int64_t);

} // namespace apsp::cuda
