#pragma once
// Host-side entry to the blocked Floyd-Warshall kernels on a matrix already on the device.
// The matrix is padded to ld = a multiple of fw_tile, padding = infinity, so kernels need no
// bounds checks. Instantiated for int32 and float in fw_int32.cu and fw_float32.cu.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <type_traits>

#include "core/tuning.hpp"
#include "cuda/round_kernels.hpp"
#include "cuda/tile_config.hpp"

namespace apsp::cuda {

template <class T> struct device_problem {
  T* d = nullptr;              ///< ld x ld, row-major
  std::int32_t* via = nullptr; ///< ld x ld, or null for distances only
  std::int64_t ld = 0;         ///< padded edge, a multiple of fw_tile
  /// Vertices (0: ld). The kernels skip what only padding can feed: pivots from n on (the last
  /// round's, in phases 1 to 3) and, in the distance and tagged path kernels' tiles of the last
  /// tile row, warps whose rows are all padding.
  std::int64_t n = 0;
  bool clamp = false; ///< clamp sums at -infinity (integer types, negative weights)
  /// float32 whose values all lack the sign bit (no negative weight, no -0.0): the product
  /// kernels take their minima on the bit patterns, two pivots and the running minimum at a time
  /// (DPX VIMNMX3, min_plus_chunk), which order like the values there.
  bool three_way = false;
  /// Optional, with paths: buffers for the round's tagged pivot panels (ld x 128 and 128 x ld;
  /// a second pair tag_stride elements on, for odd rounds, so that with look-ahead round r + 1's
  /// can be made while round r's are read) and one overflow flag per round, zeroed
  /// (kernels/min_plus_tagged.cuh). Null: phase 3 finds pivots by rescanning.
  std::int32_t* a_tag = nullptr;
  std::int32_t* b_tag = nullptr;
  std::int64_t tag_stride = 0;
  int* tag_overflow = nullptr;
  /// Optional, with paths: every round's panel snapshots (kernels/deferred_pivots.cuh, ld x 256
  /// values per round); phase 3 then leaves its pivots to round_kernels::settle. Null: phase 3
  /// finds them in the round.
  T* snap = nullptr;
  [[nodiscard]] std::int64_t tiles() const noexcept { return ld / kernels::fw_tile; }
  [[nodiscard]] std::int64_t vertices() const noexcept { return n > 0 ? n : ld; }
};

/// device_problem::three_way for a solve of T: float32 without negative weights (a weight with its
/// sign bit set counts as negative, -0.0 included: analyze_weights), unless
/// APSP_CUDA_THREE_WAY=0 (measurements).
template <class T> [[nodiscard]] bool three_way_minima(bool negative_weights) {
  if (!std::is_same_v<T, float> || negative_weights)
    return false;
  return apsp::detail::current_tuning().cuda_three_way;
}

/// device_problem::n for a matrix of n vertices padded to ld: n, or ld (no trimming) with
/// APSP_CUDA_TRIM_PADDING=0 (measurements).
[[nodiscard]] inline std::int64_t trimmed_vertices(std::int64_t n, std::int64_t ld) {
  return apsp::detail::current_tuning().cuda_trim_padding ? n : ld;
}

/// Raises the kernels' dynamic shared-memory limits on the current device (once per solve).
template <class T> void configure_kernels(const device_problem<T>& p);

/// Enqueues pivot round r (phase 1, 2 and 3) on stream s.
template <class T> void enqueue_round(const device_problem<T>& p, std::int64_t r, cudaStream_t s);

/// The kernels of each step of a round of p (device_rounds.hpp runs them): without paths,
/// phase 3 splits into the tiles of row and column r + 1 and the rest, for look-ahead; with
/// paths it runs whole. p must outlive the result.
template <class T>
[[nodiscard]] std::unique_ptr<round_kernels> make_round_kernels(const device_problem<T>& p);

/// Sets the padding (rows and columns n..ld-1) of d to infinity.
template <class T> void enqueue_fill_padding(T* d, std::int64_t n, std::int64_t ld, cudaStream_t s);

extern template void configure_kernels<std::int32_t>(const device_problem<std::int32_t>&);
extern template void configure_kernels<float>(const device_problem<float>&);
extern template void enqueue_round<std::int32_t>(const device_problem<std::int32_t>&, std::int64_t,
                                                 cudaStream_t);
extern template void enqueue_round<float>(const device_problem<float>&, std::int64_t, cudaStream_t);
extern template std::unique_ptr<round_kernels>
make_round_kernels<std::int32_t>(const device_problem<std::int32_t>&);
extern template std::unique_ptr<round_kernels>
make_round_kernels<float>(const device_problem<float>&);
extern template void enqueue_fill_padding<std::int32_t>(std::int32_t*, std::int64_t, std::int64_t,
                                                        cudaStream_t);
extern template void enqueue_fill_padding<float>(float*, std::int64_t, std::int64_t, cudaStream_t);

} // namespace apsp::cuda
