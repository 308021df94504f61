#pragma once
// The cpu executor of the blocked Floyd-Warshall round schedule (core/round_schedule.hpp): a
// team of threads working on one process's tiles, packing them for the per-ISA tile routines
// (tile_ops.hpp). One process (the cpu back end) is the 1 x 1 grid; an MPI rank passes its
// layout and communicator (src/mpi).

#include <cstddef>
#include <cstdint>
#include <functional>

#include "apsp/matrix.hpp"
#include "core/backend.hpp"
#include "core/round_schedule.hpp"
#include "cpu/cpu_isa.hpp"

namespace apsp::detail::cpu {

struct blocked_config {
  std::int64_t block = 0; ///< tile edge, >= 1
  int threads = 1;
  isa kernels = isa::scalar;
};

/// Phase 3 on another engine (a GPU, src/cuda/rank_engine.hpp) that holds its own copy of the
/// tiles: the executor keeps the pivot tile and the panels on the host and hands over the bulk
/// update. The host tiles are current only where the calls below say.
template <class T> class bulk_engine {
public:
  virtual ~bulk_engine() = default;
  /// Takes the host tiles as they are (the caller, before the first round done here).
  virtual void start() = 0;
  /// Makes tile row r and tile column r of the host tiles current (before round r's pivot).
  virtual void fetch_lines(std::int64_t r) = 0;
  /// Round r's update of every local tile: takes tile row and column r from the host (the pivot
  /// and panels changed them), then c = min(c, col_snap (x) row_snap) for every tile (on the
  /// pivot row and column this changes nothing: the panels computed exactly those terms).
  /// `col_snaps` and `row_snaps` are the executor's packed snapshot tiles (kb x ld each,
  /// `tile` elements apart).
  virtual void update(std::int64_t r, const T* col_snaps, const T* row_snaps, std::int64_t ld,
                      std::int64_t tile) = 0;
  /// Makes every host tile current (before a checkpoint and at the end).
  virtual void finish() = 0;
};

/// This process's tiles: local_rows() x local_cols() row-major values of the layout, and the
/// via values in the same shape (null: no paths); `engine`: phase 3 elsewhere (null: here).
template <class T> struct local_tiles {
  grid_layout layout;
  T* d = nullptr;
  std::int32_t* via = nullptr;
  bulk_engine<T>* engine = nullptr;
};

/// Between rounds: resuming, look-ahead and checkpoints.
struct round_hooks {
  /// Rounds already done (a resumed solve); the via values are then taken as they are.
  std::int64_t first_round = 0;
  /// Compute round r + 1's pivot and panels before round r's bulk update (distributed only).
  bool lookahead = true;
  /// Asked on the first process after each round: is a checkpoint due? (may be empty)
  std::function<bool()> save_due;
  /// Saves this process's tiles after `rounds_done` rounds; empty = no checkpoints. A stop
  /// (cancel) also saves when it is set.
  std::function<void(std::int64_t rounds_done)> save;
  /// Called on every process once all of them saved (the first process writes the manifest).
  std::function<void(std::int64_t rounds_done)> commit;
};

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
