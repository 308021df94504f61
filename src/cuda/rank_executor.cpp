// The GPU executor of a rank: see rank_executor.hpp.
//
// Device state: the rank's tiles d_ (and via_) padded to multiples of 128 with infinity; the
// pivot tile piv_ (closed by its owner, received by the owners of its row and column); per round
// parity the column panel col_ (local rows x kq: the product's A) and the row panel row_ (kq x
// local columns: its B), two sets so that round r + 1's travel while round r's are read.
// Everything runs on one stream s_ in round order; NCCL broadcasts of the panels run on x_,
// joined by events. Staged broadcasts go through pinned host copies and MPI on the calling
// thread, which waits in MPI while the GPU computes.
//
// Panels are updated by min-plus products of the closed pivot tile and a copy of the panel:
// distances are exactly those of plain Floyd-Warshall; via values name an intermediate vertex
// of a shortest path (not necessarily the one the cpu back end names), the same on every run.

#include "cuda/rank_executor.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>
#include <thread>

#include "apsp/error.hpp"
#include "apsp/types.hpp"
#include "core/checks.hpp"
#include "cuda/block_ops.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/gemm_driver.hpp"
#include "cuda/initial_matrix.hpp"
#include "cuda/metrics_reduce.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/resources.hpp"
#include "cuda/tagged_panels.hpp"
#include "cuda/tile_config.hpp"
#include "cuda/transfer.hpp"

namespace apsp::cuda {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

using apsp::detail::grid_comm;
using apsp::detail::grid_layout;
using apsp::detail::matrix_reduction;
using apsp::detail::metrics_request;
using apsp::detail::round_control;
using apsp::detail::round_hooks;
using apsp::detail::run_context;
using apsp::detail::update_part;

constexpr std::int64_t tile = kernels::fw_tile;

std::int64_t padded(std::int64_t x) {
  return round_up(x, tile);
}

/// [first, last) ranges of 0 .. total without [skip, skip + width) when `has`.
struct bands {
  std::array<std::int64_t, 4> at{};
  int count = 0;
  bands(std::int64_t total, bool has, std::int64_t skip, std::int64_t width) {
    if (!has) {
      add(0, total);
      return;
    }
    add(0, skip);
    add(skip + width, total);
  }
  void add(std::int64_t first, std::int64_t last) {
    if (last > first) {
      at[static_cast<std::size_t>(2 * count)] = first;
      at[static_cast<std::size_t>(2 * count + 1)] = last;
      ++count;
    }
  }
  [[nodiscard]] std::int64_t first(int i) const { return at[static_cast<std::size_t>(2 * i)]; }
  [[nodiscard]] std::int64_t last(int i) const { return at[static_cast<std::size_t>(2 * i + 1)]; }
};

/// The device copy of a rank's tiles (rank_gpu) and the executor of its rounds.
template <class T> class resident_tile_executor final : public rank_gpu<T> {
public:
  resident_tile_executor(int device, const apsp::detail::local_tiles<T>& tiles,
                         const apsp::detail::weight_facts& weights, const graph* initial,
                         bool whole_host)
      : L_(tiles.layout), host_d_(tiles.d), host_via_(tiles.via), device_(device),
        clamp_(weights.has_negative && std::is_integral_v<T>),
        three_way_(three_way_minima<T>(weights.has_negative)), rows_(padded(L_.local_rows())),
        cols_(padded(L_.local_cols())), kp_(padded(L_.b)), guard_(device), d_(cells()),
        via_(paths() ? cells() : 0), piv_(static_cast<std::size_t>(kp_ * kp_)),
        piv_via_(paths() ? static_cast<std::size_t>(kp_ * kp_) : 0) {
    APSP_EXPECTS(L_.b % tile == 0, invalid_argument_error,
                 "GPU ranks need a tile edge (--block) that is a multiple of 128, got " +
                     std::to_string(L_.b));
    const auto setup_start = std::chrono::steady_clock::now();
    if (whole_host) {
      APSP_EXPECTS(L_.cols == 1, internal_error, "whole host matrices need one process column");
      host_map_ = {.stride = L_.n, .block = L_.b, .groups = L_.rows, .group = L_.row};
    }
    if (uses_tagged_paths<T>(paths(), weights.has_fraction))
      tags_ = tag_workspace(rows_, cols_, kp_ / tile);
    for (int p = 0; p < 2; ++p) {
      col_[p] = device_buffer<T>(static_cast<std::size_t>(rows_ * kp_));
      row_[p] = device_buffer<T>(static_cast<std::size_t>(kp_ * cols_));
    }
    configure_block_kernels<T>(tile, clamp_, paths());
    cudaStream_t s = s_.get();
    enqueue_fill_rect<T>(d_.data(), cols_, 0, rows_, 0, cols_, weight_traits<T>::infinity, s);
    if (paths())
      enqueue_fill_rect<std::int32_t>(via_.data(), cols_, 0, rows_, 0, cols_, no_via, s);
    from_edges_ = initial != nullptr;
    // One page-locked staging pair for the set-up's copies and the downloads, made once:
    // page-locking costs time per MiB pinned, and made per copy it was a visible part of every
    // download of a large share on the command's time. Built from the edges, the pair is sized
    // for them (at least a row), as in the one-device solve (cuda_backend.cpp): a sparse graph's
    // set-up then pins a few MiB instead of a pair sized for the download, whose page-locking
    // was most of the set-up (measured: docs/dev/benchmark-log.md, 'Figures from code
    // comments').
    const std::size_t row_bytes = static_cast<std::size_t>(L_.local_cols()) * sizeof(T);
    const std::size_t copy_bytes =
        initial != nullptr
            ? std::max(static_cast<std::size_t>(initial->num_edges()) * staged_edge_bytes,
                       row_bytes)
            : static_cast<std::size_t>(L_.local_rows()) * row_bytes;
    if (copy_bytes > 0)
      staging_.emplace(copy_bytes, std::max(row_bytes, staged_edge_bytes));
    if (initial != nullptr) {
      // Every device streams the whole edge list and keeps its own tiles' edges (the kernel
      // sorts them out): sorting them out on the host first cost each device of a two-GPU split
      // two passes over the list and a fresh copy of its half.
      const held_tiles held{L_.b, L_.rows, L_.cols, L_.row, L_.col};
      enqueue_lower_held_diagonal<T>(d_.data(), cols_, L_.n, held, s);
      scatter_host_edges(initial->sources().data(), initial->targets().data(),
                         initial->weights().data(), initial->num_edges(), d_.data(), cols_, s,
                         staging(), held);
    } else {
      host_rect(d_.data(), host_d_, cudaMemcpyHostToDevice);
      if (paths())
        host_rect(via_.data(), host_via_, cudaMemcpyHostToDevice);
    }
    s_.synchronize();
    setup_seconds_ = seconds_since(setup_start);
  }

  void run(grid_comm& comm, run_context& ctx, const round_hooks& hooks) override {
    const device_guard on(device_);
    nvtx_range range("apsp::cuda rank rounds");
    comm_ = &comm;
    round_control control(comm, ctx, hooks);
    control_ = &control;
    first_ = hooks.first_round;
    // The staged path needs host copies of whatever does not travel GPU to GPU.
    const bool staged = !comm.device_row() || !comm.device_col();
    if (staged && comm.distributed() && piv_host_.size() == 0) {
      piv_host_ = pinned_buffer<T>(static_cast<std::size_t>(kp_ * kp_));
      for (int p = 0; p < 2; ++p) {
        col_host_[p] = pinned_buffer<T>(static_cast<std::size_t>(rows_ * kp_));
        row_host_[p] = pinned_buffer<T>(static_cast<std::size_t>(kp_ * cols_));
      }
    }
    // Built from the edges, the host tiles are first written by a download: their pages are
    // faulted in on a thread while the rounds run (as in the one-device solve, cuda_backend.cpp),
    // or the download would fault them in page by page (costly above all in a memory-mapped
    // output file, where it made two GPUs slower than one; measured: docs/dev/benchmark-log.md,
    // 'Figures from code comments'). download() joins it first. APSP_CUDA_PREFAULT=0: none
    // (measurements).
    matrix_reduction* const reduction = ctx.reduction();
    APSP_EXPECTS(reduction == nullptr || (from_edges_ && !paths()), internal_error,
                 "a rank reduces in place only tiles built from the edges, without paths");
    if (from_edges_ && reduction == nullptr && prefault_enabled())
      fault_ = std::jthread([this] { fault_in_host_rows(); });
    // Two timed events a round on each stream: the per-rank report of a distributed solve.
    times_.emplace();
    times_->first.record(s_.get());
    apsp::detail::run_rounds(*this, hooks.first_round, L_.tiles(),
                             hooks.lookahead && comm.distributed());
    if (times_)
      times_->last.record(s_.get());
    if (!control.failed())
      control.guarded([&] { reduction != nullptr ? reduce(*reduction) : download(); });
    if (ctx.tuning().cuda_rank_times && !control.failed())
      control.guarded([&] { print_times(); });
    control_ = nullptr;
    control.finish();
  }

  // The steps of core/round_schedule.hpp.

  void pivot(std::int64_t r) {
    if (!L_.owns_row(r) || !L_.owns_col(r))
      return;
    control_->guarded([&] {
      const std::int64_t kq = padded(L_.edge(r));
      cudaStream_t s = s_.get();
      T* at = d_.data() + line_row(r) * cols_ + line_col(r);
      copy_rect_d2d(piv_.data(), kq, at, cols_, kq, kq, s);
      enqueue_pivot_block(piv_.data(), paths() ? piv_via_.data() : nullptr, kq, kq / tile, clamp_,
                          three_way_, s);
      copy_rect_d2d(at, cols_, piv_.data(), kq, kq, kq, s);
      if (paths())
        enqueue_merge_via(via_.data() + line_row(r) * cols_ + line_col(r), cols_, piv_via_.data(),
                          kq, kq, kq, r * L_.b, s);
    });
  }

  /// The closed pivot tile goes along its process row and column.
  void share_pivot(std::int64_t r) {
    const bool in_row = L_.owns_row(r);
    const bool in_col = L_.owns_col(r);
    const std::int64_t kq = padded(L_.edge(r));
    const std::size_t bytes = static_cast<std::size_t>(kq * kq) * sizeof(T);
    share(piv_.data(), piv_host_.data(), bytes, in_row, in_col, L_.col_owner(r), L_.row_owner(r),
          s_.get());
  }

  void panels(std::int64_t r) {
    control_->guarded([&] {
      const std::int64_t kq = padded(L_.edge(r));
      const std::int64_t lr = line_row(r);
      const std::int64_t lc = line_col(r);
      const bool has_row = L_.owns_row(r);
      const bool has_col = L_.owns_col(r);
      cudaStream_t s = s_.get();
      gemm_args<T> g = product(r);
      const int p = parity(r);
      // The row panel: piv (x) its copy in row_, beside the pivot tile. (Reading a copy keeps
      // every element's result, via included, independent of the order of the thread blocks.)
      if (has_row) {
        copy_row_panel(r);
        const bands cb(cols_, has_col, lc, kq);
        for (int i = 0; i < cb.count; ++i) {
          g.c = d_.data() + lr * cols_ + cb.first(i);
          g.ldc = g.ldb = cols_;
          g.b = row_[p].data() + cb.first(i);
          g.a = piv_.data();
          g.lda = kq;
          g.via = paths() ? via_.data() + lr * cols_ + cb.first(i) : nullptr;
          g.rows = kq;
          g.cols = cb.last(i) - cb.first(i);
          enqueue_gemm(g, s);
        }
      }
      // The column panel: its copy in col_ (x) piv, above and below the pivot tile.
      if (has_col) {
        copy_col_panel(r);
        const bands rb(rows_, has_row, lr, kq);
        for (int i = 0; i < rb.count; ++i) {
          g.c = d_.data() + rb.first(i) * cols_ + lc;
          g.ldc = cols_;
          g.a = col_[p].data() + rb.first(i) * kq;
          g.lda = kq;
          g.b = piv_.data();
          g.ldb = kq;
          g.via = paths() ? via_.data() + rb.first(i) * cols_ + lc : nullptr;
          g.rows = rb.last(i) - rb.first(i);
          g.cols = kq;
          enqueue_gemm(g, s);
        }
      }
      // The updated panels are the round's operands.
      if (has_col)
        copy_col_panel(r);
      if (has_row)
        copy_row_panel(r);
      panels_ready_[p].record(s);
    });
  }

  /// The row panel goes down every process column, the column panel across every process row.
  void start_share(std::int64_t r) {
    const int p = parity(r);
    const std::int64_t kq = padded(L_.edge(r));
    const auto row_bytes = static_cast<std::size_t>(kq * cols_) * sizeof(T);
    const auto col_bytes = static_cast<std::size_t>(rows_ * kq) * sizeof(T);
    if (comm_->device_row() || comm_->device_col()) {
      control_->guarded([&] {
        APSP_CUDA_TRY(cudaStreamWaitEvent(x_.get(), panels_ready_[p].get(), 0));
        if (times_)
          times_->x_from.emplace_back().record(x_.get());
      });
    }
    if (comm_->device_col())
      comm_->device_bcast_col(row_[p].data(), row_bytes, L_.row_owner(r), x_.get());
    if (comm_->device_row())
      comm_->device_bcast_row(col_[p].data(), col_bytes, L_.col_owner(r), x_.get());
    if (comm_->device_row() || comm_->device_col()) {
      control_->guarded([&] {
        shared_[p].record(x_.get());
        if (times_)
          times_->x_to.emplace_back().record(x_.get());
      });
    }
    if (!comm_->distributed() || (comm_->device_row() && comm_->device_col()))
      return;
    // Staged: the owners' panels to the host; the host copies of two rounds ago are free.
    control_->guarded([&] {
      uploaded_[p].synchronize();
      panels_ready_[p].synchronize();
      if (!comm_->device_col() && L_.owns_row(r))
        APSP_CUDA_TRY(
            cudaMemcpy(row_host_[p].data(), row_[p].data(), row_bytes, cudaMemcpyDeviceToHost));
      if (!comm_->device_row() && L_.owns_col(r))
        APSP_CUDA_TRY(
            cudaMemcpy(col_host_[p].data(), col_[p].data(), col_bytes, cudaMemcpyDeviceToHost));
    });
    if (!comm_->device_col())
      comm_->start_bcast_col(row_host_[p].data(), row_bytes, L_.row_owner(r));
    if (!comm_->device_row())
      comm_->start_bcast_row(col_host_[p].data(), col_bytes, L_.col_owner(r));
  }

  void finish_share(std::int64_t r) {
    const int p = parity(r);
    const std::int64_t kq = padded(L_.edge(r));
    cudaStream_t s = s_.get();
    if (comm_->device_row() || comm_->device_col()) {
      control_->guarded([&] {
        if (times_)
          times_->wait_from.emplace_back().record(s);
        APSP_CUDA_TRY(cudaStreamWaitEvent(s, shared_[p].get(), 0));
        if (times_)
          times_->wait_to.emplace_back().record(s);
      });
    }
    if (!comm_->distributed() || (comm_->device_row() && comm_->device_col()))
      return;
    comm_->wait_all();
    control_->guarded([&] {
      if (!comm_->device_col() && !L_.owns_row(r))
        APSP_CUDA_TRY(cudaMemcpyAsync(row_[p].data(), row_host_[p].data(),
                                      static_cast<std::size_t>(kq * cols_) * sizeof(T),
                                      cudaMemcpyHostToDevice, s));
      if (!comm_->device_row() && !L_.owns_col(r))
        APSP_CUDA_TRY(cudaMemcpyAsync(col_[p].data(), col_host_[p].data(),
                                      static_cast<std::size_t>(rows_ * kq) * sizeof(T),
                                      cudaMemcpyHostToDevice, s));
      uploaded_[p].record(s);
    });
  }

  std::uint32_t check(std::int64_t) { return control_->check(); }

  /// c = min(c, col panel (x) row panel) over the part's rectangles of the local tiles (the
  /// panels themselves included: the closed pivot leaves them as they are).
  void update(std::int64_t r, update_part part) {
    control_->guarded([&] {
      gemm_args<T> g = product(r);
      const int p = parity(r);
      const std::int64_t kq = padded(L_.edge(r));
      g.a = col_[p].data();
      g.lda = kq;
      g.b = row_[p].data();
      g.ldb = cols_;
      g.ldc = cols_;
      const auto rect = [&](std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1) {
        g.c = d_.data() + i0 * cols_ + j0;
        g.via = paths() ? via_.data() + i0 * cols_ + j0 : nullptr;
        g.a = col_[p].data() + i0 * kq;
        g.b = row_[p].data() + j0;
        g.rows = i1 - i0;
        g.cols = j1 - j0;
        enqueue_gemm(g, s_.get());
      };
      if (part == update_part::all) {
        rect(0, rows_, 0, cols_);
        return;
      }
      // The tiles of row and column r + 1, or all but those.
      const bool has_row = L_.owns_row(r + 1);
      const bool has_col = L_.owns_col(r + 1);
      const std::int64_t lr = line_row(r + 1);
      const std::int64_t lc = line_col(r + 1);
      const std::int64_t kn = padded(L_.edge(r + 1));
      const bands rb(rows_, has_row, lr, kn);
      if (part == update_part::next_lines) {
        if (has_row)
          rect(lr, lr + kn, 0, cols_);
        for (int i = 0; has_col && i < rb.count; ++i)
          rect(rb.first(i), rb.last(i), lc, lc + kn);
        return;
      }
      const bands cb(cols_, has_col, lc, kn);
      for (int i = 0; i < rb.count; ++i)
        for (int j = 0; j < cb.count; ++j)
          rect(rb.first(i), rb.last(i), cb.first(j), cb.last(j));
    });
  }

  /// The host stays at most a round ahead of the GPU (so progress means something), then the
  /// checkpoint or stop that check() decided.
  bool round_end(std::int64_t r, std::uint32_t decision) {
    control_->guarded([&] {
      round_done_[parity(r)].record(s_.get());
      if (r > first_)
        round_done_[parity(r - 1)].synchronize();
    });
    return control_->round_end(r, L_.tiles(), decision, [&] { download(); });
  }

private:
  [[nodiscard]] bool paths() const noexcept { return host_via_ != nullptr; }
  [[nodiscard]] std::size_t cells() const noexcept {
    return static_cast<std::size_t>(rows_ * cols_);
  }
  [[nodiscard]] static int parity(std::int64_t r) noexcept { return static_cast<int>(r & 1); }
  /// Local row (column) where tile row (column) r starts, when held here.
  [[nodiscard]] std::int64_t line_row(std::int64_t r) const { return L_.local_tile_row(r) * L_.b; }
  [[nodiscard]] std::int64_t line_col(std::int64_t r) const { return L_.local_tile_col(r) * L_.b; }

  /// Tile row r (kq x local columns) into row_, tile column r (local rows x kq) into col_.
  void copy_row_panel(std::int64_t r) {
    const std::int64_t kq = padded(L_.edge(r));
    APSP_CUDA_TRY(cudaMemcpyAsync(row_[parity(r)].data(), d_.data() + line_row(r) * cols_,
                                  static_cast<std::size_t>(kq * cols_) * sizeof(T),
                                  cudaMemcpyDeviceToDevice, s_.get()));
  }
  void copy_col_panel(std::int64_t r) {
    const std::int64_t kq = padded(L_.edge(r));
    copy_rect_d2d(col_[parity(r)].data(), kq, d_.data() + line_col(r), cols_, rows_, kq, s_.get());
  }

  /// The product arguments every step of round r shares.
  [[nodiscard]] gemm_args<T> product(std::int64_t r) {
    gemm_args<T> g;
    g.k = padded(L_.edge(r));
    g.k_base = r * L_.b;
    g.clamp = clamp_;
    g.three_way = three_way_;
    g.tags = tags_.view(); // empty unless paths take the tagged route
    return g;
  }

  /// `dev` (bytes) along this process row (when in_row, from column root_col) and column (when
  /// in_col, from row root_row): on stream s where the communicator can, else through `host`.
  void share(T* dev, T* host, std::size_t bytes, bool in_row, bool in_col, int root_col,
             int root_row, cudaStream_t s) {
    if (!comm_->distributed())
      return;
    const bool from_here = in_row && in_col;
    if (in_row && comm_->device_row())
      comm_->device_bcast_row(dev, bytes, root_col, s);
    if (in_col && comm_->device_col())
      comm_->device_bcast_col(dev, bytes, root_row, s);
    const bool row_staged = in_row && !comm_->device_row();
    const bool col_staged = in_col && !comm_->device_col();
    if (!row_staged && !col_staged)
      return;
    if (from_here) {
      control_->guarded([&] {
        APSP_CUDA_TRY(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s));
        APSP_CUDA_TRY(cudaStreamSynchronize(s));
      });
    }
    if (row_staged)
      comm_->bcast_row(host, bytes, root_col);
    if (col_staged)
      comm_->bcast_col(host, bytes, root_row);
    if (!from_here) {
      control_->guarded([&] {
        APSP_CUDA_TRY(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s));
        APSP_CUDA_TRY(cudaStreamSynchronize(s)); // the host copy is rewritten next round
      });
    }
  }

  /// The local tiles between the host (stride local columns) and the device (stride cols_),
  /// through pinned staging buffers and host copies on all cores (transfer.hpp): a pageable
  /// copy of a large rank is much slower (measured: docs/dev/benchmark-log.md, 'Figures from
  /// code comments').
  template <class V> void host_rect(V* dev, V* host, cudaMemcpyKind kind) {
    const std::int64_t rows = L_.local_rows();
    const std::int64_t cols = L_.local_cols();
    if (kind == cudaMemcpyHostToDevice)
      upload_rows(host, dev, sizeof(V), rows, cols, cols_, s_.get(), staging(), host_map_);
    else
      download_rows(dev, host, sizeof(V), rows, cols, cols_, s_.get(), staging(), host_map_);
  }
  [[nodiscard]] const staging_buffers* staging() const noexcept {
    return staging_ ? &*staging_ : nullptr;
  }
  /// Writes a zero into every page of this rank's host rows (distances and via values).
  void fault_in_host_rows() {
    nvtx_range range("apsp::cuda rank prefault host rows");
    const std::int64_t rows = L_.local_rows();
    const std::int64_t cols = L_.local_cols();
    const std::int64_t stride = host_map_.stride != 0 ? host_map_.stride : cols;
    for (std::int64_t l = 0; l < rows; ++l) {
      const auto at = static_cast<std::size_t>(host_map_.at(l) * stride);
      std::memset(host_d_ + at, 0, static_cast<std::size_t>(cols) * sizeof(T));
      if (host_via_ != nullptr)
        std::memset(host_via_ + at, 0, static_cast<std::size_t>(cols) * sizeof(std::int32_t));
    }
  }

public:
  /// Where this device's rounds went, GPU-side, once they are done: the span of its compute
  /// stream, how long that stream waited for panels shared by the other devices (the exchange
  /// not hidden), and how long the panel copies took on the exchange stream (hidden or not).
  rank_gpu_times times() override {
    rank_gpu_times t;
    if (!times_)
      return t;
    const auto sum = [](const std::deque<event>& from, const std::deque<event>& to) {
      double ms = 0;
      for (std::size_t i = 0; i < std::min(from.size(), to.size()); ++i)
        ms += to[i].ms_since(from[i]);
      return ms / 1e3;
    };
    const device_guard on(device_);
    x_.synchronize();
    s_.synchronize();
    t.compute_span = times_->last.ms_since(times_->first) / 1e3;
    t.panel_waits = sum(times_->wait_from, times_->wait_to);
    t.exchange = sum(times_->x_from, times_->x_to);
    t.download = download_seconds_;
    return t;
  }

private:
  /// APSP_CUDA_RANK_TIMES=1 (measurements): times() on stderr, with the set-up and download.
  void print_times() {
    const rank_gpu_times t = times();
    const double span = t.compute_span;
    const double waited = t.panel_waits;
    const double copies = t.exchange;
    std::fprintf(stderr,
                 "apsp cuda rank times: device %d, %lld rounds: compute stream %.3f s, of which "
                 "waiting for shared panels %.3f s (%zu waits); panel copies on the exchange "
                 "stream %.3f s; set-up (tiles from the %s) %.3f s, download %.3f s\n",
                 device_, static_cast<long long>(L_.tiles()), span, waited,
                 times_->wait_from.size(), copies, from_edges_ ? "edges" : "host matrix",
                 setup_seconds_, download_seconds_);
  }

  /// The metrics' reductions of this device's tiles, one tile row at a time (the parts of its
  /// rows in the columns this rank holds), instead of a download.
  void reduce(matrix_reduction& into) {
    const metrics_request request = into.request();
    const apsp::detail::column_share share{L_.b, L_.cols, L_.col};
    for (std::int64_t t = 0; t < L_.tiles(); ++t) {
      if (!L_.owns_row(t))
        continue;
      const std::int64_t first = t * L_.b;
      // Row stride cols_ (padded), the columns held L_.local_cols(): the padding is no column.
      into.take(reduce_for_metrics(d_.data() + L_.local_row(first) * cols_, cols_, L_.local_cols(),
                                   share, first, L_.edge(t), request, s_.get()));
    }
  }

  /// Makes the host tiles current.
  void download() {
    const auto start = std::chrono::steady_clock::now();
    if (fault_.joinable())
      fault_.join();
    host_rect(d_.data(), host_d_, cudaMemcpyDeviceToHost);
    if (paths())
      host_rect(via_.data(), host_via_, cudaMemcpyDeviceToHost);
    s_.synchronize();
    download_seconds_ = seconds_since(start);
  }

  grid_layout L_;
  T* host_d_;
  std::int32_t* host_via_;
  int device_;
  bool clamp_;
  bool three_way_; // float32 minima two pivots at a time (three_way_minima)
  std::int64_t rows_;
  std::int64_t cols_;
  std::int64_t kp_;
  device_guard guard_;
  device_buffer<T> d_;
  device_buffer<std::int32_t> via_;
  device_buffer<T> piv_;
  device_buffer<std::int32_t> piv_via_;
  device_buffer<T> col_[2];
  device_buffer<T> row_[2];
  tag_workspace tags_;
  host_rows host_map_;      // where the host copy's rows are (transfer.hpp)
  bool from_edges_ = false; // built from the edges: the host tiles are written by downloads only
  std::jthread fault_;      // faults in the host rows' pages during the rounds (run)
  struct stamps {           // times()
    event first;
    event last;
    std::deque<event> wait_from, wait_to, x_from, x_to;
  };
  std::optional<stamps> times_;
  std::optional<staging_buffers> staging_; // the set-up's copies and the downloads
  double setup_seconds_ = 0;               // the constructor's fills and copies (print_times)
  double download_seconds_ = 0;            // download(), the prefault's join included (print_times)
  pinned_buffer<T> piv_host_;
  pinned_buffer<T> col_host_[2];
  pinned_buffer<T> row_host_[2];
  event panels_ready_[2] = {event(cudaEventDisableTiming), event(cudaEventDisableTiming)};
  event shared_[2] = {event(cudaEventDisableTiming), event(cudaEventDisableTiming)};
  event uploaded_[2] = {event(cudaEventDisableTiming), event(cudaEventDisableTiming)};
  event round_done_[2] = {event(cudaEventDisableTiming | cudaEventBlockingSync),
                          event(cudaEventDisableTiming | cudaEventBlockingSync)};
  stream x_; // NCCL broadcasts of the panels
  stream s_; // everything else, in round order
  grid_comm* comm_ = nullptr;
  round_control* control_ = nullptr;
  std::int64_t first_ = 0;
};

} // namespace

rank_device pick_rank_device(int node_rank) {
  rank_device out;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    out.name = "no CUDA device";
    return out;
  }
  out.device = node_rank % count;
  cudaDeviceProp prop{};
  APSP_CUDA_TRY(cudaGetDeviceProperties(&prop, out.device));
  out.name = prop.name;
  char bus[32];
  std::snprintf(bus, sizeof bus, "%08x:%02x:%02x.0", static_cast<unsigned>(prop.pciDomainID),
                static_cast<unsigned>(prop.pciBusID), static_cast<unsigned>(prop.pciDeviceID));
  out.pci_bus_id = bus;
  const device_guard on(out.device);
  std::size_t free_bytes = 0;
  std::size_t total = 0;
  APSP_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total));
  out.free_bytes = free_bytes;
  out.available = true;
  return out;
}

std::uint64_t rank_executor_bytes(const grid_layout& L, std::size_t element_size, bool paths) {
  const auto rows = static_cast<std::uint64_t>(padded(L.local_rows()));
  const auto cols = static_cast<std::uint64_t>(padded(L.local_cols()));
  const auto k = static_cast<std::uint64_t>(padded(L.b));
  const std::uint64_t per_cell = element_size + (paths ? 4 : 0);
  const std::uint64_t tags =
      paths ? tag_workspace_bytes(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols),
                                  static_cast<std::int64_t>(k) / tile)
            : 0;
  return (rows * cols + k * k) * per_cell + 2 * (rows + cols) * k * element_size + tags;
}

template <class T>
std::unique_ptr<rank_gpu<T>> make_rank_gpu(int device, const apsp::detail::local_tiles<T>& tiles,
                                           const apsp::detail::weight_facts& weights,
                                           const graph* initial, bool whole_host) {
  return std::make_unique<resident_tile_executor<T>>(device, tiles, weights, initial, whole_host);
}

APSP_INSTANTIATE_MAKE_RANK_GPU(std::int32_t)
APSP_INSTANTIATE_MAKE_RANK_GPU(float)
#undef APSP_INSTANTIATE_MAKE_RANK_GPU

} // namespace apsp::cuda
