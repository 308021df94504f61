#pragma once
// Host-side entry to the packed 16-bit blocked Floyd-Warshall kernels (fw_packed16.cu) on an
// int16 matrix already on the device, padded to ld = a multiple of fw_tile with padding =
// 16383 ("no path"), plus two ld x fw_tile word scratch panels the kernels expand the pivot
// column into (round r's in panel r % 2, so that with look-ahead round r + 1's can be made
// while round r's phase 3 reads its own).

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "cuda/round_kernels.hpp"
#include "cuda/tile_config.hpp"

namespace apsp::cuda {

struct packed16_problem {
  std::int16_t* d = nullptr;      ///< ld x ld, row-major, values in [0, 16383]
  std::uint32_t* panel = nullptr; ///< 2 x ld x fw_tile scratch words (packed16_panel_words)
  std::int64_t ld = 0;            ///< padded edge, a multiple of fw_tile
  [[nodiscard]] std::int64_t tiles() const noexcept { return ld / kernels::fw_tile; }
};

/// Words of the two scratch panels for padded edge ld.
[[nodiscard]] constexpr std::uint64_t packed16_panel_words(std::int64_t ld) noexcept {
  return 2 * static_cast<std::uint64_t>(ld) * kernels::fw_tile;
}

/// Device bytes of a packed solve with padded edge ld: the matrix and the scratch panels.
[[nodiscard]] constexpr std::uint64_t packed16_device_bytes(std::int64_t ld) noexcept {
  const auto l = static_cast<std::uint64_t>(ld);
  return l * l * sizeof(std::int16_t) + packed16_panel_words(ld) * sizeof(std::uint32_t);
}

/// Raises the min-plus kernel's shared-memory limits on the current device.
void configure_packed16_kernels();

/// The kernels of each step of a round of p (device_rounds.hpp runs them); p's buffers must
/// outlive the result.
[[nodiscard]] std::unique_ptr<round_kernels> make_packed16_round_kernels(const packed16_problem& p);

/// Sets the padding (rows and columns n..ld-1) of d to 16383.
void enqueue_packed16_fill_padding(std::int16_t* d, std::int64_t n, std::int64_t ld,
                                   cudaStream_t s);

} // namespace apsp::cuda
