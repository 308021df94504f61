// The out-of-core rounds: see out_of_core_rounds.hpp, and out_of_core.hpp for the layout.
//
// Every device works on its stream s0 and three slot streams; events order every device's round
// after all devices' previous one. Per round R with pivot vertices k0 .. k0 + kv - 1:
//   pivot(R)   the row panel (Bo x ldp) and column panel (ldp x Bo) in, the pivot block closed
//              and written into both, on every device (2 Bo / n of the round's work);
//   panels(R)  both panels updated by products with the pivot block; the first device copies
//              them home once every device has read the old ones;
//   update(R)  the tiles of block rows I with I mod devices = d on device d, the last ones of
//              the round on the host's cores (cpu_share).
// Each device's buffers, events and streams: out_of_core_worker.hpp.

#include "cuda/out_of_core_rounds.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/round_schedule.hpp"
#include "cuda/block_ops.hpp"
#include "cuda/host_tiles.hpp"
#include "cuda/nvtx.hpp"
#include "cuda/out_of_core_worker.hpp"

namespace apsp::cuda {
namespace {

using apsp::detail::grid_comm;
using apsp::detail::round_control;
using apsp::detail::round_hooks;
using apsp::detail::run_context;
using apsp::detail::update_part;

constexpr std::int64_t tile = kernels::fw_tile;
constexpr int slots = out_of_core_slots;

/// The pivot vertices of round R.
struct pivot_block {
  std::int64_t k0;    // first pivot vertex
  std::int64_t kv;    // real pivot vertices in the block
  std::int64_t kt;    // k extent of the products
  std::int64_t right; // first column (row) after the pivot block
};

template <class T> class streamed_block_executor {
public:
  streamed_block_executor(T* h, std::int32_t* hv, std::int64_t n, run_context& ctx,
                          const round_hooks& hooks, const std::vector<int>& devices,
                          std::int64_t bo, bool tagged)
      : h_(h), hv_(hv), n_(n), bo_(bo), blocks_((n + bo - 1) / bo), ldp_(blocks_ * bo),
        n_up_(round_up(n, tile)), clamp_(ctx.negative_weights()),
        three_way_(three_way_minima<T>(ctx.negative_weights())),
        verbose_(ctx.tuning().cuda_verbose), first_(hooks.first_round),
        control_(one_process_, ctx, hooks) {
    const auto bb = static_cast<std::size_t>(bo * bo);
    const auto panel = static_cast<std::size_t>(bo * ldp_);
    for (int dev : devices) {
      APSP_CUDA_TRY(cudaSetDevice(dev));
      configure_block_kernels<T>(bo, clamp_, paths());
      workers_.push_back(std::make_unique<ooc_worker<T>>(
          dev, bb, panel, paths(),
          tagged && uses_tagged_paths<T>(paths(), ctx.fractional_weights()), bo, ldp_));
    }
    // The CPU's share of phase 3 (host_tiles.hpp): distances only; APSP_CUDA_OOC_CPU=0 turns it
    // off. The share follows the measured paces so the host never holds the devices up.
    if (!paths() && ctx.tuning().cuda_ooc_cpu && blocks_ >= 3)
      cpu_ = std::make_unique<host_tiles<T>>(bo, clamp_);
  }

  void run() {
    apsp::detail::run_rounds(*this, first_, blocks_, /*lookahead=*/false);
    if (!control_.failed()) {
      synchronize();
      report_share();
    }
    control_.finish();
  }

  // The steps of core/round_schedule.hpp.

  void pivot(std::int64_t R) {
    nvtx_range range("apsp::cuda out-of-core pivot");
    const pivot_block p = at(R);
    const T inf = weight_traits<T>::infinity;
    for (auto& wp : workers_) {
      ooc_worker<T>& w = *wp;
      APSP_CUDA_TRY(cudaSetDevice(w.id));
      cudaStream_t s = w.s0.get();
      if (cpu_ && wp == workers_.front())
        w.timed_begin[parity(R)].record(s);
      // This round reads what every device wrote back in the last one.
      if (R > first_) {
        for (auto& other : workers_) {
          if (other != wp)
            APSP_CUDA_TRY(cudaStreamWaitEvent(s, other->round_end[parity(R - 1)].get(), 0));
        }
      }
      // Panels in; padding = infinity, so padded vertices never improve a real distance.
      upload_rect(w.d_row.data(), ldp_, h_, n_, p.k0, 0, p.kv, n_, s);
      enqueue_fill_rect(w.d_row.data(), ldp_, p.kv, bo_ - p.kv, 0, ldp_, inf, s);
      enqueue_fill_rect(w.d_row.data(), ldp_, 0, p.kv, n_, ldp_ - n_, inf, s);
      upload_rect(w.d_col.data(), bo_, h_, n_, 0, p.k0, n_, p.kv, s);
      enqueue_fill_rect(w.d_col.data(), bo_, n_, ldp_ - n_, 0, bo_, inf, s);
      enqueue_fill_rect(w.d_col.data(), bo_, 0, n_, p.kv, bo_ - p.kv, inf, s);
      if (paths()) {
        upload_rect(w.v_row.data(), ldp_, hv_, n_, p.k0, 0, p.kv, n_, s);
        upload_rect(w.v_col.data(), bo_, hv_, n_, 0, p.k0, n_, p.kv, s);
      }
      w.panels_read.record(s);

      // The pivot block, closed with the in-core kernels, then written into both panels.
      copy_rect_d2d(w.d_piv.data(), bo_, w.d_row.data() + p.k0, ldp_, bo_, bo_, s);
      enqueue_pivot_block(w.d_piv.data(), paths() ? w.v_piv.data() : nullptr, bo_, p.kt / tile,
                          clamp_, three_way_, s);
      copy_rect_d2d(w.d_row.data() + p.k0, ldp_, w.d_piv.data(), bo_, bo_, bo_, s);
      copy_rect_d2d(w.d_col.data() + p.k0 * bo_, bo_, w.d_piv.data(), bo_, bo_, bo_, s);
      if (paths()) {
        enqueue_merge_via(w.v_row.data() + p.k0, ldp_, w.v_piv.data(), bo_, p.kv, p.kv, p.k0, s);
        enqueue_merge_via(w.v_col.data() + p.k0 * bo_, bo_, w.v_piv.data(), bo_, p.kv, p.kv, p.k0,
                          s);
      }
    }
  }

  void share_pivot(std::int64_t) {}

  /// Row panel = pivot (x) row panel, column panel = column panel (x) pivot, left and right of
  /// (above and below) the pivot block; then the first device copies them home.
  void panels(std::int64_t R) {
    nvtx_range range("apsp::cuda out-of-core panels");
    const pivot_block p = at(R);
    for (auto& wp : workers_) {
      ooc_worker<T>& w = *wp;
      APSP_CUDA_TRY(cudaSetDevice(w.id));
      cudaStream_t s = w.s0.get();
      gemm_args<T> g = product(p, w.tags_panels);
      g.rows = p.kt;
      g.a = w.d_piv.data();
      g.lda = bo_;
      g.ldc = g.ldb = ldp_;
      g.via = paths() ? w.v_row.data() : nullptr;
      g.c = w.d_row.data();
      g.b = g.c;
      g.cols = p.k0;
      enqueue_gemm(g, s);
      g.c = w.d_row.data() + p.right;
      g.b = g.c;
      g.via = paths() ? w.v_row.data() + p.right : nullptr;
      g.cols = std::max<std::int64_t>(0, n_up_ - p.right);
      enqueue_gemm(g, s);

      g.cols = p.kt;
      g.b = w.d_piv.data();
      g.ldb = bo_;
      g.lda = g.ldc = bo_;
      g.c = w.d_col.data();
      g.a = g.c;
      g.via = paths() ? w.v_col.data() : nullptr;
      g.rows = p.k0;
      enqueue_gemm(g, s);
      g.c = w.d_col.data() + p.right * bo_;
      g.a = g.c;
      g.via = paths() ? w.v_col.data() + p.right * bo_ : nullptr;
      g.rows = std::max<std::int64_t>(0, n_up_ - p.right);
      enqueue_gemm(g, s);
      w.panels_ready.record(s);
      if (wp == workers_.front())
        panels_home(p, w);
    }
  }

  void start_share(std::int64_t) {}
  void finish_share(std::int64_t) {}
  std::uint32_t check(std::int64_t) { return control_.check(); }

  /// The devices' tiles, then the host's share (the last `cpu_count` tiles of the round).
  void update(std::int64_t R, update_part) {
    nvtx_range range("apsp::cuda out-of-core update");
    const std::int64_t others = blocks_ - 1;
    const std::int64_t cpu_count = cpu_ ? share_.next(others * others) : 0;
    const std::int64_t cpu_first = others * others - cpu_count; // tile index where the CPU starts
    for (std::size_t wi = 0; wi < workers_.size(); ++wi)
      device_tiles(R, wi, cpu_first);
    if (cpu_count > 0)
      host_tiles_of(R, cpu_first);
    last_gpu_tiles_[parity(R)] = cpu_first;
  }

  /// The host stays at most two rounds ahead (round R - 1 is done before round R + 1 is
  /// enqueued), so progress is current and a cancel prompt; then progress, and the checkpoint
  /// or stop that check() decided, with the host matrices current.
  bool round_end(std::int64_t R, std::uint32_t decision) {
    if (R > first_) {
      for (auto& w : workers_)
        w->round_end[parity(R - 1)].synchronize();
      if (cpu_) {
        // The devices' pace: round R - 1 of the first device, finished (waited for above).
        ooc_worker<T>& w = *workers_.front();
        const int q = parity(R - 1);
        w.timed_end[q].synchronize();
        float ms = 0;
        APSP_CUDA_TRY(cudaEventElapsedTime(&ms, w.timed_begin[q].get(), w.timed_end[q].get()));
        share_.gpu_round(last_gpu_tiles_[q], ms / 1e3);
      }
    }
    return control_.round_end(R, blocks_, decision, [&] { synchronize(); });
  }

private:
  [[nodiscard]] bool paths() const noexcept { return hv_ != nullptr; }
  [[nodiscard]] static int parity(std::int64_t r) noexcept { return static_cast<int>(r & 1); }

  [[nodiscard]] pivot_block at(std::int64_t R) const {
    const std::int64_t k0 = R * bo_;
    const std::int64_t kv = std::min(bo_, n_ - k0);
    return {k0, kv, round_up(kv, tile), k0 + bo_};
  }

  /// The product arguments every product of the round shares.
  [[nodiscard]] gemm_args<T> product(const pivot_block& p, tag_workspace& tags) const {
    gemm_args<T> g;
    g.clamp = clamp_;
    g.three_way = three_way_;
    g.tags = tags.view(); // empty unless paths take the tagged route
    g.k = p.kt;
    g.k_base = p.k0;
    return g;
  }

  /// The updated panels back to the host (the pivot block once, with the row panel), by the
  /// first device once every device has read the old ones; overlaps phase 3, which only reads
  /// the panels and writes other host tiles.
  void panels_home(const pivot_block& p, ooc_worker<T>& w) {
    cudaStream_t s = w.s0.get();
    for (std::size_t wj = 1; wj < workers_.size(); ++wj)
      APSP_CUDA_TRY(cudaStreamWaitEvent(s, workers_[wj]->panels_read.get(), 0));
    const std::int64_t below = n_ - p.k0 - p.kv; // rows below the pivot block
    download_rect(h_, n_, p.k0, 0, w.d_row.data(), ldp_, p.kv, n_, s);
    download_rect(h_, n_, 0, p.k0, w.d_col.data(), bo_, p.k0, p.kv, s);
    download_rect(h_, n_, p.k0 + p.kv, p.k0, w.d_col.data() + (p.k0 + p.kv) * bo_, bo_, below, p.kv,
                  s);
    if (paths()) {
      download_rect(hv_, n_, p.k0, 0, w.v_row.data(), ldp_, p.kv, n_, s);
      download_rect(hv_, n_, 0, p.k0, w.v_col.data(), bo_, p.k0, p.kv, s);
      download_rect(hv_, n_, p.k0 + p.kv, p.k0, w.v_col.data() + (p.k0 + p.kv) * bo_, bo_, below,
                    p.kv, s);
    }
    w.panels_home.record(s);
  }

  /// Device wi's share of the other tiles (block rows I with I mod devices = wi): in, product,
  /// out, round-robin over the slots (each slot's stream orders its own reuse). Tiles are
  /// numbered row-major over the (blocks - 1)^2 tiles off the pivot block row and column; from
  /// cpu_first on they are the host's.
  void device_tiles(std::int64_t R, std::size_t wi, std::int64_t cpu_first) {
    ooc_worker<T>& w = *workers_[wi];
    APSP_CUDA_TRY(cudaSetDevice(w.id));
    const pivot_block p = at(R);
    const std::int64_t others = blocks_ - 1;
    const auto used = static_cast<std::int64_t>(workers_.size());
    for (auto& st : w.s_slot)
      APSP_CUDA_TRY(cudaStreamWaitEvent(st.get(), w.panels_ready.get(), 0));
    int next = 0;
    for (auto I = static_cast<std::int64_t>(wi); I < blocks_; I += used) {
      if (I == R)
        continue;
      const std::int64_t row_index = I < R ? I : I - 1;
      const std::int64_t i0 = I * bo_;
      const std::int64_t iv = std::min(bo_, n_ - i0);
      for (std::int64_t J = 0; J < blocks_; ++J) {
        if (J == R)
          continue;
        if (row_index * others + (J < R ? J : J - 1) >= cpu_first)
          continue;
        const std::int64_t j0 = J * bo_;
        const std::int64_t jv = std::min(bo_, n_ - j0);
        const int q = next;
        next = (next + 1) % slots;
        cudaStream_t sq = w.s_slot[q].get();
        // Outside the real iv x jv corner, the tile buffer holds stale values: they only feed
        // outputs in the same padded rows and columns, which are never copied out.
        upload_rect(w.d_tile[q].data(), bo_, h_, n_, i0, j0, iv, jv, sq);
        if (paths())
          upload_rect(w.v_tile[q].data(), bo_, hv_, n_, i0, j0, iv, jv, sq);
        gemm_args<T> t = product(p, w.tags_tile[q]);
        t.c = w.d_tile[q].data();
        t.ldc = bo_;
        t.via = paths() ? w.v_tile[q].data() : nullptr;
        t.a = w.d_col.data() + i0 * bo_;
        t.lda = bo_;
        t.b = w.d_row.data() + j0;
        t.ldb = ldp_;
        t.rows = round_up(iv, tile);
        t.cols = round_up(jv, tile);
        enqueue_gemm(t, sq);
        download_rect(h_, n_, i0, j0, w.d_tile[q].data(), bo_, iv, jv, sq);
        if (paths())
          download_rect(hv_, n_, i0, j0, w.v_tile[q].data(), bo_, iv, jv, sq);
      }
    }
    cudaStream_t s = w.s0.get();
    for (int q = 0; q < slots; ++q) {
      w.slot_done[q].record(w.s_slot[q].get());
      APSP_CUDA_TRY(cudaStreamWaitEvent(s, w.slot_done[q].get(), 0));
    }
    w.round_end[parity(R)].record(s);
    if (wi == 0 && cpu_)
      w.timed_end[parity(R)].record(s);
  }

  /// The host's tiles, once the panels are back in host memory, while the devices run theirs.
  /// The next round's copies are enqueued after this, so they see these tiles.
  void host_tiles_of(std::int64_t R, std::int64_t cpu_first) {
    const pivot_block p = at(R);
    const std::int64_t others = blocks_ - 1;
    workers_.front()->panels_home.synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    for (std::int64_t t = cpu_first; t < others * others; ++t) {
      const std::int64_t ri = t / others;
      const std::int64_t rj = t % others;
      const std::int64_t I = ri < R ? ri : ri + 1;
      const std::int64_t J = rj < R ? rj : rj + 1;
      cpu_->update(h_, n_, I * bo_, std::min(bo_, n_ - I * bo_), J * bo_,
                   std::min(bo_, n_ - J * bo_), p.k0, p.kv);
    }
    share_.cpu_done(others * others - cpu_first,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }

  /// Makes the host matrices current: every device's work is done (s0 waits for its slots).
  void synchronize() {
    for (auto& w : workers_) {
      APSP_CUDA_TRY(cudaSetDevice(w->id));
      w->s0.synchronize();
    }
  }

  void report_share() const {
    if (!cpu_ || !verbose_)
      return;
    std::fprintf(
        stderr, "apsp cuda out-of-core: the host updated %lld of %lld phase-3 tiles (%.1f %%)\n",
        static_cast<long long>(share_.cpu_tiles_total), static_cast<long long>(share_.tiles_total),
        share_.tiles_total > 0 ? 100.0 * static_cast<double>(share_.cpu_tiles_total) /
                                     static_cast<double>(share_.tiles_total)
                               : 0.0);
  }

  T* h_;
  std::int32_t* hv_;
  std::int64_t n_;
  std::int64_t bo_;
  std::int64_t blocks_;
  std::int64_t ldp_;
  std::int64_t n_up_; // products stop at the last real tile
  bool clamp_;
  bool three_way_; // float32 minima two pivots at a time (three_way_minima)
  bool verbose_;   // the host's share on stderr (APSP_CUDA_VERBOSE)
  std::int64_t first_;
  grid_comm one_process_;
  round_control control_;
  std::vector<std::unique_ptr<ooc_worker<T>>> workers_;
  std::unique_ptr<host_tiles<T>> cpu_;
  cpu_share share_;
  std::int64_t last_gpu_tiles_[2] = {0, 0};
};

} // namespace

template <class T>
void run_out_of_core_rounds(T* h, std::int32_t* hv, std::int64_t n, run_context& ctx,
                            const round_hooks& hooks, const std::vector<int>& devices,
                            std::int64_t bo, bool tagged) {
  if (n == 0 || devices.empty())
    return;
  streamed_block_executor<T>(h, hv, n, ctx, hooks, devices, bo, tagged).run();
}

template void run_out_of_core_rounds<std::int32_t>(std::int32_t*, std::int32_t*, std::int64_t,
                                                   run_context&, const round_hooks&,
                                                   const std::vector<int>&, std::int64_t, bool);
template void run_out_of_core_rounds<float>(float*, std::int32_t*, std::int64_t, run_context&,
                                            const round_hooks&, const std::vector<int>&,
                                            std::int64_t, bool);

} // namespace apsp::cuda
