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
/// did (false: single device, the caller plans as before). Its driver is drivers::cuda_split
/// (tile rows over the devices that have some, tile edge p.block) or, when the rows do not fit
/// on the devices (or APSP_CUDA_FORCE_OUT_OF_CORE_BYTES is set), drivers::cuda_out_of_core on
/// all of them (plan_out_of_core).
bool plan_multi_gpu(plan& p, const solve_options& o, int count);

/// Runs a drivers::cuda_split plan: tile rows of edge `block` dealt out over `devices`.
template <class T>
void solve_multi_gpu(dense_matrix<T>& d, via_matrix* via, apsp::detail::run_context& ctx,
                     const std::vector<int>& devices, std::int64_t block);

extern template void solve_multi_gpu<std::int32_t>(dense_matrix<std::int32_t>&, via_matrix*,
                                                   apsp::detail::run_context&,
                                                   const std::vector<int>&, std::int64_t);
extern template void solve_multi_gpu<float>(dense_matrix<float>&, via_matrix*,
                                            apsp::detail::run_context&, const std::vector<int>&,
                                            std::int64_t);

} // namespace apsp::cuda
