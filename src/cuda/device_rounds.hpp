#pragma once
// One GPU holding the whole matrix, as the 1 x 1 grid of the shared round schedule
// (core/round_schedule.hpp): the in-core driver and packed 16-bit mode say which kernels make
// up each step (round_kernels); run_device_rounds orders them on a stream, with the schedule's
// look-ahead, progress, cancel and checkpoints (core/round_control.hpp). With look-ahead, round
// r's tiles of row and column r + 1 and then round r + 1's pivot and panels run on a second,
// high-priority stream while the rest of round r's update runs beside them, so the short
// next-lines step fills no wave of its own and the latency-bound phases 1 and 2 hide behind
// phase 3 (the GPU-cluster scheme of ../shared/BRIEF.md, inside one GPU). Host-only header.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>

#include "core/backend.hpp"
#include "core/round_control.hpp"
#include "core/round_schedule.hpp"
#include "cuda/round_kernels.hpp"

namespace apsp::cuda {

/// Runs rounds [hooks.first_round, k.rounds()) on stream s of the current device, with
/// look-ahead when hooks.lookahead and k splits its updates (APSP_CUDA_LOOKAHEAD=0: never). The
/// host stays at most two rounds ahead of the device, so progress is current and a cancel lands
/// within two rounds. `current` makes the host matrix current (before a checkpoint is saved).
/// Failures and cancels are thrown after the device has finished what was enqueued; work enqueued
/// on s afterwards comes after every round.
void run_device_rounds(round_kernels& k, cudaStream_t s, apsp::detail::run_context& ctx,
                       const apsp::detail::round_hooks& hooks,
                       const std::function<void()>& current);

} // namespace apsp::cuda
