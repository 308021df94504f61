#pragma once
// The cuda back end's packed 16-bit path: an int32 distance matrix (no paths) solved in
// 16-bit lanes, two per register: the driver drivers::cuda_packed16, planned only for problems
// the core proved exact (non-negative integer weights, path lengths < 16383).

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/backend.hpp"

namespace apsp::cuda {

/// host int32 (n x n) -> device int16 (ld x ld, rows and columns < n): values >= 16383 (the
/// int32 "no path" included) become 16383. Returns when done.
void upload_packed16(const std::int32_t* host, std::int16_t* device, std::int64_t n,
                     std::int64_t ld, cudaStream_t s);
/// device int16 -> host int32, the inverse: 16383 becomes the int32 "no path". Returns when done.
void download_packed16(const std::int16_t* device, std::int32_t* host, std::int64_t n,
                       std::int64_t ld, cudaStream_t s);

} // namespace apsp::cuda

namespace apsp::detail {

/// Floyd-Warshall on h_d in packed 16-bit arithmetic on `device`, progress per round (the
/// plan's drivers::cuda_packed16).
void solve_packed16_on_device(dense_matrix<std::int32_t>& h_d, run_context& ctx, int device);

} // namespace apsp::detail
