// Blocked Floyd-Warshall (Venkataraman, Sahni and Mukhopadhyaya) on the host.
//
// Plain Floyd-Warshall updates d[i][j] at pivot k with d[i][k] and d[k][j] as they are at that
// moment. The textbook blocked form instead uses the pivot row and column as they are at the end
// of the round; the distances agree, but the via matrix would not (a path through two pivots of
// one round gets credited to the earlier one). So each round keeps snapshots: row k and column k
// of the pivot panels as they are when pivot k comes up. Phase 3 then computes exactly what the
// reference computes, bit for bit, and the snapshots are also the packed operands of the
// min-plus product, so they cost nothing extra.
//
// Per round r (pivots r0 .. r0 + kb):
//   phase 1: the pivot tile on one thread (writes the pivot tile's row and column snapshots);
//   phase 2: each tile of the pivot row and pivot column, in parallel (the column tiles are
//            transposed so both kinds are row updates); writes their snapshots;
//   phase 3: every other tile, in parallel: c = min(c, col_snap (x) row_snap).

#include "cpu/blocked_fw.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>
#include <optional>

#include "cpu/packed_buffer.hpp"
#include "cpu/tile_ops.hpp"

namespace apsp::detail::cpu {
namespace {

/// The n x n distance and via matrices, addressed by tile.
template <class T> struct matrices {
  T* d;
  std::int32_t* via; // null without paths
  std::int64_t n;
};

/// Copies the rows x cols block at (i0, j0) into packed w/vw, padding each row to `ld`.
template <class T>
void load_block(const matrices<T>& m, std::int64_t i0, std::int64_t j0, int rows, int cols, T* w,
                std::int32_t* vw, std::int64_t ld) {
  for (int x = 0; x < rows; ++x) {
    const T* src = m.d + (i0 + x) * m.n + j0;
    std::copy(src, src + cols, w + x * ld);
    std::fill(w + x * ld + cols, w + (x + 1) * ld, weight_traits<T>::infinity);
    if (m.via != nullptr) {
      const std::int32_t* vsrc = m.via + (i0 + x) * m.n + j0;
      std::copy(vsrc, vsrc + cols, vw + x * ld);
      std::fill(vw + x * ld + cols, vw + (x + 1) * ld, no_via);
    }
  }
}

template <class T>
void store_block(const matrices<T>& m, std::int64_t i0, std::int64_t j0, int rows, int cols,
                 const T* w, const std::int32_t* vw, std::int64_t ld) {
  for (int x = 0; x < rows; ++x) {
    std::copy(w + x * ld, w + x * ld + cols, m.d + (i0 + x) * m.n + j0);
    if (m.via != nullptr)
      std::copy(vw + x * ld, vw + x * ld + cols, m.via + (i0 + x) * m.n + j0);
  }
}

/// Copies the rows x cols block at (i0, j0) transposed: w[x][i] = d[i0 + i][j0 + x].
template <class T>
void load_block_transposed(const matrices<T>& m, std::int64_t i0, std::int64_t j0, int rows,
                           int cols, T* w, std::int32_t* vw, std::int64_t ld) {
  for (int x = 0; x < cols; ++x) {
    std::fill(w + x * ld + rows, w + (x + 1) * ld, weight_traits<T>::infinity);
    if (m.via != nullptr)
      std::fill(vw + x * ld + rows, vw + (x + 1) * ld, no_via);
  }
  for (int i = 0; i < rows; ++i) {
    const T* src = m.d + (i0 + i) * m.n + j0;
    for (int x = 0; x < cols; ++x)
      w[x * ld + i] = src[x];
    if (m.via != nullptr) {
      const std::int32_t* vsrc = m.via + (i0 + i) * m.n + j0;
      for (int x = 0; x < cols; ++x)
        vw[x * ld + i] = vsrc[x];
    }
  }
}

template <class T>
void store_block_transposed(const matrices<T>& m, std::int64_t i0, std::int64_t j0, int rows,
                            int cols, const T* w, const std::int32_t* vw, std::int64_t ld) {
  for (int i = 0; i < rows; ++i) {
    T* dst = m.d + (i0 + i) * m.n + j0;
    for (int x = 0; x < cols; ++x)
      dst[x] = w[x * ld + i];
    if (m.via != nullptr) {
      std::int32_t* vdst = m.via + (i0 + i) * m.n + j0;
      for (int x = 0; x < cols; ++x)
        vdst[x] = vw[x * ld + i];
    }
  }
}

} // namespace

std::int64_t packed_stride(std::int64_t block, std::size_t element_size) noexcept {
  // One extra cache line per row: a power-of-two stride would map the rows of a kernel's strip
  // onto a few L1 sets only and evict them from each other.
  return (block + packed_align - 1) / packed_align * packed_align +
         64 / static_cast<std::int64_t>(element_size);
}

std::uint64_t workspace_bytes(std::int64_t n, std::int64_t block, int threads,
                              std::size_t element_size, bool paths) noexcept {
  if (n == 0 || block <= 0)
    return 0;
  const auto tile = static_cast<std::uint64_t>(block * packed_stride(block, element_size));
  const auto tiles = static_cast<std::uint64_t>((n + block - 1) / block);
  const std::uint64_t snapshots = 2 * (tiles * tile + packed_slack) * element_size;
  const std::uint64_t scratch =
      static_cast<std::uint64_t>(threads) * tile * (element_size + (paths ? 4 : 0));
  return snapshots + scratch;
}

template <class T>
void blocked_floyd_warshall(dense_matrix<T>& d, via_matrix* via, const blocked_config& cfg,
                            run_context& ctx) {
  const std::int64_t n = d.n();
  if (n == 0)
    return;
  const bool paths = via != nullptr;
  const tile_ops<T> ops = select_tile_ops<T>(cfg.kernels, ctx.negative_weights(), paths);
  const std::int64_t b = cfg.block;
  const std::int64_t ld = packed_stride(b, sizeof(T));
  const std::int64_t tile = b * ld;
  const std::int64_t nt = (n + b - 1) / b;
  const int threads = cfg.threads;
  const matrices<T> m{d.data(), paths ? via->data() : nullptr, n};

  // [k][i] and [k][j] snapshots of the pivot column and row, one packed tile per tile index.
  auto col_snap = make_filled<T>(nt * tile + packed_slack, weight_traits<T>::infinity);
  auto row_snap = make_filled<T>(nt * tile + packed_slack, weight_traits<T>::infinity);
  auto scratch = make_filled<T>(threads * tile, weight_traits<T>::infinity);
  packed_buffer<std::int32_t> via_scratch;
  if (paths) {
    via_scratch = make_filled<std::int32_t>(threads * tile, no_via);
    std::int32_t* v = via->data();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t i = 0; i < n; ++i)
      std::fill(v + i * n, v + (i + 1) * n, no_via);
  }
  const auto edge = [&](std::int64_t t) { return static_cast<int>(std::min(b, n - t * b)); };

  // One parallel region for the whole solve, synchronised by std::barrier, which spins briefly
  // and then sleeps in the kernel. OpenMP's own barriers and idle threads spin for much longer
  // (GOMP_SPINCOUNT); on a VM whose virtual CPUs share physical cores, a spinning thread takes
  // the core from the one doing phase 1, which made 2 threads slower than 1. The progress
  // callback runs on thread 0 between rounds; an exception it throws is carried out of the
  // region (exceptions must not cross it) and all threads stop at the next barrier.
  std::optional<std::barrier<>> sync;
  std::atomic<std::int64_t> next_panel{0};
  std::atomic<bool> stop{false};
  std::exception_ptr failure;

#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const int team = omp_get_num_threads();
#pragma omp single
    sync.emplace(team);
    T* w = scratch.get() + t * tile;
    std::int32_t* vw = paths ? via_scratch.get() + t * tile : nullptr;

    for (std::int64_t r = 0; r < nt; ++r) {
      const std::int64_t r0 = r * b;
      const int kb = edge(r);
      const auto k0 = static_cast<std::int32_t>(r0);

      // Phase 1 on thread 0, which also resets the phase-2 work counter.
      if (t == 0 && !stop.load(std::memory_order_relaxed)) {
        next_panel.store(0, std::memory_order_relaxed);
        load_block(m, r0, r0, kb, kb, w, vw, ld);
        ops.pivot(w, vw, ld, kb, row_snap.get() + r * tile, col_snap.get() + r * tile, k0);
        store_block(m, r0, r0, kb, kb, w, vw, ld);
      }
      sync->arrive_and_wait();
      if (stop.load(std::memory_order_relaxed))
        break;

      // Phase 2, handed out one tile at a time: 0..nt-1 the pivot row, nt..2nt-1 the column.
      for (std::int64_t p; (p = next_panel.fetch_add(1, std::memory_order_relaxed)) < 2 * nt;) {
        const std::int64_t q = p % nt;
        if (q == r)
          continue;
        const int width = edge(q);
        if (p < nt) {
          load_block(m, r0, q * b, kb, width, w, vw, ld);
          ops.panel(w, vw, ld, kb, width, col_snap.get() + r * tile, row_snap.get() + q * tile, k0);
          store_block(m, r0, q * b, kb, width, w, vw, ld);
        } else {
          load_block_transposed(m, q * b, r0, width, kb, w, vw, ld);
          ops.panel(w, vw, ld, kb, width, row_snap.get() + r * tile, col_snap.get() + q * tile, k0);
          store_block_transposed(m, q * b, r0, width, kb, w, vw, ld);
        }
      }
      sync->arrive_and_wait();

      // Phase 3: the (nt - 1)^2 tiles off the pivot row and column, row-major, in equal
      // contiguous shares.
      const std::int64_t others = nt - 1;
      const std::int64_t count = others * others;
      for (std::int64_t p = count * t / team; p < count * (t + 1) / team; ++p) {
        std::int64_t ti = p / others;
        std::int64_t tj = p % others;
        ti += ti >= r ? 1 : 0;
        tj += tj >= r ? 1 : 0;
        const std::int64_t offset = ti * b * n + tj * b;
        ops.product(col_snap.get() + ti * tile, row_snap.get() + tj * tile, ld, kb, m.d + offset,
                    paths ? m.via + offset : nullptr, n, edge(ti), edge(tj), k0);
      }
      sync->arrive_and_wait();

      if (t == 0) {
        try {
          ctx.round_done(r + 1, nt);
        } catch (...) {
          failure = std::current_exception();
          stop.store(true, std::memory_order_relaxed);
        }
      }
    }
  }
  if (failure)
    std::rethrow_exception(failure);
}

template void blocked_floyd_warshall(dense_matrix<std::int32_t>&, via_matrix*,
                                     const blocked_config&, run_context&);
template void blocked_floyd_warshall(dense_matrix<float>&, via_matrix*, const blocked_config&,
                                     run_context&);
template void blocked_floyd_warshall(dense_matrix<std::int64_t>&, via_matrix*,
                                     const blocked_config&, run_context&);
template void blocked_floyd_warshall(dense_matrix<double>&, via_matrix*, const blocked_config&,
                                     run_context&);

} // namespace apsp::detail::cpu
