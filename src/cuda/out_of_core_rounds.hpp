#pragma once
// The rounds of the out-of-core solve (out_of_core.hpp) as an executor of the shared round
// schedule (core/round_schedule.hpp): pivot = every device copies the pivot panels in and
// closes the pivot block, panels = every device updates its panels and the first one copies
// them home, update = the devices stream the other tiles and the host takes a share, round_end
// = the host stays at most two rounds ahead, then progress, checkpoints and stops
// (core/round_control.hpp). No look-ahead: one process, nothing travels between processes.

#include <cstdint>
#include <vector>

#include "core/backend.hpp"
#include "core/round_control.hpp"

namespace apsp::cuda {

/// Phase-3 tiles in flight per device: one copying in, one computing, one copying out.
inline constexpr int out_of_core_slots = 3;

/// Rounds [hooks.first_round, ceil(n / bo)) of the out-of-core solve of the host matrix h
/// (n x n, row-major; with the via matrix hv when non-null) on `devices`, outer block bo;
/// `tagged`: the plan has room for the tagged-slice workspaces. The host matrices are current
/// before every checkpoint and when it returns; a cancel or failure is thrown at the end, after
/// the checkpoint it asks for.
template <class T>
void run_out_of_core_rounds(T* h, std::int32_t* hv, std::int64_t n, apsp::detail::run_context& ctx,
                            const apsp::detail::round_hooks& hooks, const std::vector<int>& devices,
                            std::int64_t bo, bool tagged);

extern template void run_out_of_core_rounds<std::int32_t>(std::int32_t*, std::int32_t*,
                                                          std::int64_t, apsp::detail::run_context&,
                                                          const apsp::detail::round_hooks&,
                                                          const std::vector<int>&, std::int64_t,
                                                          bool);
extern template void run_out_of_core_rounds<float>(float*, std::int32_t*, std::int64_t,
                                                   apsp::detail::run_context&,
                                                   const apsp::detail::round_hooks&,
                                                   const std::vector<int>&, std::int64_t, bool);

} // namespace apsp::cuda
