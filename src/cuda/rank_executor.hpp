#pragma once
// The GPU executor of the blocked Floyd-Warshall round schedule (core/round_schedule.hpp): one
// process's tiles stay resident on its GPU for the whole solve and every step of every round
// runs there: the pivot tile closed by the in-core kernels, the panels and the bulk update as
// min-plus products (gemm_driver.hpp). Panels travel GPU to GPU where the communicator can
// (NCCL, grid_comm::device_row/col), through pinned host memory otherwise; with look-ahead the
// next round's panels travel while this round's product runs. Host-only header; builds without
// CUDA get stand-ins that are never available (cuda/unavailable.cpp).

#include <cstdint>
#include <memory>
#include <string>

#include "apsp/graph.hpp"
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "core/round_control.hpp"
#include "core/round_schedule.hpp"

namespace apsp::cuda {

/// The GPU a rank uses: device node_rank % devices.
struct rank_device {
  bool available = false;
  int device = -1;
  std::string name;             ///< or why none is available
  std::uint64_t free_bytes = 0; ///< free device memory now
  std::string pci_bus_id;       ///< e.g. "0000:3b:00.0" (where its nearest CPUs are listed)
};
[[nodiscard]] rank_device pick_rank_device(int node_rank);

/// Device bytes of a rank's executor: its padded tiles (and via values), the pivot tile, two
/// sets of panels and, with paths, the tagged slices of its products.
[[nodiscard]] std::uint64_t rank_executor_bytes(const apsp::detail::grid_layout& layout,
                                                std::size_t element_size, bool paths);

/// Where a rank's GPU spent its rounds, from CUDA events (seconds).
struct rank_gpu_times {
  double compute_span = 0; ///< the compute stream, first round to last
  double panel_waits = 0;  ///< ... of which it waited for panels from other ranks
  double exchange = 0;     ///< panel broadcasts on the exchange stream, hidden or not
  double download = 0;     ///< the tiles back to host memory after the last round (host clock)
};

/// A rank's tiles resident on its GPU, ready for the rounds.
template <class T> class rank_gpu {
public:
  virtual ~rank_gpu() = default;
  /// After run(): where the GPU's time went.
  [[nodiscard]] virtual rank_gpu_times times() = 0;
  /// Floyd-Warshall on the tiles, all processes of `comm` together; the host tiles are current
  /// again when it returns (and before each checkpoint). Failures and cancels behave as in the
  /// cpu executor (core/round_control.hpp).
  virtual void run(apsp::detail::grid_comm& comm, apsp::detail::run_context& ctx,
                   const apsp::detail::round_hooks& hooks) = 0;
};

/// The device copy of `tiles` on `device`; T is int32 or float. With `initial`, the tiles are
/// built there from the graph's edges (the held ones cross the bus, not the tiles; via values
/// start as no_via) and the host tiles are only written, by the downloads; without, the host
/// tiles (distances, and via values: a resumed state) are uploaded. `weights`: negative weights
/// make integer sums clamp at -infinity and keep float32 to two-operand minima (three_way_minima);
/// fractional ones keep float32 paths off the tagged route. The tile edge must be a multiple of
/// 128. With `whole_host`
/// the host pointers of `tiles` are the whole n x n matrices, of which this rank's rows are its
/// part (a grid of one process column: the devices of one process, multi_gpu.hpp), instead of a
/// local matrix of its own.
template <class T>
[[nodiscard]] std::unique_ptr<rank_gpu<T>>
make_rank_gpu(int device, const apsp::detail::local_tiles<T>& tiles,
              const apsp::detail::weight_facts& weights, const graph* initial = nullptr,
              bool whole_host = false);

/// The instantiations of make_rank_gpu, in rank_executor.cpp or, without CUDA, unavailable.cpp.
#define APSP_INSTANTIATE_MAKE_RANK_GPU(T)                                                          \
  template std::unique_ptr<rank_gpu<T>> make_rank_gpu(int, const apsp::detail::local_tiles<T>&,    \
                                                      const apsp::detail::weight_facts&,           \
                                                      const graph*, bool);

} // namespace apsp::cuda
