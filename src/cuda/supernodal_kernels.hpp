#pragma once
// Launchers of the supernodal step kernels (kernels/supernodal_steps.cuh), instantiated for
// int32 and float32 in supernodal_<type>.cu; the host driver (cuda_supernodal.cpp) sees only
// these declarations and the task layout.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace apsp::cuda {

/// One slice of one step: its front (`contiguous` labels from `first`, then `na` ancestors from
/// offset `ancestors` of the ancestor array), its np pivots (from offset `pivots` of the pivot
/// array) and its first blocks in the panels and outer launches.
struct sn_task {
  std::int32_t first = 0;
  std::int32_t contiguous = 0;
  std::int64_t ancestors = 0;
  std::int32_t na = 0;
  std::int32_t np = 0;
  std::int64_t pivots = 0;
  std::int32_t tiles = 0;
  std::int64_t panel_begin = 0;
  std::int64_t outer_begin = 0;
};

/// A launch of the three step kernels over `count` tasks at device address `tasks`.
template <class T> struct sn_launch {
  T* d = nullptr;
  std::int32_t* via = nullptr; ///< null: no paths
  std::int64_t ld = 0;
  const sn_task* tasks = nullptr;
  int count = 0;
  /// The most lines of a task's shared-memory block: pivots (the close), or the front when
  /// `whole`.
  int widest = 0;
  /// Every task is a whole small step (front of at most 128 lines): one kernel does it in
  /// shared memory (no panels, no outer product).
  bool whole = false;
  std::int64_t panel_blocks = 0;
  std::int64_t outer_blocks = 0;
  const std::int32_t* pivots = nullptr;
  const std::int32_t* ancestors = nullptr;
  const std::int32_t* order = nullptr;
  bool clamp = false;  ///< integer sums clamped at -infinity (negative weights)
  bool shared = false; ///< tasks may share ancestor x ancestor cells (atomic minima)
  /// Recorded after the close and after the panels when set (the verbose report's times).
  cudaEvent_t after_close = nullptr;
  cudaEvent_t after_panels = nullptr;
};

/// Pivots per slice of a supernode (kernels::sn_slice).
inline constexpr int sn_slice_pivots = 128;

/// Sets the kernels' shared-memory limits on the current device (once per device and type).
template <class T> void configure_sn_kernels(bool paths);
/// close, panels, outer for every task of `l`, in stream order.
template <class T> void enqueue_sn_launch(const sn_launch<T>& l, cudaStream_t s);
/// out[i][j] = d[label[row0 + i]][label[j]], rows x n (E: 4-byte values or via).
template <class E>
void enqueue_sn_gather_rows(E* out, const E* d, std::int64_t ld, const std::int32_t* label,
                            std::int64_t row0, std::int64_t rows, std::int64_t n, cudaStream_t s);
/// d[label[row0 + i]][label[j]] = in[i][j]: the inverse, for a host matrix's upload.
template <class E>
void enqueue_sn_scatter_rows(E* d, std::int64_t ld, const E* in, const std::int32_t* label,
                             std::int64_t row0, std::int64_t rows, std::int64_t n, cudaStream_t s);

} // namespace apsp::cuda
