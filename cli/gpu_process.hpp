#pragma once
// The process-level GPU measures of `apsp solve` in one process, apart from the command's
// validate -> read -> plan -> solve -> write: fewer CUDA work queues for graphs that are surely
// one GPU in core, the GPU's context started while the input is read, the output file's pages
// prefilled while that context starts, and the devices released on a thread of their own once a
// large solve is done (the process's exit: process_exit.hpp).

#include <cstdint>
#include <filesystem>
#include <future>
#include <thread>

#include "apsp/options.hpp"
#include "apsp/result.hpp"

namespace apsp::cli {

/// The vertex count the CUDA warm-up plans for when the file declares none: large enough that
/// the GPU is worth starting.
inline constexpr std::int64_t unknown_n = 100000;

/// Before CUDA starts: asks for 1 or 2 hardware work queues (CUDA_DEVICE_MAX_CONNECTIONS)
/// where the graph (its declared vertex count) is surely solved on one GPU in core, unless the
/// variable is set.
void narrow_cuda_queues(std::int64_t declared, const solve_options& o);

/// A named cuda back end that cannot run is refused before a long read (a cheap query); other
/// back ends are not asked (asking starts CUDA's driver, which a cpu run must not pay).
void refuse_unavailable_cuda(const solve_options& o);

/// Plans for the declared vertex count on a thread, so that the GPU's context (a few hundred
/// ms) starts while the input is read. Its failures are ignored: the real plan reports them.
[[nodiscard]] std::future<void> start_gpu_warm_up(const solve_options& o, std::int64_t declared);

/// Writes the pages of the output files the solve will work in (`paths` may be empty) into the
/// page cache on a thread, until stopped.
[[nodiscard]] std::jthread start_prefill(const std::filesystem::path& distances,
                                         std::uint64_t distances_bytes,
                                         const std::filesystem::path& paths,
                                         std::uint64_t paths_bytes);

/// After a solve: a thread that releases the GPU's contexts at once when it ran on cuda and its
/// result is large enough for that to pay (none otherwise; `exit_detaches`: the process's exit
/// hands its teardown to a helper).
[[nodiscard]] std::jthread release_gpu_when_done(const result& r, std::uint64_t result_bytes,
                                                 bool exit_detaches);

} // namespace apsp::cli
