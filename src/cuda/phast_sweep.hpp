#pragma once
// PHAST's downward sweep on one GPU (kernels/phast_sweep.cuh): a sweep structure (slots in a
// valid sweep order and the downward arcs into each) uploaded once, regrouped into levels
// whose slots are independent; then, per batch of up to `lanes` sources, the seeds of their
// upward searches scattered into a slots x lanes array and the levels relaxed one launch each;
// and the rows of true distances gathered by column (every vertex, or a table's targets).
// Generic over the structure: PHAST's whole hierarchy, or a restricted one (RPHAST's upward
// closure of some targets) whose slots the caller numbers. int32 only. C++17: the kernels'
// translation unit includes it.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "cuda/sweep_structure.hpp"

namespace apsp::cuda {

/// The sources a sweep takes at once when not asked for (a power of two, at least 32).
inline constexpr int default_sweep_lanes = 256;

/// One structure on one device: everything is enqueued on the executor's own stream, so a
/// batch's sweep runs while the host prepares the next one.
class sweep_executor {
public:
  /// Uploads `s` (regrouped by levels_of) to `device` for `lanes` sources a sweep (a power of
  /// two >= 32); throws invalid_argument_error for other lanes or a structure whose arcs do not
  /// come from earlier slots. With `launch_graph` the levels' launches are captured once as a
  /// CUDA graph and replayed for each batch (not when launches are synchronised for debugging).
  sweep_executor(const sweep_structure& s, int device, int lanes, bool launch_graph = true);
  ~sweep_executor();
  sweep_executor(const sweep_executor&) = delete;
  sweep_executor& operator=(const sweep_executor&) = delete;

  [[nodiscard]] int lanes() const noexcept;
  [[nodiscard]] std::int64_t slots() const noexcept;
  [[nodiscard]] std::int64_t levels() const noexcept;
  [[nodiscard]] cudaStream_t stream() const noexcept;
  /// Whether the levels run as one replayed CUDA graph.
  [[nodiscard]] bool launch_graph() const noexcept;

  /// The columns gather() makes: structure slots slots[j] with potentials h[j] (null: none),
  /// j < cols. Uploaded now (synchronously).
  void set_columns(const std::int32_t* slots, const std::int32_t* h, std::int64_t cols);
  /// The potentials of every source the batches will take, in their order (null: none), so
  /// that gather's lane k of a batch starting at source `first` is source first + k.
  void set_source_potentials(const std::int32_t* h, std::int64_t sources);

  /// Enqueues one batch's sweep from `count` seeds (structure slots; lanes < lanes()): every
  /// lane "no path" (cap), the seeds, then the levels. Returns once the seeds are staged: the
  /// host may then prepare the next batch while the device sweeps.
  void enqueue_sweep(const sweep_seed* seeds, std::size_t count);
  /// Enqueues the gather of the last sweep's lanes 0 .. count - 1 into rows of true distances:
  /// d_out[k * ld + j] for every column j (set_columns), with source first + k's potential.
  void enqueue_gather(std::int64_t first, int count, std::int32_t* d_out, std::int64_t ld);

private:
  struct state;
  static void enqueue_levels(const state& t);
  std::unique_ptr<state> st_;
};

// The launchers (phast_sweep.cu); arguments as the kernels have them.
void enqueue_sweep_fill(std::int32_t* d, std::int64_t count, std::int32_t value, cudaStream_t s);
void enqueue_sweep_seeds(std::int32_t* d, int lane_shift, const sweep_seed* seeds,
                         std::int64_t count, cudaStream_t s);
void enqueue_sweep_level(std::int32_t* d, int lane_shift, std::int64_t first, std::int64_t last,
                         const std::int64_t* offsets, const std::int32_t* arcs, cudaStream_t s);
void enqueue_sweep_gather(const std::int32_t* d, int lane_shift, int count,
                          const std::int32_t* col_slot, const std::int32_t* col_h,
                          const std::int32_t* lane_h, std::int64_t cols, std::int32_t cap,
                          std::int32_t* out, std::int64_t ld, cudaStream_t s);

} // namespace apsp::cuda
