#pragma once
// When the metrics' rows run as PHAST's sweeps on a GPU (drivers::cuda_phast,
// src/cuda/cuda_phast.cpp) instead of on the cpu's threads: the planner's test and the cost
// model behind it. Internal: not installed.

#include <cstdint>
#include <optional>

#include "apsp/graph.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "core/row_sink.hpp"

namespace apsp::detail {

/// Sources a GPU sweep takes when the tuning says none.
inline constexpr int gpu_sweep_default_lanes = 256;

/// The most device memory auto plans GPU sweeps for: the planner does not ask the device how
/// much it has, so auto stays within what any GPU it may meet holds; beyond, --backend cuda.
inline constexpr std::uint64_t gpu_auto_device_bytes = std::uint64_t{8} << 30;

/// RPHAST's table on the GPU (drivers::cuda_table): estimated seconds of a rows x cols table
/// whose targets' closure has `closure` slots, with `threads` threads for the upward searches,
/// starting the device first when `start` (the hierarchy's build, the same as the cpu's, left
/// out), and its device bytes with `lanes` sources a sweep.
[[nodiscard]] double rphast_gpu_seconds(std::int64_t closure, std::int64_t rows, std::int64_t cols,
                                        int threads, bool start) noexcept;
[[nodiscard]] std::uint64_t rphast_gpu_device_bytes(std::int64_t closure, std::int64_t cols,
                                                    int lanes) noexcept;

/// Device bytes of the GPU sweeps over n vertices whose hierarchy has about `down_arcs`
/// downward arcs, `lanes` sources a sweep and `held` rows in vertex order reduced together.
[[nodiscard]] std::uint64_t gpu_sweep_device_bytes(std::int64_t n, std::int64_t down_arcs,
                                                   int lanes, std::int64_t held) noexcept;

/// Estimated seconds of the metrics' rows over n vertices by PHAST on `threads` cpu threads,
/// and by the GPU sweeps with `threads` threads for the upward searches (the hierarchy's build,
/// the same for both, left out).
[[nodiscard]] double phast_cpu_seconds(std::int64_t n, int threads) noexcept;
[[nodiscard]] double phast_gpu_seconds(std::int64_t n, int threads) noexcept;

/// The GPU sweeps' plan for the metrics of `edges`, when: int32, `engine` is PHAST (integer
/// weights, road-like), the cuda back end (current_cuda_backend) has a device, and the options
/// ask for the cuda back end (algorithm auto or johnson) or, under auto, the cost model says
/// the GPU ends sooner than the cpu's PHAST and the sweeps need at most 8 GiB of device memory
/// (the planner does not ask the device how much it has). Empty otherwise.
[[nodiscard]] std::optional<plan> gpu_sweeps_plan(const graph& edges, const solve_options& o,
                                                  row_engine engine);

} // namespace apsp::detail
