#pragma once
// Owner of the buffers that let phase 3 with paths run from tagged pivot panels
// (kernels/min_plus_tagged.cuh): int32, paths, no clamp. Attaching them to a device_problem is
// all a caller does; every other problem (and APSP_CUDA_TAGGED_PATHS=0) is left as it is, and
// phase 3 then finds its pivots by rescanning.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "cuda/cuda_check.hpp"
#include "cuda/fw_driver.hpp"
#include "cuda/resources.hpp"

namespace apsp::cuda {

/// Cells of one tagged pivot panel (128 x ld).
[[nodiscard]] inline std::size_t tag_panel_cells(std::int64_t ld) {
  return static_cast<std::size_t>(kernels::fw_tile) * static_cast<std::size_t>(ld);
}

/// Device bytes the tagged panels add to a solve with paths of padded edge ld.
[[nodiscard]] inline std::uint64_t tagged_panels_bytes(std::int64_t ld) {
  return 2 * tag_panel_cells(ld) * sizeof(std::int32_t);
}

/// False when APSP_CUDA_TAGGED_PATHS=0 (a diagnostic switch; the tests compare both ways).
[[nodiscard]] inline bool tagged_paths_enabled() {
  const char* v = std::getenv("APSP_CUDA_TAGGED_PATHS");
  return v == nullptr || std::string(v) != "0";
}

class tagged_panels {
public:
  /// Allocates the panels and zeroes the per-round overflow flags (on stream s) when p can use
  /// them, and points p at them. p must keep its via, clamp and ld.
  template <class T> tagged_panels(device_problem<T>& p, cudaStream_t s) {
    if constexpr (std::is_same_v<T, std::int32_t>) {
      if (p.via == nullptr || p.clamp || !tagged_paths_enabled())
        return;
      tags_ = device_buffer<std::int32_t>(2 * tag_panel_cells(p.ld));
      overflow_ = device_buffer<int>(static_cast<std::size_t>(p.tiles()));
      APSP_CUDA_TRY(cudaMemsetAsync(overflow_.data(), 0, overflow_.size() * sizeof(int), s));
      p.a_tag = tags_.data();
      p.b_tag = tags_.data() + tag_panel_cells(p.ld);
      p.tag_overflow = overflow_.data();
    }
  }

private:
  device_buffer<std::int32_t> tags_;
  device_buffer<int> overflow_;
};

} // namespace apsp::cuda
