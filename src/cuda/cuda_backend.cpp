// The cuda back end: plans against the device's free memory, keeps the padded matrix resident
// for all rounds, copies in once and out once, and reports progress per round.

#include <cuda.h> // CUresult and CUdevice only: the driver is reached through cudart
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/algorithm_choice.hpp"
#include "core/backend.hpp"
#include "core/host_memory.hpp"
#include "core/process_checkpoints.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/deferred_pivots.hpp"
#include "cuda/device_query.hpp"
#include "cuda/device_rounds.hpp"
#include "cuda/fw_driver.hpp"
#include "cuda/fw_packed16.hpp"
#include "cuda/initial_matrix.hpp"
#include "cuda/metrics_reduce.hpp"
#include "cuda/multi_gpu.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/out_of_core.hpp"
#include "cuda/packed16_solve.hpp"
#include "cuda/resources.hpp"
#include "cuda/tagged_panels.hpp"
#include "cuda/transfer.hpp"
#include "cuda/whole_matrix_start.hpp"

namespace apsp::detail {

/// Set by the first device query: release_cuda_devices has nothing to do before it.
namespace {
std::atomic<bool> cuda_started{false};
} // namespace

/// Number of devices, or an explanation of why there are none.
int device_count(std::string* why) {
  cuda_started.store(true, std::memory_order_relaxed);
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    if (why != nullptr) {
      // The runtime says "driver version is insufficient" also when there is no driver at all.
      *why = status == cudaErrorInsufficientDriver || status == cudaErrorNoDevice
                 ? std::string("no usable CUDA device: no NVIDIA driver found, or one older "
                               "than this build's CUDA runtime needs (") +
                       cudaGetErrorString(status) + ")"
                 : std::string("no usable CUDA device: ") + cudaGetErrorString(status);
    }
    return 0;
  }
  if (count == 0 && why != nullptr)
    *why = "no CUDA device found";
  return count;
}

std::string describe_device(int device) {
  cudaDeviceProp prop{};
  APSP_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
  return std::string(prop.name) + " (device " + std::to_string(device) + ", sm_" +
         std::to_string(prop.major) + std::to_string(prop.minor) + ", " +
         std::to_string(prop.multiProcessorCount) + " SMs, " + gib(prop.totalGlobalMem) + ")";
}

int chosen_device(const solve_options& o) {
  // A negative entry means "all devices" (multi_gpu.hpp); alone, that is device 0 first.
  return o.devices.empty() || o.devices.front() < 0 ? 0 : o.devices.front();
}

plan_devices find_plan_devices(plan& p, const solve_options& o) {
  std::string why;
  const plan_devices found{device_count(&why), chosen_device(o)};
  if (found.count == 0) {
    p.device = "no CUDA device";
    p.fits = false;
    p.reason = why;
    return found;
  }
  APSP_EXPECTS(found.device >= 0 && found.device < found.count, invalid_argument_error,
               "CUDA device " + std::to_string(found.device) + " does not exist (" +
                   std::to_string(found.count) + " found)");
  return found;
}

backend_status cuda_backend_status(const std::string& engine) {
  std::string why;
  if (device_count(&why) == 0)
    return {backend_kind::cuda, false, why};
  try {
    return {backend_kind::cuda, true, describe_device(0) + engine};
  } catch (const error& e) {
    return {backend_kind::cuda, false, e.what()};
  }
}

std::uint64_t usable_device_bytes(int device, const solve_options& o) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  {
    cuda::device_guard guard(device);
    APSP_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
  }
  std::uint64_t usable =
      free_bytes > cuda::device_reserve_bytes ? free_bytes - cuda::device_reserve_bytes : 0;
  if (o.device_memory_limit != 0)
    usable = std::min<std::uint64_t>(usable, o.device_memory_limit);
  const std::uint64_t forced = cuda::forced_out_of_core_bytes();
  if (forced != 0)
    usable = std::min(usable, forced);
  return usable;
}

namespace {

/// Device bytes of an in-core solve on a matrix of edge ld: the distances and, with paths, the
/// path matrix and (for 4-byte values) the tagged panels' workspace.
std::uint64_t in_core_device_bytes(std::int64_t ld, std::size_t value_bytes, bool paths) {
  const auto cells = static_cast<std::uint64_t>(ld) * static_cast<std::uint64_t>(ld);
  std::uint64_t bytes = cells * (value_bytes + (paths ? sizeof(std::int32_t) : 0));
  if (paths && value_bytes == 4)
    bytes +=
        cuda::tag_workspace_bytes(ld, ld, ld / cuda::kernels::fw_tile, cuda::tagged_panels::copies);
  return bytes;
}

using cuda::device_reserve_bytes;

/// Plans of solves that save or resume checkpoints say so in their device (display only:
/// plan::checkpointed is what the run reads).
constexpr const char* checkpointed_marker = " (checkpointed rounds)";

std::int64_t padded_edge(std::int64_t n) {
  constexpr std::int64_t b = cuda::kernels::fw_tile;
  return std::max<std::int64_t>(b, (n + b - 1) / b * b);
}

template <class T>
void solve_on_device(dense_matrix<T>& h_d, via_matrix* h_via, run_context& ctx, int device) {
  // With run_context::reduction() the matrix stays on the device and h_d is unset.
  const std::int64_t n = ctx.n();
  matrix_reduction* const reduction = ctx.reduction();
  const std::int64_t ld = padded_edge(n);
  const auto cells = static_cast<std::size_t>(ld) * static_cast<std::size_t>(ld);
  cuda::nvtx_range range("apsp::cuda::solve");
  // APSP_CUDA_VERBOSE=1: where the host's time goes, from here.
  const bool verbose = ctx.tuning().cuda_verbose;
  const auto since = [start = std::chrono::steady_clock::now()] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };

  // With the matrix built on the device, the host matrix has not been touched: its pages are
  // faulted in on other threads from the start (beside the allocations, the edges' upload and
  // the rounds), so the download copies at memory speed instead of faulting page by page
  // (costly above all in a memory-mapped output file). The path matrix is never touched by the
  // host before its download either. Solves with checkpoints write the host matrices between
  // rounds (and a resumed one loads them first): no prefault then. APSP_CUDA_PREFAULT=0: none
  // (measurements).
  const bool checkpoints = wants_checkpoints(ctx.options());
  const graph* edges = checkpoints ? nullptr : ctx.initial_edges();
  std::jthread prefault = cuda::prefault_in_background(
      h_d, h_via, edges != nullptr && reduction == nullptr && cuda::prefault_enabled());

  cuda::device_guard guard(device);
  cuda::stream s;
  cuda::device_buffer<T> d_d(cells);
  cuda::device_buffer<std::int32_t> d_via(h_via != nullptr ? cells : 0);
  const double t_allocated = since();

  // A resumed solve starts from the loaded host matrix.
  std::int32_t* via = h_via != nullptr ? h_via->data() : nullptr;
  const cuda::whole_matrix_start start(ctx, n, cuda::kernels::fw_tile, h_d.data(), via,
                                       ld / cuda::kernels::fw_tile);
  const auto& saved = start.saved;
  const bool resumed = start.first_round() > 0;
  const graph* initial = start.initial_edges();
  // Page-locked staging buffers (page-locking costs time per MiB pinned; measured:
  // docs/dev/benchmark-log.md, 'Figures from code comments'): built from the edges, one pair
  // carries the edges up and the matrices down (sized for the edges, at least a row); from a
  // host matrix, the download's pair is made on a thread while the rounds run. The download
  // makes its own if that failed.
  const std::size_t row_bytes = static_cast<std::size_t>(n) * sizeof(T);
  std::optional<cuda::staging_buffers> staging;
  std::jthread pin;
  if (initial != nullptr) {
    staging.emplace(static_cast<std::size_t>(initial->num_edges()) * cuda::staged_edge_bytes,
                    row_bytes);
    cuda::build_initial_matrix<T>(*initial, d_d.data(), ld, s.get(), &*staging);
  } else {
    cuda::upload_rows(h_d.data(), d_d.data(), sizeof(T), n, ld, s.get());
    pin = std::jthread([&staging, device, bytes = h_d.size() * sizeof(T), row_bytes] {
      try {
        if (cudaSetDevice(device) == cudaSuccess)
          staging.emplace(bytes, row_bytes);
      } catch (...) {
        staging.reset();
      }
    });
  }
  cuda::enqueue_fill_padding(d_d.data(), n, ld, s.get());
  if (h_via != nullptr) {
    // All bits set is -1 (no_via) in every int32; a resumed solve's values go over it.
    APSP_CUDA_TRY(cudaMemsetAsync(d_via.data(), 0xff, cells * sizeof(std::int32_t), s.get()));
    if (resumed)
      cuda::upload_rows(via, d_via.data(), sizeof(std::int32_t), n, ld, s.get());
  }
  const double t_built = since();

  cuda::device_problem<T> p;
  p.d = d_d.data();
  p.via = d_via.data();
  p.ld = ld;
  p.n = cuda::trimmed_vertices(n, ld);
  p.clamp = ctx.negative_weights();
  p.three_way = cuda::three_way_minima<T>(ctx.negative_weights());
  const cuda::tagged_panels tags(p, s.get(), ctx.fractional_weights()); // with paths
  // With paths, phase 3's pivots are found after the rounds where the snapshots that takes fit
  // (deferred_pivots.hpp), within a device-memory cap beside what the plan counted.
  const std::uint64_t cap = ctx.options().device_memory_limit;
  const std::uint64_t planned = in_core_device_bytes(ld, sizeof(T), h_via != nullptr);
  const cuda::deferred_pivots deferred(p,
                                       cap == 0 ? UINT64_MAX : (cap > planned ? cap - planned : 0));
  cuda::configure_kernels(p);
  const double t_configured = since();

  {
    const round_hooks hooks = saved ? saved->hooks : round_hooks{};
    const auto kernels = cuda::make_round_kernels(p);
    cuda::run_device_rounds(*kernels, s.get(), ctx, hooks, [&] {
      cuda::download_rows(d_d.data(), h_d.data(), sizeof(T), n, ld, s.get());
      if (h_via != nullptr)
        cuda::download_rows(d_via.data(), via, sizeof(std::int32_t), n, ld, s.get());
      s.synchronize();
    });
  }
  const double t_enqueued = since();
  prefault.join();
  if (pin.joinable())
    pin.join();
  const double t_prefault = since();
  if (verbose)
    s.synchronize(); // only to time the rounds apart from the downloads
  const double t_rounds = since();
  if (reduction != nullptr) {
    // The metrics: O(n) sums come back instead of the matrix.
    reduction->take(
        cuda::reduce_for_metrics(d_d.data(), ld, n, {}, 0, n, reduction->request(), s.get()));
    return;
  }
  const cuda::staging_buffers* staging_ptr = staging ? &*staging : nullptr;
  cuda::download_rows(d_d.data(), h_d.data(), sizeof(T), n, ld, s.get(), staging_ptr);
  const double t_distances = since();
  if (h_via != nullptr) {
    cuda::download_rows(d_via.data(), via, sizeof(std::int32_t), n, ld, s.get(), staging_ptr);
  }
  s.synchronize();
  if (verbose) {
    std::fprintf(stderr,
                 "apsp cuda: seconds from the solve's start: allocated %.3f, matrix built %.3f, "
                 "kernels configured %.3f, last round enqueued %.3f, prefault joined %.3f, rounds "
                 "done %.3f, distances down %.3f, paths down %.3f (staging 2 x %.1f MiB)\n",
                 t_allocated, t_built, t_configured, t_enqueued, t_prefault, t_rounds, t_distances,
                 since(), staging ? static_cast<double>(staging->bytes()) / (1 << 20) : 0.0);
  }
}

class cuda_backend final : public backend {
public:
  backend_kind kind() const noexcept override { return backend_kind::cuda; }

  backend_status status() const override { return cuda_backend_status(""); }

  plan make_plan(std::int64_t n, const solve_options& o) const override {
    APSP_EXPECTS(o.type == dtype::int32 || o.type == dtype::float32, invalid_argument_error,
                 "the cuda back end solves int32 and float32 only (asked for " +
                     std::string(to_string(o.type)) + "); use the cpu back end");
    plan p;
    p.type = o.type;
    p.n = n;
    // The kernels are built for one tile edge; a requested block size is not honoured.
    p.block = cuda::kernels::fw_tile;
    const std::int64_t ld = padded_edge(n);
    p.rounds = n == 0 ? 0 : ld / p.block;
    p.paths = o.paths;
    p.device_bytes = n == 0 ? 0 : in_core_device_bytes(ld, size_of(o.type), o.paths);
    // Required packed 16-bit runs (or is refused by the core), so it may plan half the bytes.
    if (o.narrow == narrow_mode::required && o.type == dtype::int32 && !o.paths && n > 0)
      p.device_bytes = cuda::packed16_device_bytes(ld);
    // Besides the output matrices (the core counts them): the pinned staging buffers.
    p.working_host_bytes = n == 0 ? 0 : 2 * cuda::staging_bytes;

    const auto [count, device] = find_plan_devices(p, o);
    if (count == 0)
      return p;
    p.device = describe_device(device);
    const std::uint64_t usable = usable_device_bytes(device, o);
    note_gpu_started(); // the context exists now (algorithm_choice.hpp)
    p.checkpointed = wants_checkpoints(o) && n > 0;
    // Several devices, or a matrix larger than the device (or a test forcing it): out of core.
    if (cuda::plan_multi_gpu(p, o, count)) {
      // The split and out-of-core rounds save the whole host matrix (multi_gpu.hpp,
      // out_of_core.hpp).
      if (p.checkpointed)
        p.device += checkpointed_marker;
      return p;
    }
    const std::uint64_t forced = cuda::forced_out_of_core_bytes();
    if ((p.device_bytes > usable || forced != 0) &&
        cuda::plan_out_of_core(p, p.device, usable, o, {device})) {
      if (p.checkpointed)
        p.device += checkpointed_marker;
      return p;
    }
    p.run = drivers::cuda_in_core{device};
    if (p.checkpointed)
      p.device += checkpointed_marker;
    if (p.device_bytes > usable) {
      p.fits = false;
      p.reason = "the " + std::to_string(n) + "-vertex " + std::string(to_string(o.type)) +
                 (o.paths ? " solve with paths" : " solve") + " needs " + gib(p.device_bytes) +
                 " of device memory, but only " + gib(usable) + " is usable on " + p.device +
                 " (even out of core with the smallest outer block; use the cpu back end)";
    }
    return p;
  }

  bool builds_initial_matrix(const plan& p) const override {
    // In-core solves of int32 or float32 on one device (not packed 16-bit arithmetic, which
    // takes the host matrix) or split over several: the matrix is built on the devices from
    // the edges.
    return p.fits && p.n > 0 &&
           (std::holds_alternative<drivers::cuda_in_core>(p.run) ||
            std::holds_alternative<drivers::cuda_split>(p.run)) &&
           (p.type == dtype::int32 || p.type == dtype::float32);
  }

  void plan_packed16(plan& p) const override {
    // Packed 16-bit arithmetic has no path kernels and no checkpoints (those run in int32),
    // and holds the matrix on one device.
    const auto* in_core = std::get_if<drivers::cuda_in_core>(&p.run);
    if (in_core == nullptr || p.type != dtype::int32 || p.paths || p.checkpointed || p.n == 0)
      return;
    p.run = drivers::cuda_packed16{in_core->device};
  }

  bool reduces_where_solved(const plan& p) const override {
    const bool in_core = std::holds_alternative<drivers::cuda_in_core>(p.run) ||
                         std::holds_alternative<drivers::cuda_split>(p.run);
    return in_core && p.fits && p.n > 0 && !p.paths && !p.checkpointed &&
           (p.type == dtype::int32 || p.type == dtype::float32);
  }

  void run(any_matrix& d, via_matrix* via, const plan& p, run_context& ctx) override {
    std::string why;
    const int count = device_count(&why);
    APSP_EXPECTS(count > 0, backend_unavailable_error, "back end 'cuda' is unavailable: " + why);
    APSP_EXPECTS(p.fits, out_of_memory_error, "the solve does not fit: " + p.reason);
    visit_gpu_matrix(d, ctx.n(), "the cuda back end", [&](auto& m) {
      using T = typename std::decay_t<decltype(m)>::value_type;
      APSP_EXPECTS(ctx.reduction() == nullptr || reduces_where_solved(p), internal_error,
                   "the cuda back end reduces in place only in-core plans (one GPU or split) "
                   "without paths");
      // The driver the plan chose, with its devices, block and path workspace.
      std::visit(
          [&](const auto& how) {
            using D = std::decay_t<decltype(how)>;
            if constexpr (std::is_same_v<D, drivers::cuda_out_of_core>) {
              cuda::solve_out_of_core(m, via, ctx, how.devices, p.block, how.tagged_paths);
            } else if constexpr (std::is_same_v<D, drivers::cuda_split>) {
              cuda::solve_multi_gpu(m, via, ctx, how.devices, p.block);
            } else if constexpr (std::is_same_v<D, drivers::cuda_in_core>) {
              solve_on_device(m, via, ctx, how.device);
            } else if constexpr (std::is_same_v<D, drivers::cuda_packed16> &&
                                 std::is_same_v<T, std::int32_t>) {
              APSP_EXPECTS(via == nullptr, internal_error,
                           "packed 16-bit arithmetic was planned for a solve with paths");
              solve_packed16_on_device(m, ctx, how.device);
            } else {
              throw internal_error("the cuda back end was given a plan for " + to_string(p.run));
            }
          },
          p.run);
    });
  }
};

} // namespace

std::unique_ptr<backend> make_cuda_backend() {
  return std::make_unique<cuda_backend>();
}

void release_cuda_devices() noexcept {
  if (!cuda_started.load(std::memory_order_relaxed))
    return;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  // Only devices whose primary context is active: resetting one never used would start it.
  // The driver's query comes through cudart, so the library needs no link to libcuda.
  void* get_state = nullptr;
  void* get_device = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &get_state, 12000,
                                       cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess ||
      cudaGetDriverEntryPointByVersion("cuDeviceGet", &get_device, 12000, cudaEnableDefault,
                                       &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return;
  }
  const auto primary_state = reinterpret_cast<CUresult (*)(CUdevice, unsigned*, int*)>(get_state);
  const auto device_of = reinterpret_cast<CUresult (*)(CUdevice*, int)>(get_device);
  for (int d = 0; d < count; ++d) {
    CUdevice dev{};
    unsigned flags = 0;
    int active = 0;
    if (device_of(&dev, d) != CUDA_SUCCESS || primary_state(dev, &flags, &active) != CUDA_SUCCESS ||
        active == 0)
      continue;
    if (cudaSetDevice(d) == cudaSuccess)
      (void)cudaDeviceReset();
    (void)cudaGetLastError();
  }
}

} // namespace apsp::detail
