#pragma once
// Several GPUs of one process: the devices form a process grid of one column (tile rows dealt
// out cyclically, every device holding all columns of its rows) and run the shared round
// schedule (core/round_schedule.hpp) with the GPU executor of MPI ranks (rank_executor.hpp),
// one host thread per device. The pivot row panel goes to the other devices as peer copies
// (device_group.hpp: copy engines, NVLink where there is one), with look-ahead below
// n = 50,000; tiles are built on the devices from the edges and downloaded into the host
// matrix; checkpoints save the whole host matrix. NVLink multicast and NCCL are not used.
// Matrices larger than the devices together run out of core on all of them (out_of_core.hpp).

#include <cstdint>
#include <vector>

#include "apsp/matrix.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "core/backend.hpp"

namespace apsp::cuda {

/// The devices a solve uses: options.devices, where a negative entry means all `count`
/// devices; empty = device 0. Throws invalid_argument_error for unknown or repeated devices.
[[nodiscard]] std::vector<int> resolve_devices(const solve_options& o, int count);

/// Fills `p` for a multi-GPU solve when two or more devices are asked for; returns whether it
/// did (false: single device, the caller plans as before). When the rows do not fit on the
/// devices (or APSP_CUDA_FORCE_OUT_OF_CORE_BYTES is set), the plan is a multi-GPU out-of-core
/// one (plan_out_of_core).
bool plan_multi_gpu(plan& p, const solve_options& o, int count);

/// The devices a plan made by plan_multi_gpu runs on.
[[nodiscard]] std::vector<int> multi_gpu_devices(const plan& p, const solve_options& o, int count);

/// Whether `p` was made by plan_multi_gpu (in core, or out of core when is_out_of_core(p)).
[[nodiscard]] bool is_multi_gpu(const plan& p);

/// Runs the multi-GPU solve planned by plan_multi_gpu.
template <class T>
void solve_multi_gpu(dense_matrix<T>& d, via_matrix* via, apsp::detail::run_context& ctx,
                     int count);

extern template void solve_multi_gpu<std::int32_t>(dense_matrix<std::int32_t>&, via_matrix*,
                                                   apsp::detail::run_context&, int);
extern template void solve_multi_gpu<float>(dense_matrix<float>&, via_matrix*,
                                            apsp::detail::run_context&, int);

} // namespace apsp::cuda
