#pragma once
// Device code used only by the CUDA benchmarks (built by nvcc apart from apsp): the min-plus
// peak microbenchmark and the two baselines we quote speedups against.

#include <cuda_runtime_api.h>

#include <cstdint>

namespace apsp::bench {

/// float32_three_way: two sums and one DPX three-way minimum of their bit patterns per two
/// updates, as the float32 products without negative weights run (min_plus_chunk).
enum class peak_op { int32_dpx, float32, int16x2_dpx, float32_three_way };

/// Updates per second of `op` at the arithmetic limit (median of `repeats` timed launches).
double measure_minplus_peak(peak_op op, int repeats, cudaStream_t s);

/// Harish & Narayanan: one launch per pivot k, one thread per (i, j). d is n x n, row-major.
/// Returns kernel milliseconds (CUDA events).
float naive_fw_ms(std::int32_t* d, std::int64_t n, cudaStream_t s);

/// Blocked FW with 32 x 32 tiles and one element per thread in all three phases (the classic
/// Katz & Kider / Lund & Smith layout). d is ld x ld with ld a multiple of 32, padding infinite.
float blocked32_fw_ms(std::int32_t* d, std::int64_t ld, cudaStream_t s);

} // namespace apsp::bench
