#pragma once
// A GPU for one MPI rank of the distributed solver: the rank's tiles stay resident on the device
// and phase 3 of every round runs there as one min-plus product (gemm_driver.hpp), while the
// pivot tile and the panels stay with the cpu executor on the host (cpu/blocked_fw.hpp). Per
// round the device sends tile row and column r to the host and takes them back with the
// round's snapshots. Host-only header; builds without CUDA get stand-ins that are never
// available (core/cuda_unavailable.cpp).

#include <cstdint>
#include <memory>
#include <string>

#include "core/round_schedule.hpp"
#include "cpu/blocked_fw.hpp"

namespace apsp::cuda {

/// The GPU a rank uses: device node_rank % devices.
struct rank_device {
  bool available = false;
  int device = -1;
  std::string name;             ///< or why none is available
  std::uint64_t free_bytes = 0; ///< free device memory now
};
[[nodiscard]] rank_device pick_rank_device(int node_rank);

/// Device bytes of a rank's engine: its padded tiles (and via values), the two panel operands.
[[nodiscard]] std::uint64_t rank_engine_bytes(const apsp::detail::grid_layout& layout,
                                              std::size_t element_size, bool paths);

/// The engine for `layout`'s tiles at host `d` (and `via`, or null) on `device`; T is int32 or
/// float. `clamp`: integer sums clamp at -infinity (negative weights). The tile edge must be a
/// multiple of 128.
template <class T>
[[nodiscard]] std::unique_ptr<apsp::detail::cpu::bulk_engine<T>>
make_rank_engine(int device, const apsp::detail::grid_layout& layout, T* d, std::int32_t* via,
                 bool clamp);

} // namespace apsp::cuda
