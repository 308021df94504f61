#pragma once
// Several GPUs of one process: tile rows of the padded matrix are split among the devices, each
// keeps its rows resident. Per 128-wide round r, the owner of tile row r closes the pivot tile
// and its row panel, every other device pulls that pivot row (128 x ld) with a peer copy (the
// driver stages through the host when peer access is off), and each device updates its part of
// the pivot column and then the rest of its rows. One stream per device; events order the
// exchange, so no host synchronisation sits between rounds. NVLink multicast and NCCL are not
// used. Matrices larger than the devices together run out of core on all of them
// (out_of_core.hpp).

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
