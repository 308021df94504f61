#pragma once
// The supernodal Floyd-Warshall's block steps on one GPU (docs/sparse.md, "Supernodal
// Floyd-Warshall on the GPU"). The matrix lies in elimination labels; its rows are reached
// through tables of row pointers by label (the whole matrix on one GPU, or a device's pivot
// strip and block of rows: supernodal_kernels.hpp). A step pivots a slice of at most sn_slice of a supernode's members over the step's front: the
// labels [first, first + contiguous) of its elimination subtree, then its ancestors (scattered,
// ascending). One slice is one blocked round restricted to the front:
//   close    the pivots' block, Floyd-Warshall in shared memory (one block per task);
//   panels   rows of the pivots x the front, and the front x columns of the pivots, each a
//            min-plus product with the closed block;
//   outer    the front x the front, min(D, D[front][P] (x) D[P][front]).
// The three are one launch each for every task of a launch (independent steps of one level of
// the elimination tree), found by the block through the tasks' prefix sums.
//
// Gathered operands: every row and column is addressed through its label, so the scattered
// ancestors need no gather buffers; the contiguous part reads as a dense block.
//
// Writes happen only where a value strictly improves, so a cell that an operand also names
// (the pivots' own rows and columns in the outer product, the closed block in the panels) is
// never rewritten while another block reads it. Steps of one launch write disjoint cells except
// those whose row and column are both ancestors of two of them: those take an atomic minimum
// (`shared`), which is exact for distances. The tasks of a launch with paths share no ancestor
// (supernodal_schedule.hpp), so the via of every cell stays with its distance.

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "cuda/kernels/min_plus_common.cuh"
#include "cuda/kernels/min_plus_ops.cuh"
#include "cuda/supernodal_kernels.hpp"

namespace apsp::cuda::kernels {

/// Pivots per slice: one 128-wide tile, so each panel of a task is one tile high or wide.
inline constexpr int sn_slice = sn_slice_pivots;
/// Pivots per shared-memory chunk of the products.
inline constexpr int sn_chunk = 32;
inline constexpr int sn_a_stride = sn_chunk + 4;  // [128 rows][36]: 16-byte rows
inline constexpr int sn_b_stride = fw_tile + 4;   // [32 k][132]

using sn_task = ::apsp::cuda::sn_task;

/// The launch-wide arguments of the step kernels.
template <class T> struct sn_args {
  T* const* rows = nullptr;       ///< rows the tasks update, by label
  T* const* pivot_rows = nullptr; ///< the pivots' rows (rows, unless pivots_final)
  std::int32_t* const* via_rows = nullptr; ///< with paths: vertex ids, like the cpu solver's
  const std::int32_t* row_lists = nullptr; ///< tasks' explicit rows (sn_task::row_list)
  bool pivots_final = false;
  const sn_task* tasks = nullptr;
  int count = 0;
  const std::int32_t* pivots = nullptr;    ///< every step's members, concatenated
  const std::int32_t* ancestors = nullptr; ///< the elimination plan's ancestor array
  const std::int32_t* order = nullptr;     ///< order[label] = vertex id (the via values)
  bool shared = false;                     ///< tasks may share ancestor x ancestor cells
};

template <class T> __device__ __forceinline__ T sn_infinity() {
  if constexpr (std::is_same_v<T, float>)
    return __int_as_float(0x7f800000);
  else
    return int32_infinity;
}

/// The front's label at position t (t < contiguous + na).
__device__ __forceinline__ std::int32_t front_label(const sn_task& k, const std::int32_t* anc,
                                                    std::int64_t t) {
  return t < k.contiguous ? k.first + static_cast<std::int32_t>(t)
                          : anc[k.ancestors + (t - k.contiguous)];
}

/// The task owning block b of a launch whose tasks start at `begin` (ascending).
template <bool Outer>
__device__ __forceinline__ int task_of_block(const sn_task* tasks, int count, std::int64_t b) {
  int lo = 0;
  int hi = count - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    const std::int64_t at = Outer ? tasks[mid].outer_begin : tasks[mid].panel_begin;
    if (at <= b)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/// min(*p, v) in one atomic: int32 directly; float32 on its bit patterns (non-negative values
/// order as signed integers, negative ones in reverse as unsigned integers).
__device__ __forceinline__ void atomic_min_value(std::int32_t* p, std::int32_t v) {
  atomicMin(p, v);
}
__device__ __forceinline__ void atomic_min_value(float* p, float v) {
  if (!signbit(v))
    atomicMin(reinterpret_cast<int*>(p), __float_as_int(v));
  else
    atomicMax(reinterpret_cast<unsigned*>(p), __float_as_uint(v));
}

/// Floyd-Warshall in shared memory over a block of m <= 128 lines (rows and the same columns)
/// of each task, pivoting the task's slice. Whole = false: the close, the lines are the
/// slice's pivots. Whole = true: a whole small step (its front is at most 128 lines and holds
/// its every pivot), the lines are the front and the pivots sit at label - first. Thread t owns
/// column t % 128 of rows t / 128, t / 128 + 2, ... (a warp reads one row's pivot element as a
/// broadcast and consecutive columns). Written back where strictly smaller than the matrix's
/// value (atomically on cells two tasks share, as the products do).
template <class T, bool Clamp, bool Paths, bool Whole>
__global__ void __launch_bounds__(mp_threads)
    sn_block_kernel(sn_args<T> g) {
  static_assert(mp_threads == 2 * sn_slice, "two rows per pass");
  using ops = min_plus<T, Clamp>;
  const sn_task task = g.tasks[blockIdx.x];
  const int np = task.np;
  const int m = Whole ? task.contiguous + task.na : np;
  const std::int32_t* piv = g.pivots + task.pivots;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* s = reinterpret_cast<T*>(smem_raw);                      // [m][m]
  auto* s_via = reinterpret_cast<std::int32_t*>(s + m * m); // [m][m], Paths only
  __shared__ std::int32_t s_line[sn_slice];                  // the lines' labels
  const int t = static_cast<int>(threadIdx.x);
  if (t < m)
    s_line[t] = Whole ? front_label(task, g.ancestors, t) : piv[t];
  __syncthreads();
  const int b = t & (sn_slice - 1);
  const int a0 = t / sn_slice;
  const bool live = b < m;
  const std::int32_t col = live ? s_line[b] : 0;
  // The close's lines are pivots; a whole step's, its front (both tables agree where these run).
  T* const* table = Whole ? g.rows : g.pivot_rows;
  for (int a = a0; a < m && live; a += 2) {
    s[a * m + b] = table[s_line[a]][col];
    if constexpr (Paths)
      s_via[a * m + b] = -2; // unchanged
  }
  const T inf = sn_infinity<T>();
  // Rows in batches of 8 (their loads first, then their updates): the rows of one pivot are
  // independent, and one dependent chain per row left the SM waiting on shared memory.
  constexpr int batch = 8;
  for (int p = 0; p < np; ++p) {
    __syncthreads();
    if (!live)
      continue;
    const int k = Whole ? piv[p] - task.first : p;
    const T kb = s[k * m + b];
    const std::int32_t vk = Paths ? g.order[piv[p]] : 0;
    for (int a_first = a0; a_first < m; a_first += 2 * batch) {
      T x[batch];
      T cur[batch];
#pragma unroll
      for (int q = 0; q < batch; ++q) {
        const int a = a_first + 2 * q;
        x[q] = a < m ? s[a * m + k] : inf;
        cur[q] = a < m ? s[a * m + b] : inf;
      }
#pragma unroll
      for (int q = 0; q < batch; ++q) {
        const int a = a_first + 2 * q;
        if (a == k || x[q] == inf)
          continue;
        const T sum = ops::sum(x[q], kb);
        if (sum < cur[q]) {
          s[a * m + b] = sum;
          if constexpr (Paths)
            s_via[a * m + b] = vk;
        }
      }
    }
  }
  __syncthreads();
  const bool col_anc = Whole && b >= task.contiguous;
  for (int a = a0; a < m && live; a += 2) {
    T* at = table[s_line[a]] + col;
    const T v = s[a * m + b];
    if constexpr (Paths) {
      if (s_via[a * m + b] != -2) {
        *at = v;
        g.via_rows[s_line[a]][col] = s_via[a * m + b];
      }
    } else if (v < *at) {
      if (g.shared && col_anc && a >= task.contiguous)
        atomic_min_value(at, v);
      else
        *at = v;
    }
  }
}

/// Dynamic shared memory of the block kernel for m lines.
__host__ __device__ constexpr std::size_t sn_close_smem_bytes(int np, std::size_t value_bytes,
                                                              bool paths) {
  return static_cast<std::size_t>(np) * np * (value_bytes + (paths ? 4 : 0));
}

/// Elements of one stage of the products' operands: the A chunk, then the B chunk.
inline constexpr int sn_stage_elems = fw_tile * sn_a_stride + sn_chunk * sn_b_stride;

/// Bytes of the products' shared memory: two stages of operands (the next chunk's copies fly
/// while the current one is used), the tile's row pointers and the pivots' (up to
/// sn_fused_pivots), the tile's labels and ancestor flags, and the pivots.
__host__ __device__ constexpr std::size_t sn_product_smem_bytes(std::size_t value_bytes) {
  return 2 * static_cast<std::size_t>(sn_stage_elems) * value_bytes +
         (fw_tile + sn_fused_pivots) * sizeof(void*) +
         (4 * fw_tile + sn_fused_pivots) * sizeof(std::int32_t);
}

/// One 128 x 128 tile of a product C = min(C, D[rows][P] (x) D[P][cols]) for the task's
/// pivots P: Outer, the task's rows x the front; else the row panel (P x a front tile) for the
/// first `tiles` blocks of a task and the column panel (a tile of its rows x P) for the next
/// `row_tiles` (the row panel's blocks return at once when the pivots' rows are final).
template <class T, bool Clamp, bool Paths, bool Outer>
__global__ void __launch_bounds__(mp_threads, Paths ? 1 : 2)
    sn_product_kernel(sn_args<T> g) {
  static_assert(fw_tile == 128 && mp_threads == 256, "thread map assumes 16 x 16 threads");
  using ops = min_plus<T, false>; // clamped once, in the epilogue (clamp_min)
  extern __shared__ __align__(16) unsigned char smem_raw[];
  // Two stages, each [128 rows][sn_a_stride] of D[rows][chunk of P] and then
  // [sn_chunk k][sn_b_stride] of D[chunk of P][cols].
  T* s_stage = reinterpret_cast<T*>(smem_raw);
  auto** s_rowp = reinterpret_cast<T**>(s_stage + 2 * sn_stage_elems); // row pointers or null
  T** s_pivp = s_rowp + fw_tile;                                    // the pivots' rows
  auto* s_rows = reinterpret_cast<std::int32_t*>(s_pivp + sn_fused_pivots); // labels or -1
  std::int32_t* s_cols = s_rows + fw_tile;
  std::int32_t* s_row_anc = s_cols + fw_tile; // 1 where the row is an ancestor of the front
  std::int32_t* s_col_anc = s_row_anc + fw_tile;
  std::int32_t* s_piv = s_col_anc + fw_tile; // the task's pivots (a slice, or fused slices)

  const std::int64_t b = blockIdx.x;
  const int ti_task = task_of_block<Outer>(g.tasks, g.count, b);
  const sn_task task = g.tasks[ti_task];
  const std::int64_t local = b - (Outer ? task.outer_begin : task.panel_begin);
  const std::int32_t* piv = g.pivots + task.pivots;
  const std::int64_t front = static_cast<std::int64_t>(task.contiguous) + task.na;
  // What the tile's rows and columns are: pivots, or a tile of the front.
  int row_tile = -1; // -1: the pivots
  int col_tile = -1;
  if (Outer) {
    row_tile = static_cast<int>(local / task.tiles);
    col_tile = static_cast<int>(local - static_cast<std::int64_t>(row_tile) * task.tiles);
  } else if (local < task.tiles) {
    if (g.pivots_final)
      return;
    col_tile = static_cast<int>(local);
  } else {
    row_tile = static_cast<int>(local - task.tiles);
  }
  const int t = static_cast<int>(threadIdx.x);
  if (t < fw_tile) {
    // Ancestors are the front's labels past its contiguous part (all above the step's top).
    const std::int32_t end = task.first + task.contiguous;
    const auto line = [&](int tile, bool rows, std::int32_t* label, std::int32_t* anc) {
      if (tile < 0) {
        label[t] = t < task.np ? piv[t] : -1;
      } else {
        const std::int64_t pos = static_cast<std::int64_t>(tile) * fw_tile + t;
        if (rows && task.row_list >= 0)
          label[t] = pos < task.nrows ? g.row_lists[task.row_list + pos] : -1;
        else if (!rows && task.col_list >= 0)
          label[t] = pos < task.ncols ? g.row_lists[task.col_list + pos] : -1;
        else
          label[t] = pos < front ? front_label(task, g.ancestors, pos) : -1;
      }
      anc[t] = tile >= 0 && label[t] >= end ? 1 : 0;
    };
    line(row_tile, true, s_rows, s_row_anc);
    line(col_tile, false, s_cols, s_col_anc);
    const std::int32_t r = s_rows[t];
    s_rowp[t] = r < 0 ? nullptr : (row_tile < 0 ? g.pivot_rows : g.rows)[r];
  }
  for (int q = t; q < task.np; q += mp_threads) {
    s_piv[q] = piv[q];
    s_pivp[q] = g.pivot_rows[piv[q]];
  }
  __syncthreads();

  const T inf = sn_infinity<T>();
  const int tx = t & 15;
  const int ty = t >> 4;
  T r_acc[8][8];
  std::int32_t r_via[Paths ? 8 : 1][Paths ? 8 : 1];
  fill_identity<ops>(r_acc);
  if constexpr (Paths) {
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j)
        r_via[i][j] = -1;
  }
  // Chunk c of the pivots into stage `buf` by 4-byte asynchronous copies (cells outside the
  // front or past the pivots get infinity by plain stores).
  const auto stage = [&](int k0, int buf) {
    T* a = s_stage + buf * sn_stage_elems;
    T* bb = a + fw_tile * sn_a_stride;
    {
      // A: a warp per row and 32 consecutive pivots (one 128-byte line when the pivots are
      // consecutive labels, as most are).
      const int kk = t & 31;
      const bool live_k = k0 + kk < task.np;
      const std::int32_t pk = s_piv[live_k ? k0 + kk : 0];
#pragma unroll 4
      for (int i = t >> 5; i < fw_tile; i += mp_threads / 32) {
        const T* row = s_rowp[i];
        T* dst = a + i * sn_a_stride + kk;
        if (row != nullptr && live_k)
          cp_async_4(dst, row + pk);
        else
          *dst = inf;
      }
    }
    {
      // B: a row of 128 columns per 128 threads.
      const int j = t & (fw_tile - 1);
      const std::int32_t c = s_cols[j];
#pragma unroll 4
      for (int kk = t >> 7; kk < sn_chunk; kk += mp_threads / fw_tile) {
        T* dst = bb + kk * sn_b_stride + j;
        if (c >= 0 && k0 + kk < task.np)
          cp_async_4(dst, s_pivp[k0 + kk] + c);
        else
          *dst = inf;
      }
    }
    cp_async_commit();
  };
  const int chunks = (task.np + sn_chunk - 1) / sn_chunk;
  stage(0, 0);
  for (int c = 0; c < chunks; ++c) {
    const int k0 = c * sn_chunk;
    if (c + 1 < chunks) {
      stage(k0 + sn_chunk, (c + 1) & 1);
      cp_async_wait<1>();
    } else {
      cp_async_wait<0>();
    }
    __syncthreads();
    const T* s_a = s_stage + (c & 1) * sn_stage_elems;
    const T* s_b = s_a + fw_tile * sn_a_stride;
    if constexpr (Paths) {
      const int kn = task.np - k0 < sn_chunk ? task.np - k0 : sn_chunk;
      for (int kk = 0; kk < kn; ++kk) {
        T r_a[8];
        T r_b[8];
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          r_a[i] = s_a[tile_line(ty, i) * sn_a_stride + kk];
          r_b[i] = s_b[kk * sn_b_stride + tile_line(tx, i)];
        }
#pragma unroll
        for (int i = 0; i < 8; ++i) {
#pragma unroll
          for (int j = 0; j < 8; ++j) {
            const T s = ops::sum(r_a[i], r_b[j]);
            if (s < r_acc[i][j]) {
              r_acc[i][j] = s;
              r_via[i][j] = k0 + kk;
            }
          }
        }
      }
    } else {
      min_plus_chunk<ops, sn_a_stride, sn_b_stride, sn_chunk>(r_acc, s_a, s_b, tx, ty);
    }
    __syncthreads();
  }

  // Epilogue: strict improvements only; atomic where two tasks may write the cell.
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int li = tile_line(ty, i);
    const std::int32_t r = s_rows[li];
    T* row = s_rowp[li];
    if (row == nullptr)
      continue;
    T old[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const std::int32_t c = s_cols[tile_line(tx, j)];
      old[j] = c >= 0 ? row[c] : T{};
    }
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int lj = tile_line(tx, j);
      const std::int32_t c = s_cols[lj];
      if (c < 0)
        continue;
      const T x = clamp_min<T, Clamp>(r_acc[i][j]);
      if (!(x < old[j]))
        continue;
      if constexpr (Paths) {
        row[c] = x;
        g.via_rows[r][c] = g.order[s_piv[r_via[i][j]]];
      } else if (g.shared && s_row_anc[li] && s_col_anc[lj]) {
        atomic_min_value(row + c, x);
      } else {
        row[c] = x;
      }
    }
  }
}

/// out[i][j] = rows[row_labels[i]][label[j]] for i < count, j < n: rows of the result with
/// their columns in vertex order, for the download.
template <class E>
__global__ void sn_gather_rows_kernel(E* out, E* const* rows, const std::int32_t* row_labels,
                                      const std::int32_t* label, std::int64_t n) {
  const std::int64_t i = blockIdx.x; // one block per row (grid.y would stop at 65,535)
  const E* src = rows[row_labels[i]];
  E* dst = out + i * n;
  for (std::int64_t j = threadIdx.x; j < n; j += blockDim.x)
    dst[j] = src[label[j]];
}

/// rows[row_labels[i]][label[j]] = in[i][j]: the inverse (solve_dense's initial matrix).
template <class E>
__global__ void sn_scatter_rows_kernel(E* const* rows, const E* in,
                                       const std::int32_t* row_labels, const std::int32_t* label,
                                       std::int64_t n) {
  const std::int64_t i = blockIdx.x;
  E* dst = rows[row_labels[i]];
  const E* src = in + i * n;
  for (std::int64_t j = threadIdx.x; j < n; j += blockDim.x)
    dst[label[j]] = src[j];
}

template <class E>
__global__ void sn_row_table_kernel(E** table, E* base, std::int64_t ld, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    table[i] = base + i * ld;
}

template <class T>
__global__ void sn_fill_rows_kernel(T* local, const std::int32_t* labels, std::int64_t n,
                                    T infinity) {
  const std::int64_t i = blockIdx.x;
  T* row = local + i * n;
  const std::int32_t diagonal = labels[i];
  for (std::int64_t j = threadIdx.x; j < n; j += blockDim.x)
    row[j] = j == diagonal ? T{} : infinity;
}

template <class T>
__global__ void sn_min_into_kernel(T* dst, const T* src, std::int32_t* dst_via,
                                   const std::int32_t* src_via, std::int64_t count) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < count; i += stride) {
    if (src[i] < dst[i]) {
      dst[i] = src[i];
      if (dst_via != nullptr)
        dst_via[i] = src_via[i];
    }
  }
}

} // namespace apsp::cuda::kernels
