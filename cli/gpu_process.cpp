// The process-level GPU measures of `apsp solve` (gpu_process.hpp). Their measurements are in
// docs/dev/benchmark-log.md (the whole-run sections of one H100); the reasons are here.

#include "gpu_process.hpp"

#include <cstdlib>
#include <string>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "output.hpp"
#include "process_knobs.hpp"
#include "timer.hpp"

namespace apsp::cli {
namespace {

/// A CUDA context's start and teardown grow with its hardware work queues (the driver's
/// CUDA_DEVICE_MAX_CONNECTIONS, 8 by default). A solve on one GPU in core uses two streams
/// (the rounds and the look-ahead), so graphs that surely are one (a declared n up to
/// `few_queues_max_n`, at most one device named, no device-memory cap) ask for 2. One queue
/// starts sooner still but serialises the look-ahead, which pays only while the kernels take
/// less time than the context's start: up to `one_queue_max_n`.
constexpr std::int64_t few_queues_max_n = 20000;
constexpr std::int64_t one_queue_max_n = 10000;

/// Releasing the contexts on a thread of their own, beside the output's finish, the statistics
/// and the freeing of the solve's data, pays only when that freeing is at least as long as the
/// reset: from `early_release_bytes` of results on.
constexpr std::uint64_t early_release_bytes = std::uint64_t{256} << 20;

/// When the process's exit hands the teardown to a helper (process_exit.hpp), the helper takes
/// the reset off the command's time altogether but holds the GPU's memory a little after the
/// command ends, where a run started right after it would plan with that memory missing. So a
/// solve of `detached_release_bytes` or more (seconds long, where the reset hardly counts)
/// still releases its devices before the command ends.
constexpr std::uint64_t detached_release_bytes = std::uint64_t{8} << 30;

bool release_devices_early(std::uint64_t result_bytes, bool exit_detaches) {
  if (const auto early = knobs().release_early) // APSP_CUDA_RELEASE_EARLY (docs/tuning.md)
    return *early;
  return result_bytes >= (exit_detaches ? detached_release_bytes : early_release_bytes);
}

} // namespace

void narrow_cuda_queues(std::int64_t declared, const solve_options& o) {
  if (std::getenv("CUDA_DEVICE_MAX_CONNECTIONS") != nullptr || declared > few_queues_max_n ||
      o.devices.size() > 1 || o.device_memory_limit != 0 || o.backend == backend_kind::cpu)
    return;
  if (declared <= one_queue_max_n) {
    ::setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 0);
    trace("solve: CUDA_DEVICE_MAX_CONNECTIONS=1");
  } else {
    ::setenv("CUDA_DEVICE_MAX_CONNECTIONS", "2", 0);
    trace("solve: CUDA_DEVICE_MAX_CONNECTIONS=2");
  }
}

void refuse_unavailable_cuda(const solve_options& o) {
  if (o.backend != backend_kind::cuda)
    return;
  for (const auto& b : list_backends()) {
    if (b.kind == o.backend && !b.available) {
      throw backend_unavailable_error("back end '" + std::string(to_string(b.kind)) +
                                      "' is unavailable: " + b.detail);
    }
  }
  trace("solve: cuda back end checked");
}

std::future<void> start_gpu_warm_up(const solve_options& o, std::int64_t declared) {
  // Planning for the vertex count the file declares leaves the GPU alone when the cpu would
  // finish first (the auto back end's small-n rule); with no count declared, it assumes a
  // large graph.
  return std::async(std::launch::async, [o, declared] {
    try {
      (void)make_plan(declared, o);
    } catch (...) {
    }
  });
}

std::jthread start_prefill(const std::filesystem::path& distances, std::uint64_t distances_bytes,
                           const std::filesystem::path& paths, std::uint64_t paths_bytes) {
  return std::jthread([=](const std::stop_token& stop) {
    prefill_file(distances, distances_bytes, stop);
    if (!paths.empty())
      prefill_file(paths, paths_bytes, stop);
  });
}

std::jthread release_gpu_when_done(const result& r, std::uint64_t result_bytes,
                                   bool exit_detaches) {
  if (r.executed_plan().backend != backend_kind::cuda ||
      !release_devices_early(result_bytes, exit_detaches))
    return {};
  return std::jthread([] {
    release_devices();
    trace("solve: devices released");
  });
}

} // namespace apsp::cli
