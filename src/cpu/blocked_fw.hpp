#pragma once
// The blocked Floyd-Warshall orchestration: rounds, phases, packing and threads. The arithmetic
// lives in the per-ISA tile routines (tile_ops.hpp).

#include <cstddef>
#include <cstdint>

#include "apsp/matrix.hpp"
#include "core/backend.hpp"
#include "cpu/cpu_isa.hpp"

namespace apsp::detail::cpu {

struct blocked_config {
  std::int64_t block = 0; ///< tile edge, >= 1
  int threads = 1;
  isa kernels = isa::scalar;
};

/// Row stride, in elements, of packed tiles for tile edge `block`.
[[nodiscard]] std::int64_t packed_stride(std::int64_t block, std::size_t element_size) noexcept;

/// Bytes the solve allocates besides the distance and via matrices.
[[nodiscard]] std::uint64_t workspace_bytes(std::int64_t n, std::int64_t block, int threads,
                                            std::size_t element_size, bool paths) noexcept;

/// Floyd-Warshall in place on `d`, filling every element of `via` when it is non-null. Calls
/// ctx.round_done after each of the ceil(n / block) rounds (which may throw cancelled_error).
template <class T>
void blocked_floyd_warshall(dense_matrix<T>& d, via_matrix* via, const blocked_config& cfg,
                            run_context& ctx);

} // namespace apsp::detail::cpu
