// Blocked Floyd-Warshall (Venkataraman, Sahni and Mukhopadhyaya) on the host: the cpu executor
// of the round schedule (core/round_schedule.hpp), for one process or one MPI rank.
//
// Plain Floyd-Warshall updates d[i][j] at pivot k with d[i][k] and d[k][j] as they are at that
// moment. The textbook blocked form instead uses the pivot row and column as they are at the end
// of the round; the distances agree, but the via matrix would not (a path through two pivots of
// one round gets credited to the earlier one). So each round keeps snapshots: row k and column k
// of the pivot panels as they are when pivot k comes up. Phase 3 then computes exactly what the
// reference computes, bit for bit, and the snapshots are also the packed operands of the
// min-plus product, so they cost nothing extra. They are also what travels between ranks.
//
// Per round r (pivots r0 .. r0 + kb):
//   pivot:  the pivot tile on one thread (writes the pivot tile's row and column snapshots);
//   panels: each tile of the pivot row and pivot column, in parallel (the column tiles are
//           transposed so both kinds are row updates); writes their snapshots;
//   update: every other tile, in parallel: c = min(c, col_snap (x) row_snap).
// Snapshots are indexed by local tile column (row_snap) and local tile row (col_snap); the pivot
// tile's own snapshots go to the slots of tile column (row) r, which phase 3 never reads. Two
// sets alternate by round parity, so look-ahead can fill round r + 1's while round r's are read.

#include "cpu/blocked_fw.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <thread>

#include "cpu/packed_buffer.hpp"
#include "cpu/team_barrier.hpp"
#include "cpu/tile_ops.hpp"

namespace apsp::detail::cpu {
namespace {

/// This process's distance and via values (row stride `n` elements), addressed by local row
/// and column.
template <class T> struct matrices {
  T* d;
  std::int32_t* via; // null without paths
  std::int64_t n;    // row stride
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

/// Copies the rows x cols block at (i0, j0) transposed: w[x][i] = d[i0 + i][j0 + x], padding
/// each of w's rows to `ld`.
template <class T>
void load_block_transposed(const matrices<T>& m, const tile_ops<T>& ops, std::int64_t i0,
                           std::int64_t j0, int rows, int cols, T* w, std::int32_t* vw,
                           std::int64_t ld) {
  for (int x = 0; x < cols; ++x) {
    std::fill(w + x * ld + rows, w + (x + 1) * ld, weight_traits<T>::infinity);
    if (m.via != nullptr)
      std::fill(vw + x * ld + rows, vw + (x + 1) * ld, no_via);
  }
  ops.transpose(m.d + i0 * m.n + j0, m.n, w, ld, rows, cols);
  if (m.via != nullptr)
    ops.transpose_via(m.via + i0 * m.n + j0, m.n, vw, ld, rows, cols);
}

template <class T>
void store_block_transposed(const matrices<T>& m, const tile_ops<T>& ops, std::int64_t i0,
                            std::int64_t j0, int rows, int cols, const T* w, const std::int32_t* vw,
                            std::int64_t ld) {
  ops.transpose(w, ld, m.d + i0 * m.n + j0, m.n, cols, rows);
  if (m.via != nullptr)
    ops.transpose_via(vw, ld, m.via + i0 * m.n + j0, m.n, cols, rows);
}

/// A thread's share of a round's tiles [front, back), taken from the front by its owner and
/// from the back by the others, in one word so that both ends move by compare-and-swap.
struct alignas(64) tile_share {
  std::atomic<std::uint64_t> ends{0}; // front in the low 32 bits, back in the high 32

  void reset(std::int64_t front, std::int64_t back) {
    ends.store(static_cast<std::uint64_t>(back) << 32 | static_cast<std::uint64_t>(front),
               std::memory_order_relaxed);
  }
  /// The next tile from the front, or -1 once the share is empty.
  std::int64_t take_front() { return take(false); }
  /// The last tile from the back, or -1 once the share is empty.
  std::int64_t take_back() { return take(true); }

private:
  std::int64_t take(bool back) {
    std::uint64_t v = ends.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint64_t front = v & 0xffffffffu;
      const std::uint64_t end = v >> 32;
      if (front >= end)
        return -1;
      const std::uint64_t next = back ? (end - 1) << 32 | front : end << 32 | (front + 1);
      if (ends.compare_exchange_weak(v, next, std::memory_order_relaxed))
        return static_cast<std::int64_t>(back ? end - 1 : front);
    }
  }
};

/// Where each thread's time goes (APSP_CPU_PROFILE=1, printed to stderr after the rounds):
/// seconds in phase-3 tiles, panel tiles and the pivot, the rest of the parallel region being
/// waits (barriers, look-ahead's spins) and the steps' bookkeeping.
struct thread_times {
  // Beside the busy kinds, parts of the time: panel_copy, the part of `panel` spent copying the
  // tile into and out of its scratch tile; and the waits: at the barrier that ends a look-ahead
  // round's tiles (round_wait), at the team's other barriers, for the lines before the pivot
  // (thread 0), and for the pivot before a panel tile.
  enum kind {
    product,
    panel,
    pivot,
    busy_kinds,
    panel_copy = busy_kinds,
    round_wait,
    barrier_wait,
    lines_wait,
    pivot_wait,
    kinds
  };
  alignas(64) double seconds[kinds] = {};
  std::int64_t count[kinds] = {};
};

/// Adds the scope's duration to one kind of a thread's times, when there are times to keep.
class timed_scope {
public:
  timed_scope(thread_times* t, thread_times::kind k) : t_(t), k_(k) {
    if (t_ != nullptr)
      start_ = std::chrono::steady_clock::now();
  }
  ~timed_scope() {
    if (t_ == nullptr)
      return;
    t_->seconds[k_] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    ++t_->count[k_];
  }
  timed_scope(const timed_scope&) = delete;
  timed_scope& operator=(const timed_scope&) = delete;

private:
  thread_times* t_;
  thread_times::kind k_;
  std::chrono::steady_clock::time_point start_;
};

/// One process's team of threads carrying out the schedule's steps. Every step is called on
/// every thread of the team; communication and the hooks run on thread 0 (MPI_THREAD_FUNNELED).
template <class T> class team_tile_executor {
public:
  team_tile_executor(const local_tiles<T>& tiles, grid_comm& comm, const blocked_config& cfg,
                     run_context& ctx, const round_hooks& hooks)
      : L_(tiles.layout), m_{tiles.d, tiles.via, tiles.layout.local_cols()}, comm_(comm),
        hooks_(hooks), control_(comm, ctx, hooks),
        ops_(select_tile_ops<T>(cfg.kernels, ctx.negative_weights(), tiles.via != nullptr)),
        b_(cfg.block), ld_(packed_stride(cfg.block, sizeof(T))), tile_(b_ * ld_),
        ltr_(L_.tile_rows()), ltc_(L_.tile_cols()), threads_(cfg.threads),
        threads_fit_(cfg.threads_fit) {
    // Look-ahead fills round r + 1's snapshots while round r's are read: two sets then. It hides
    // the pivot tile: thread 0 closes round r + 1's pivot once round r's tiles of row and
    // column r + 1 are counted done (no barrier) while the others go on to round r's remaining
    // tiles (each its own share first, update()), and round r + 1's panel tiles follow them
    // (APSP_CPU_LOOKAHEAD=0 turns that off in one process). Between ranks it hides the
    // broadcasts as well: the pivot goes to the ranks of its row and column without a wait,
    // their panel tiles start when it has arrived, and the panels go out as soon as the last
    // of them is done, all while this round's tiles are computed (APSP_CPU_RANK_OVERLAP=0: the
    // pivot's broadcast waits and round r + 1's panels come before round r's remaining tiles).
    ranks_ = comm.distributed();
    const bool local_ok = cfg.threads > 1 && ctx.tuning().cpu_lookahead;
    lookahead_ = hooks.lookahead && (ranks_ || local_ok);
    overlap_ = lookahead_ && (!ranks_ || ctx.tuning().cpu_rank_overlap);
    for (int p = 0; p < (lookahead_ ? 2 : 1); ++p) {
      col_snap_[p] = make_filled<T>(ltr_ * tile_ + packed_slack, weight_traits<T>::infinity);
      row_snap_[p] = make_filled<T>(ltc_ * tile_ + packed_slack, weight_traits<T>::infinity);
    }
    scratch_ = make_filled<T>(threads_ * tile_, weight_traits<T>::infinity);
    shares_ = std::make_unique<tile_share[]>(static_cast<std::size_t>(threads_));
    // Several threads: product tiles fetch their next tile's operands, which other cores wrote
    // (product_tile); APSP_CPU_PREFETCH=0 turns that off, to compare.
    fetch_next_ = cfg.threads > 1 && ctx.tuning().cpu_prefetch;
    panels_first_ = ctx.tuning().cpu_panels_first;
    // Each panel tile goes first to the thread that computed its line tile in the round before
    // (APSP_CPU_PANEL_AFFINITY=0: to whichever thread comes).
    panel_affinity_ = ctx.tuning().cpu_panel_affinity;
    line_thread_ = std::make_unique<int[]>(static_cast<std::size_t>(ltc_ + ltr_));
    panel_round_ =
        std::make_unique<std::atomic<std::int64_t>[]>(static_cast<std::size_t>(ltc_ + ltr_));
    for (std::int64_t p = 0; p < ltc_ + ltr_; ++p)
      panel_round_[p].store(-1, std::memory_order_relaxed);
    if (ctx.tuning().cpu_profile)
      times_ = std::make_unique<thread_times[]>(static_cast<std::size_t>(threads_));
    if (m_.via != nullptr)
      via_scratch_ = make_filled<std::int32_t>(threads_ * tile_, no_via);
  }

  /// Runs rounds [first_round, tiles) on `threads` threads.
  void run() {
    const std::int64_t nt = L_.tiles();
    if (m_.via != nullptr && hooks_.first_round == 0) {
      const std::int64_t rows = L_.local_rows();
      const std::int64_t cols = L_.local_cols();
#pragma omp parallel for num_threads(threads_) schedule(static)
      for (std::int64_t i = 0; i < rows; ++i)
        std::fill(m_.via + i * cols, m_.via + (i + 1) * cols, no_via);
    }
    // One parallel region for the whole solve, synchronised by team_barrier, which spins for a
    // bounded time and then sleeps in the kernel. OpenMP's own barriers and idle threads spin for
    // much longer (GOMP_SPINCOUNT); on a VM whose virtual CPUs share physical cores, a spinning
    // thread takes the core from the one doing phase 1, which made 2 threads slower than 1.
    // Exceptions must not cross the region: thread 0 keeps them and all threads stop at a round
    // boundary.
    const auto region_start = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads_)
    {
#pragma omp single
      // MPI ranks that may share a node's cores with each other: their threads sleep at once.
      sync_.emplace(omp_get_num_threads(),
                    ranks_ && !threads_fit_ ? 0 : team_barrier::spins_for(omp_get_num_threads()));
      run_rounds(*this, hooks_.first_round, nt, lookahead_);
    }
    if (times_)
      report_times(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - region_start).count());
    control_.finish();
  }

  void pivot(std::int64_t r) {
    if (omp_get_thread_num() != 0)
      return;
    if (!L_.owns_row(r) || !L_.owns_col(r)) {
      if (deferred_)
        receive_pivot(r);
      return;
    }
    if (deferred_) {
      // Round r - 1's tiles of row and column r (update's next lines, no barrier after them)
      // feed this pivot: wait until every one is done.
      timed_scope waiting(my_times(), thread_times::lines_wait);
      while (lines_done_.load(std::memory_order_acquire) < ltc_ + ltr_)
        std::this_thread::yield();
    }
    timed_scope timed(my_times(), thread_times::pivot);
    const int kb = static_cast<int>(L_.edge(r));
    const std::int64_t i0 = L_.local_tile_row(r) * b_;
    const std::int64_t j0 = L_.local_tile_col(r) * b_;
    T* w = scratch_.get();
    std::int32_t* vw = via_scratch_ ? via_scratch_.get() : nullptr;
    load_block(m_, i0, j0, kb, kb, w, vw, ld_);
    ops_.pivot(w, vw, ld_, kb, row_snap(r, L_.local_tile_col(r)), col_snap(r, L_.local_tile_row(r)),
               static_cast<std::int32_t>(r * b_));
    store_block(m_, i0, j0, kb, kb, w, vw, ld_);
    if (deferred_) { // the deferred panel tiles (update) wait for this
      if (ranks_)    // and those of the other ranks of its row and column
        start_pivot_broadcasts(r);
      pivot_ready_.store(r, std::memory_order_release);
    }
  }

  /// Deferred round r on a rank that does not hold its pivot: the pivot's broadcast to this
  /// rank's panel tiles starts; progress() says when it has arrived. Without panel tiles of
  /// round r there is nothing to wait for.
  void receive_pivot(std::int64_t r) {
    start_pivot_broadcasts(r);
    if (L_.owns_row(r) || L_.owns_col(r))
      awaiting_pivot_ = r;
    else
      pivot_ready_.store(r, std::memory_order_release);
  }

  /// Round r's pivot broadcasts this rank takes part in: along its process row when it holds
  /// tiles of row r, down its process column when it holds tiles of column r (the pivot's
  /// owner both, as the sender).
  void start_pivot_broadcasts(std::int64_t r) {
    const std::size_t bytes = static_cast<std::size_t>(tile_) * sizeof(T);
    if (L_.owns_row(r))
      comm_.start_pivot_row(col_snap(r, L_.local_tile_row(r)), bytes, L_.col_owner(r));
    if (L_.owns_col(r))
      comm_.start_pivot_col(row_snap(r, L_.local_tile_col(r)), bytes, L_.row_owner(r));
  }

  /// Thread 0 of a rank, while deferred round r's tiles are computed: the pivot of round r
  /// counts as ready once it has arrived and this rank's tiles of row and column r are done
  /// (its panel tiles read both), and round r's panels go out once all its panel tiles are.
  /// While a broadcast it started is in flight, thread 0 keeps it moving instead of taking a
  /// tile: MPI moves a large message through shared memory piece by piece, each only when
  /// called, and a tile between two calls stalls every rank that waits for it. A team of one
  /// thread looks once per tile: its tiles are all the rank computes meanwhile.
  void progress(std::int64_t r) {
    while (progress_once(r) && threads_ > 1) {
    }
  }

  /// One look at the broadcasts (progress()); true while some is in flight.
  bool progress_once(std::int64_t r) {
    if (awaiting_pivot_ == r && lines_done_.load(std::memory_order_acquire) == ltc_ + ltr_ &&
        comm_.pivot_arrived()) {
      awaiting_pivot_ = -1;
      pivot_ready_.store(r, std::memory_order_release);
    }
    if (!shared_ && panels_done_.load(std::memory_order_acquire) == ltc_ + ltr_) {
      shared_ = true;
      post_share(r);
    }
    return comm_.poll();
  }

  void share_pivot(std::int64_t r) {
    if (deferred_)
      return; // pivot() started its broadcast, and the panel tiles wait for the pivot themselves
    if (omp_get_thread_num() == 0) {
      next_panel_.store(0, std::memory_order_relaxed);
      const std::size_t bytes = static_cast<std::size_t>(tile_) * sizeof(T);
      if (L_.owns_row(r))
        comm_.bcast_row(col_snap(r, L_.local_tile_row(r)), bytes, L_.col_owner(r));
      if (L_.owns_col(r))
        comm_.bcast_col(row_snap(r, L_.local_tile_col(r)), bytes, L_.row_owner(r));
    }
    barrier();
  }

  /// Tiles of the pivot row (0 .. ltc-1) and column (ltc .. ltc+ltr-1), handed out one at a time.
  void panels(std::int64_t r) {
    if (deferred_)
      return; // they run with round r - 1's remaining tiles (update)
    for (std::int64_t p; (p = next_panel_.fetch_add(1, std::memory_order_relaxed)) < ltc_ + ltr_;)
      panel_tile(r, p);
    barrier();
  }

  /// Panel tile p of round r (see panels()), on this thread's scratch tile.
  void panel_tile(std::int64_t r, std::int64_t p) {
    timed_scope timed(my_times(), thread_times::panel);
    const int kb = static_cast<int>(L_.edge(r));
    const auto k0 = static_cast<std::int32_t>(r * b_);
    const int t = omp_get_thread_num();
    T* w = scratch_.get() + t * tile_;
    std::int32_t* vw = via_scratch_ ? via_scratch_.get() + t * tile_ : nullptr;
    if (p < ltc_) {
      const std::int64_t q = L_.tile_col(p);
      if (!L_.owns_row(r) || q == r)
        return;
      const std::int64_t i0 = L_.local_tile_row(r) * b_;
      const int width = static_cast<int>(L_.edge(q));
      {
        timed_scope copy(my_times(), thread_times::panel_copy);
        load_block(m_, i0, p * b_, kb, width, w, vw, ld_);
      }
      ops_.panel(w, vw, ld_, kb, width, col_snap(r, L_.local_tile_row(r)), row_snap(r, p), k0);
      timed_scope copy(my_times(), thread_times::panel_copy);
      store_block(m_, i0, p * b_, kb, width, w, vw, ld_);
    } else {
      const std::int64_t l = p - ltc_;
      const std::int64_t q = L_.tile_row(l);
      if (!L_.owns_col(r) || q == r)
        return;
      const std::int64_t j0 = L_.local_tile_col(r) * b_;
      const int width = static_cast<int>(L_.edge(q));
      {
        timed_scope copy(my_times(), thread_times::panel_copy);
        load_block_transposed(m_, ops_, l * b_, j0, width, kb, w, vw, ld_);
      }
      ops_.panel(w, vw, ld_, kb, width, row_snap(r, L_.local_tile_col(r)), col_snap(r, l), k0);
      timed_scope copy(my_times(), thread_times::panel_copy);
      store_block_transposed(m_, ops_, l * b_, j0, width, kb, w, vw, ld_);
    }
  }

  /// The row snapshots go down every process column from process row r % rows, the column
  /// snapshots across every process row from process column r % cols.
  /// Deferred: thread 0 starts them in update(r - 1, rest), once round r's panel tiles are done.
  void start_share(std::int64_t r) {
    if (omp_get_thread_num() == 0 && !deferred_)
      post_share(r);
  }

  void post_share(std::int64_t r) {
    comm_.start_bcast_col(row_snap(r, 0), static_cast<std::size_t>(ltc_ * tile_) * sizeof(T),
                          L_.row_owner(r));
    comm_.start_bcast_row(col_snap(r, 0), static_cast<std::size_t>(ltr_ * tile_) * sizeof(T),
                          L_.col_owner(r));
  }

  void finish_share(std::int64_t r) {
    (void)r;
    if (!comm_.distributed())
      return; // nothing travelled: the panels' (or round_end's) barrier already ordered them
    if (omp_get_thread_num() == 0)
      comm_.wait_all();
    barrier();
  }

  /// Agrees on checkpoint or stop with every process.
  std::uint32_t check(std::int64_t r) {
    if (omp_get_thread_num() == 0) {
      decision_ = control_.check();
      // In one process with look-ahead, round r + 1's pivot and panels run inside this round's
      // update (the schedule's look-ahead runs exactly when this holds); the counters of its
      // next lines and remaining tiles start here, before the barrier every thread passes.
      deferred_ = overlap_ && decision_ == go_on && r + 1 < L_.tiles();
      if (deferred_) {
        next_line_.store(0, std::memory_order_relaxed);
        lines_done_.store(0, std::memory_order_relaxed);
        panels_done_.store(0, std::memory_order_relaxed);
        shared_ = !ranks_; // one process: nothing to share
        const std::int64_t rest = ltr_ * ltc_;
        for (int u = 0; u < threads_; ++u)
          shares_[u].reset(rest * u / threads_, rest * (u + 1) / threads_);
      }
    }
    barrier();
    return decision_;
  }

  /// Phase 3 on this process's tiles off tile row and column r (those of `part`), in equal
  /// contiguous shares of the row-major tile order. In one process with look-ahead, `rest`
  /// lets threads that run out of their share take the others' remaining tiles (tile_share),
  /// followed by round r + 1's panel tiles (each waiting for the pivot that thread 0 closes
  /// meanwhile).
  void update(std::int64_t r, update_part part) {
    if (part == update_part::rest && deferred_) {
      // Each thread's own share first, the same tiles every round, so that a tile's values stay
      // in one core's cache from round to round; then the other threads' remaining tiles, from
      // the far end of their shares (thread 0 closes the next pivot meanwhile, and a thread
      // slowed down leaves tiles to the others). Round r + 1's panel tiles go before any further
      // tile once that pivot is closed: they are the next round's start, and done in between
      // they let this round's tiles fill the time that would otherwise be spent waiting for
      // the last of them (APSP_CPU_PANELS_FIRST=0: only after this round's tiles, to compare).
      // Each goes first to the thread that computed its line tile (panel_affinity_).
      const int t = omp_get_thread_num();
      const std::int64_t panel_count = ltc_ + ltr_;
      const auto tile = [&](std::int64_t p, std::int64_t next) {
        product_tile(r, p / std::max<std::int64_t>(ltc_, 1), p % std::max<std::int64_t>(ltc_, 1),
                     part, next);
      };
      const auto claim = [&](std::int64_t p) { // panel tile p of round r + 1, once only
        std::int64_t seen = panel_round_[p].load(std::memory_order_relaxed);
        return seen != r + 1 &&
               panel_round_[p].compare_exchange_strong(seen, r + 1, std::memory_order_relaxed);
      };
      const auto next_panel = [&]() -> std::int64_t {
        // With panel_affinity_, the panel tiles whose line tile this thread computed first:
        // their values are in this core's cache already; then any other.
        for (int own = panel_affinity_ ? 1 : 0; own >= 0; --own) {
          for (std::int64_t p = 0; p < panel_count; ++p) {
            if ((!own || line_thread_[p] == t) && claim(p))
              return p;
          }
        }
        return -1;
      };
      const bool talks = t == 0 && ranks_; // this thread moves the broadcasts along
      const auto wait_for_pivot = [&] {
        if (pivot_ready_.load(std::memory_order_acquire) != r + 1) {
          timed_scope waiting(my_times(), thread_times::pivot_wait);
          while (pivot_ready_.load(std::memory_order_acquire) != r + 1) {
            if (talks)
              progress(r + 1);
            std::this_thread::yield();
          }
        }
      };
      const auto panel = [&] { // one of round r + 1's panel tiles; false once none is left
        if (panel_affinity_)
          wait_for_pivot(); // the line tiles' threads are known once the pivot is closed
        const std::int64_t p = next_panel();
        if (p < 0)
          return false;
        wait_for_pivot();
        panel_tile(r + 1, p);
        panels_done_.fetch_add(1, std::memory_order_release);
        return true;
      };
      bool panels_left = true;
      int victim = 0; // 0: this thread's own share, s: the share of thread t + s
      for (;;) {
        if (talks)
          progress(r + 1);
        if (panels_first_ && panels_left && pivot_ready_.load(std::memory_order_acquire) == r + 1) {
          panels_left = panel();
          continue;
        }
        std::int64_t p = -1;
        for (; victim < threads_; ++victim) {
          p = victim == 0 ? shares_[t].take_front() : shares_[(t + victim) % threads_].take_back();
          if (p >= 0)
            break;
        }
        if (p < 0)
          break;
        tile(p, victim == 0 ? p + 1 : p - 1);
      }
      while (panels_left)
        panels_left = panel();
      // Thread 0 of a rank sends the panels as soon as the other threads' last ones are done.
      while (talks && !shared_) {
        progress(r + 1);
        std::this_thread::yield();
      }
      barrier(thread_times::round_wait);
      if (omp_get_thread_num() == 0)
        deferred_ = false; // read again only after round_end's barriers
      return;
    }
    if (part == update_part::next_lines && deferred_) {
      // One process: the tiles of row and column r + 1 handed out one at a time, each counted
      // when done; no barrier: thread 0 waits for the count before round r + 1's pivot, the
      // others go on to round r's remaining tiles.
      // Between ranks, this rank's tiles of that row and column only.
      const bool has_row = L_.owns_row(r + 1);
      const bool has_col = L_.owns_col(r + 1);
      for (std::int64_t p;
           (p = next_line_.fetch_add(1, std::memory_order_relaxed)) < ltc_ + ltr_;) {
        if (p < ltc_) {
          if (has_row)
            product_tile(r, L_.local_tile_row(r + 1), p, part);
        } else if (has_col && !(has_row && L_.tile_row(p - ltc_) == r + 1)) {
          // (r + 1, r + 1) is in the row part
          product_tile(r, p - ltc_, L_.local_tile_col(r + 1), part);
        }
        line_thread_[p] = omp_get_thread_num(); // read after the pivot's release (panel tiles)
        lines_done_.fetch_add(1, std::memory_order_release);
      }
      return;
    }
    const int t = omp_get_thread_num();
    const int team = omp_get_num_threads();
    const bool poll = t == 0 && comm_.distributed();
    // next_lines: the local tiles of tile row r + 1, then those of tile column r + 1.
    const bool lines = part == update_part::next_lines;
    const bool has_row = L_.owns_row(r + 1);
    const bool has_col = L_.owns_col(r + 1);
    const std::int64_t count = lines ? (has_row ? ltc_ : 0) + (has_col ? ltr_ : 0) : ltr_ * ltc_;
    for (std::int64_t p = count * t / team; p < count * (t + 1) / team; ++p) {
      std::int64_t li = 0;
      std::int64_t lj = 0;
      if (!lines) {
        li = p / std::max<std::int64_t>(ltc_, 1);
        lj = p % std::max<std::int64_t>(ltc_, 1);
      } else if (has_row && p < ltc_) {
        li = L_.local_tile_row(r + 1);
        lj = p;
      } else {
        li = p - (has_row ? ltc_ : 0);
        lj = L_.local_tile_col(r + 1);
        if (has_row && L_.tile_row(li) == r + 1)
          continue; // already in the row part
      }
      product_tile(r, li, lj, part, lines ? -1 : p + 1);
      if (poll)
        comm_.poll();
    }
    barrier();
  }

  /// Phase 3 of round r on local tile (li, lj), unless it is off `part`. `next` (row-major
  /// local tile index, or -1) is the tile this thread will most likely take next: the product
  /// fetches that tile's operands into this core's cache while it computes.
  void product_tile(std::int64_t r, std::int64_t li, std::int64_t lj, update_part part,
                    std::int64_t next = -1) {
    const std::int64_t ti = L_.tile_row(li);
    const std::int64_t tj = L_.tile_col(lj);
    if (ti == r || tj == r)
      return;
    if (part == update_part::rest && (ti == r + 1 || tj == r + 1))
      return;
    timed_scope timed(my_times(), thread_times::product);
    const int kb = static_cast<int>(L_.edge(r));
    const auto k0 = static_cast<std::int32_t>(r * b_);
    const std::int64_t offset = li * b_ * m_.n + lj * b_;
    const T* next_a = nullptr;
    const T* next_b = nullptr;
    if (fetch_next_ && next >= 0 && next < ltr_ * ltc_) {
      const std::int64_t ni = next / ltc_;
      const std::int64_t nj = next % ltc_;
      next_a = ni != li ? col_snap(r, ni) : nullptr;
      next_b = nj != lj ? row_snap(r, nj) : nullptr;
    }
    ops_.product(col_snap(r, li), row_snap(r, lj), ld_, kb, m_.d + offset,
                 m_.via != nullptr ? m_.via + offset : nullptr, m_.n, static_cast<int>(L_.edge(ti)),
                 static_cast<int>(L_.edge(tj)), k0, next_a, next_b);
  }

  /// Progress, then the checkpoint and stop that check() decided. False: stop.
  bool round_end(std::int64_t r, std::uint32_t decision) {
    if (omp_get_thread_num() == 0)
      stopping_ = !control_.round_end(r, L_.tiles(), decision, [] {});
    barrier();
    // Thread 0 rewrites stopping_ only in the next round_end, after the next check()'s barrier,
    // which every thread reaches after reading it here: no second barrier needed.
    return !stopping_;
  }

private:
  /// The team's barrier, its wait timed as `k` (APSP_CPU_PROFILE).
  void barrier(thread_times::kind k = thread_times::barrier_wait) {
    timed_scope timed(my_times(), k);
    sync_->arrive_and_wait();
  }

  thread_times* my_times() {
    return times_ ? &times_[omp_get_thread_num()] : nullptr;
  }

  /// One line per thread and a total: seconds busy per kind (and how many), and waiting.
  void report_times(double region) const {
    std::fprintf(stderr, "apsp cpu profile: %d threads, region %.6f s\n", threads_, region);
    double sum[thread_times::kinds] = {};
    double idle = 0;
    for (int t = 0; t < threads_; ++t) {
      const thread_times& x = times_[t];
      double busy = 0;
      for (int k = 0; k < thread_times::kinds; ++k) {
        sum[k] += x.seconds[k];
        busy += k < thread_times::busy_kinds ? x.seconds[k] : 0;
      }
      idle += region - busy;
      std::fprintf(stderr,
                   "  thread %2d: product %.6f s (%lld), panel %.6f s (%lld; copies %.6f s), pivot "
                   "%.6f s (%lld), other %.6f s (round ends %.6f s, other barriers %.6f s, lines "
                   "%.6f s, pivot %.6f s)\n",
                   t, x.seconds[0], static_cast<long long>(x.count[0]), x.seconds[1],
                   static_cast<long long>(x.count[1]), x.seconds[thread_times::panel_copy],
                   x.seconds[2], static_cast<long long>(x.count[2]), region - busy,
                   x.seconds[thread_times::round_wait], x.seconds[thread_times::barrier_wait],
                   x.seconds[thread_times::lines_wait], x.seconds[thread_times::pivot_wait]);
    }
    const double all = region * threads_;
    std::fprintf(stderr,
                 "  share of thread time: product %.1f %%, panel %.1f %% (copies %.1f %%), pivot "
                 "%.1f %%, other (waits, bookkeeping) %.1f %% (round ends %.1f %%, other barriers "
                 "%.1f %%, lines %.1f %%, pivot %.1f %%)\n",
                 100 * sum[0] / all, 100 * sum[1] / all, 100 * sum[thread_times::panel_copy] / all,
                 100 * sum[2] / all, 100 * idle / all, 100 * sum[thread_times::round_wait] / all,
                 100 * sum[thread_times::barrier_wait] / all,
                 100 * sum[thread_times::lines_wait] / all,
                 100 * sum[thread_times::pivot_wait] / all);
  }

  T* row_snap(std::int64_t r, std::int64_t l) {
    return row_snap_[lookahead_ ? r & 1 : 0].get() + l * tile_;
  }
  T* col_snap(std::int64_t r, std::int64_t l) {
    return col_snap_[lookahead_ ? r & 1 : 0].get() + l * tile_;
  }

  grid_layout L_;
  matrices<T> m_;
  grid_comm& comm_;
  const round_hooks& hooks_;
  round_control control_; // used by thread 0 only
  tile_ops<T> ops_;
  std::int64_t b_;
  std::int64_t ld_;
  std::int64_t tile_;
  std::int64_t ltr_;
  std::int64_t ltc_;
  int threads_;
  bool ranks_ = false;       // several processes (MPI ranks)
  bool threads_fit_ = false; // ranks: at most one thread of the node's ranks per CPU
  bool lookahead_ = false;
  bool overlap_ = false;     // look-ahead: the pivot (and between ranks, the broadcasts) hide
                             // behind the tiles
  bool deferred_ = false;    // round r + 1's pivot and panels run inside update(r, rest)
  bool fetch_next_ = false;  // product tiles fetch the next tile's operands
  bool panels_first_ = true; // update(r, rest) takes round r + 1's panel tiles once they can go
  std::atomic<std::int64_t> next_line_{0};
  std::atomic<std::int64_t> lines_done_{0};
  std::atomic<std::int64_t> pivot_ready_{-1};
  std::atomic<std::int64_t> panels_done_{0}; // deferred round's panel tiles done
  std::int64_t awaiting_pivot_ = -1;         // ranks, thread 0: the round whose pivot comes
  bool shared_ = true;                       // ranks, thread 0: the deferred panels went out
  // Round r + 1's panel tiles in update(r, rest): the thread that computed each one's line tile
  // (read with panel_affinity_), and the round each was claimed for.
  bool panel_affinity_ = true;
  std::unique_ptr<int[]> line_thread_;
  std::unique_ptr<std::atomic<std::int64_t>[]> panel_round_;
  std::unique_ptr<tile_share[]> shares_; // each thread's share of update(r, rest)
  packed_buffer<T> col_snap_[2];
  packed_buffer<T> row_snap_[2];
  packed_buffer<T> scratch_;
  packed_buffer<std::int32_t> via_scratch_;
  std::optional<team_barrier> sync_;
  std::unique_ptr<thread_times[]> times_; // APSP_CPU_PROFILE=1
  std::atomic<std::int64_t> next_panel_{0};
  std::uint32_t decision_ = go_on;
  bool stopping_ = false;
};

} // namespace

std::int64_t packed_stride(std::int64_t block, std::size_t element_size) noexcept {
  // One extra cache line per row: a power-of-two stride would map the rows of a kernel's strip
  // onto a few L1 sets only and evict them from each other.
  return (block + packed_align - 1) / packed_align * packed_align +
         64 / static_cast<std::int64_t>(element_size);
}

std::uint64_t workspace_bytes(std::int64_t tile_rows, std::int64_t tile_cols, std::int64_t block,
                              int threads, std::size_t element_size, bool paths,
                              bool lookahead) noexcept {
  if (block <= 0 || tile_rows + tile_cols == 0)
    return 0;
  const auto tile = static_cast<std::uint64_t>(block * packed_stride(block, element_size));
  const auto snap_tiles = static_cast<std::uint64_t>(tile_rows + tile_cols);
  const std::uint64_t snapshots =
      (lookahead ? 2 : 1) * (snap_tiles * tile + 2 * packed_slack) * element_size;
  const std::uint64_t scratch =
      static_cast<std::uint64_t>(threads) * tile * (element_size + (paths ? 4 : 0));
  return snapshots + scratch;
}

std::uint64_t workspace_bytes(std::int64_t n, std::int64_t block, int threads,
                              std::size_t element_size, bool paths) noexcept {
  if (n == 0 || block <= 0)
    return 0;
  const std::int64_t tiles = (n + block - 1) / block;
  // Several threads in one process keep two sets of snapshots (look-ahead, see team_tile_executor).
  return workspace_bytes(tiles, tiles, block, threads, element_size, paths, threads > 1);
}

template <class T>
void blocked_floyd_warshall(const local_tiles<T>& tiles, grid_comm& comm, const blocked_config& cfg,
                            run_context& ctx, const round_hooks& hooks) {
  APSP_EXPECTS(cfg.block == tiles.layout.b, internal_error, "tile edge and layout disagree");
  team_tile_executor<T> e(tiles, comm, cfg, ctx, hooks);
  e.run();
}

template <class T>
void blocked_floyd_warshall(dense_matrix<T>& d, via_matrix* via, const blocked_config& cfg,
                            run_context& ctx, const round_hooks& hooks) {
  if (d.n() == 0)
    return;
  grid_comm one_process;
  local_tiles<T> tiles;
  tiles.layout.n = d.n();
  tiles.layout.b = cfg.block;
  tiles.d = d.data();
  tiles.via = via != nullptr ? via->data() : nullptr;
  blocked_floyd_warshall(tiles, one_process, cfg, ctx, hooks);
}

#define APSP_BLOCKED_FW(T)                                                                         \
  template void blocked_floyd_warshall(const local_tiles<T>&, grid_comm&, const blocked_config&,   \
                                       run_context&, const round_hooks&);                          \
  template void blocked_floyd_warshall(dense_matrix<T>&, via_matrix*, const blocked_config&,       \
                                       run_context&, const round_hooks&);
APSP_BLOCKED_FW(std::int32_t)
APSP_BLOCKED_FW(float)
APSP_BLOCKED_FW(std::int64_t)
APSP_BLOCKED_FW(double)
#undef APSP_BLOCKED_FW

} // namespace apsp::detail::cpu
