#pragma once
// Launchers of the supernodal step kernels (kernels/supernodal_steps.cuh), instantiated for
// int32 and float32 in supernodal_<type>.cu; the host drivers (cuda_supernodal.cpp,
// supernodal_rows.cpp) see only these declarations and the task layout.
//
// Rows are reached through tables of row pointers indexed by elimination label, so one set of
// kernels serves the matrix whole on one GPU (row l at d + l * n) and a device that holds only
// some rows: the pivot strip and its block of rows (docs/sparse.md, "Past one GPU's memory").

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace apsp::cuda {

/// One slice of one step: its front (`contiguous` labels from `first`, then `na` ancestors from
/// offset `ancestors` of the ancestor array), its np pivots (from offset `pivots` of the pivot
/// array) and its first blocks in the panels and outer launches. The rows it updates are the
/// front, or with `row_list` >= 0 the `nrows` labels from that offset of the launch's row
/// lists (a device's own rows of the front, ascending).
struct sn_task {
  std::int32_t first = 0;
  std::int32_t contiguous = 0;
  std::int64_t ancestors = 0;
  std::int32_t na = 0;
  std::int32_t np = 0;
  std::int64_t pivots = 0;
  std::int32_t tiles = 0;     ///< 128-line tiles of the front (the columns)
  std::int32_t row_tiles = 0; ///< 128-line tiles of the rows
  std::int64_t row_list = -1;
  std::int32_t nrows = 0;
  /// With `col_list` >= 0 the columns are the `ncols` labels from that offset of the row lists
  /// instead of the front (a fused step's restricted outer product: sn_launch::outer_only).
  std::int64_t col_list = -1;
  std::int32_t ncols = 0;
  std::int64_t panel_begin = 0;
  std::int64_t outer_begin = 0;
};

/// A launch of the three step kernels over `count` tasks at device address `tasks`.
template <class T> struct sn_launch {
  /// Row pointers by label: the rows a task updates, and the pivots' rows (the same table
  /// unless the pivots' rows are final already).
  T* const* rows = nullptr;
  T* const* pivot_rows = nullptr;
  std::int32_t* const* via_rows = nullptr; ///< null: no paths
  const std::int32_t* row_lists = nullptr;
  const sn_task* tasks = nullptr;
  int count = 0;
  /// The most lines of a task's shared-memory block: pivots (the close), or the front when
  /// `whole`.
  int widest = 0;
  /// Every task is a whole small step (front of at most 128 lines): one kernel does it in
  /// shared memory (no panels, no outer product).
  bool whole = false;
  /// The pivots' rows are final (a device's block after the strip is done): no close and no
  /// row panel, only the column panel and the outer product of its rows.
  bool pivots_final = false;
  /// Parts of a step run apart when its slices' outer products are fused (sn_schedule_options::
  /// fuse_slices): the close and panels alone, or the outer product alone, whose tasks may
  /// then pivot up to sn_fused_pivots.
  bool skip_outer = false;
  bool outer_only = false;
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
/// The most pivots of one outer product (fused slices: sn_launch::outer_only).
inline constexpr int sn_fused_pivots = 4 * sn_slice_pivots;

/// Sets the kernels' shared-memory limits on the current device (once per device and type).
template <class T> void configure_sn_kernels(bool paths);
/// close, panels, outer for every task of `l`, in stream order.
template <class T> void enqueue_sn_launch(const sn_launch<T>& l, cudaStream_t s);
/// table[i] = base + i * ld for i < n: the row table of a matrix held whole.
template <class E>
void enqueue_sn_row_table(E** table, E* base, std::int64_t ld, std::int64_t n, cudaStream_t s);
/// out[i][j] = rows[row_labels[i]][label[j]], count x n: rows of the result with their
/// columns in vertex order (label[v] = v's elimination label), for the download (E: 4-byte
/// values or via).
template <class E>
void enqueue_sn_gather_rows(E* out, E* const* rows, const std::int32_t* row_labels,
                            std::int64_t count, const std::int32_t* label, std::int64_t n,
                            cudaStream_t s);
/// rows[row_labels[i]][label[j]] = in[i][j]: the inverse, for a host matrix's upload.
template <class E>
void enqueue_sn_scatter_rows(E* const* rows, const E* in, const std::int32_t* row_labels,
                             std::int64_t count, const std::int32_t* label, std::int64_t n,
                             cudaStream_t s);
/// Row i of `local` (count rows of n, row stride n) set to infinity but for 0 at column
/// labels[i]: a device's rows before their edges.
template <class T>
void enqueue_sn_fill_rows(T* local, const std::int32_t* labels, std::int64_t count, std::int64_t n,
                          T infinity, cudaStream_t s);
/// dst[i] = min(dst[i], src[i]) for i < count (with via: the via of the smaller value).
template <class T>
void enqueue_sn_min_into(T* dst, const T* src, std::int32_t* dst_via, const std::int32_t* src_via,
                         std::int64_t count, cudaStream_t s);

} // namespace apsp::cuda
