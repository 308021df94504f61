#pragma once
// Owner of the panel snapshots with which the in-core solve with paths finds phase 3's pivots
// after the rounds instead of in them (kernels/deferred_pivots.cuh): 2 x ld x ld values, taken
// only where they fit beside everything else. APSP_CUDA_DEFERRED_PIVOTS=0 turns them off
// (measurements; the tests compare both ways).

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/tuning.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/fw_driver.hpp"
#include "cuda/resources.hpp"

namespace apsp::cuda {

[[nodiscard]] inline bool deferred_pivots_enabled() {
  return apsp::detail::current_tuning().cuda_deferred_pivots;
}

/// Device bytes of the snapshots for a matrix of edge ld with values of `value_bytes`.
[[nodiscard]] inline std::uint64_t deferred_pivots_bytes(std::int64_t ld, std::size_t value_bytes) {
  return 2 * static_cast<std::uint64_t>(ld) * static_cast<std::uint64_t>(ld) * value_bytes;
}

class deferred_pivots {
public:
  /// Attaches snapshots to p when it has paths and they take at most `budget` bytes and fit in
  /// the current device's free memory beside device_reserve_bytes; otherwise p finds its pivots
  /// in the rounds.
  template <class T> deferred_pivots(device_problem<T>& p, std::uint64_t budget) {
    static_assert(sizeof(T) == sizeof(std::int32_t));
    const std::uint64_t bytes = deferred_pivots_bytes(p.ld, sizeof(T));
    if (p.via == nullptr || p.tiles() < 2 || !deferred_pivots_enabled() || bytes > budget)
      return;
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    APSP_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (free_bytes < device_reserve_bytes || free_bytes - device_reserve_bytes < bytes)
      return;
    snap_ = device_buffer<std::int32_t>(static_cast<std::size_t>(bytes / sizeof(T)));
    p.snap = reinterpret_cast<T*>(snap_.data());
  }
  [[nodiscard]] bool active() const noexcept { return snap_.data() != nullptr; }

private:
  device_buffer<std::int32_t> snap_;
};

} // namespace apsp::cuda
