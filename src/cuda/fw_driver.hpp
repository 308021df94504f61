#pragma once
// Host-side entry to the blocked Floyd-Warshall kernels on a matrix already on the device.
// The matrix is padded to ld = a multiple of fw_tile, padding = infinity, so kernels need no
// bounds checks. Instantiated for int32 and float in fw_int32.cu and fw_float32.cu.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/tile_config.hpp"

namespace apsp::cuda {

template <class T> struct device_problem {
  T* d = nullptr;              ///< ld x ld, row-major
  std::int32_t* via = nullptr; ///< ld x ld, or null for distances only
  std::int64_t ld = 0;         ///< padded edge, a multiple of fw_tile
  bool clamp = false;          ///< clamp sums at -infinity (integer types, negative weights)
  /// Optional, with paths and without clamp: buffers for the round's tagged pivot panels
  /// (ld x 128 and 128 x ld) and one overflow flag per round, zeroed
  /// (kernels/min_plus_tagged.cuh). Null: phase 3 finds pivots by rescanning.
  std::int32_t* a_tag = nullptr;
  std::int32_t* b_tag = nullptr;
  int* tag_overflow = nullptr;
  [[nodiscard]] std::int64_t tiles() const noexcept { return ld / kernels::fw_tile; }
};

/// Raises the kernels' dynamic shared-memory limits on the current device (once per solve).
template <class T> void configure_kernels(const device_problem<T>& p);

/// Enqueues pivot round r (phase 1, 2 and 3) on stream s.
template <class T> void enqueue_round(const device_problem<T>& p, std::int64_t r, cudaStream_t s);

/// Enqueues rounds in order on s, with look-ahead where the problem allows it (distances only):
/// after the tiles of row and column r + 1 of round r's phase 3, round r + 1's pivot and cross
/// run on a second, high-priority stream while the rest of round r's phase 3 runs on s, so the
/// latency-bound phases 1 and 2 hide behind phase 3 (the GPU-cluster scheme of
/// ../shared/BRIEF.md, inside one GPU).
/// After the last round, work enqueued on s comes after all of it. APSP_CUDA_LOOKAHEAD=0 turns
/// look-ahead off (measurements).
template <class T> class round_runner {
public:
  round_runner(const device_problem<T>& p, cudaStream_t s);
  ~round_runner();
  round_runner(const round_runner&) = delete;
  round_runner& operator=(const round_runner&) = delete;
  /// Round r; rounds must come in order, from any first one.
  void enqueue(std::int64_t r);
  [[nodiscard]] bool lookahead() const noexcept { return ahead_ != nullptr; }

private:
  device_problem<T> p_;
  cudaStream_t s_;
  cudaStream_t ahead_ = nullptr;
  cudaEvent_t lines_done_ = nullptr;
  cudaEvent_t cross_done_ = nullptr;
  std::int64_t next_ = -1; ///< the round whose pivot and cross ran ahead, or -1
};

/// Sets the padding (rows and columns n..ld-1) of d to infinity.
template <class T> void enqueue_fill_padding(T* d, std::int64_t n, std::int64_t ld, cudaStream_t s);

extern template void configure_kernels<std::int32_t>(const device_problem<std::int32_t>&);
extern template void configure_kernels<float>(const device_problem<float>&);
extern template void enqueue_round<std::int32_t>(const device_problem<std::int32_t>&, std::int64_t,
                                                 cudaStream_t);
extern template void enqueue_round<float>(const device_problem<float>&, std::int64_t, cudaStream_t);
extern template class round_runner<std::int32_t>;
extern template class round_runner<float>;
extern template void enqueue_fill_padding<std::int32_t>(std::int32_t*, std::int64_t, std::int64_t,
                                                        cudaStream_t);
extern template void enqueue_fill_padding<float>(float*, std::int64_t, std::int64_t, cudaStream_t);

} // namespace apsp::cuda
