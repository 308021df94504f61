#pragma once
// The cpu executor of the blocked Floyd-Warshall round schedule (core/round_schedule.hpp): a
// team of threads working on one process's tiles, packing them for the per-ISA tile routines
// (tile_ops.hpp). One process (the cpu back end) is the 1 x 1 grid; an MPI rank passes its
// layout and communicator (src/mpi).

#include <cstddef>
#include <cstdint>

#include "apsp/matrix.hpp"
#include "core/backend.hpp"
#include "core/round_control.hpp"
#include "core/round_schedule.hpp"
#include "cpu/cpu_isa.hpp"

namespace apsp::detail::cpu {

struct blocked_config {
  std::int64_t block = 0; ///< tile edge, >= 1
  int threads = 1;
  isa kernels = isa::scalar;
  /// MPI ranks: the threads of the ranks that may run on this one's CPUs are no more than
  /// those CPUs, so the team may spin at its barriers (team_barrier::spins_for) instead of
  /// sleeping at once.
  bool threads_fit = false;
};

using detail::local_tiles;
using detail::round_hooks;

/// Row stride, in elements, of packed tiles for tile edge `block`.
[[nodiscard]] std::int64_t packed_stride(std::int64_t block, std::size_t element_size) noexcept;

/// Bytes the solve allocates besides the distance and via values, for `tile_rows` x
/// `tile_cols` local tiles (look-ahead keeps two sets of snapshots).
[[nodiscard]] std::uint64_t workspace_bytes(std::int64_t tile_rows, std::int64_t tile_cols,
                                            std::int64_t block, int threads,
                                            std::size_t element_size, bool paths,
                                            bool lookahead) noexcept;
/// The same for the whole matrix on one process.
[[nodiscard]] std::uint64_t workspace_bytes(std::int64_t n, std::int64_t block, int threads,
                                            std::size_t element_size, bool paths) noexcept;

/// Floyd-Warshall on this process's tiles, all processes of `comm` together. Calls
/// ctx.round_done after each round; a cancel there (or on another process) throws
/// cancelled_error on every process after the round, once a checkpoint is saved.
template <class T>
void blocked_floyd_warshall(const local_tiles<T>& tiles, grid_comm& comm, const blocked_config& cfg,
                            run_context& ctx, const round_hooks& hooks);

/// One process, the whole matrix: fills every element of `via` when it is non-null.
template <class T>
void blocked_floyd_warshall(dense_matrix<T>& d, via_matrix* via, const blocked_config& cfg,
                            run_context& ctx, const round_hooks& hooks = {});

} // namespace apsp::detail::cpu
