#pragma once
// The round schedule of blocked Floyd-Warshall, written once: which tiles a process owns
// (grid_layout), how the processes talk (grid_comm), and the order of the steps of every pivot
// round (run_rounds), which executors carry out on their own tiles. One process is the 1 x 1
// grid with a communicator that does nothing; MPI ranks are a Pr x Pc grid (src/mpi).
//
// Round r (pivots r*b .. r*b + kb - 1), the steps an executor implements:
//   pivot(r)          the owner of diagonal tile (r, r) closes it (phase 1)
//   share_pivot(r)    it goes along its process row and column
//   panels(r)         owners of tile row r and tile column r update those tiles (phase 2)
//   start_share(r)    their snapshots go down the process columns / across the process rows
//   finish_share(r)   ... and have arrived
//   update(r, part)   every process updates its other tiles (phase 3, a min-plus product);
//                     `part` splits them for look-ahead
//   check(r)          all processes agree whether to go on, save a checkpoint or stop
//   round_end(r, d)   progress; the checkpoint or stop that check() decided
// With look-ahead the tiles of row r + 1 and column r + 1 are updated first, then round r + 1's
// pivot and panels are computed and their broadcasts started, and only then the bulk of round
// r's update runs, so the broadcasts travel while it computes (as HPL does). Rounds where a
// checkpoint or stop is due run without look-ahead, so the saved state is exactly "r + 1 rounds
// done".

#include <concepts>
#include <cstddef>
#include <cstdint>

namespace apsp::detail {

/// A Pr x Pc process grid over the tiles of an n x n matrix (tile edge b), tiles dealt out
/// cyclically in both directions (2D block-cyclic, as ScaLAPACK and MPI_Type_create_darray).
/// Process (row, col) holds the tiles (ti, tj) with ti % rows == row and tj % cols == col, stored
/// as one row-major local matrix of local_rows() x local_cols() elements.
struct grid_layout {
  std::int64_t n = 0;
  std::int64_t b = 1;
  int rows = 1;
  int cols = 1;
  int row = 0;
  int col = 0;

  [[nodiscard]] std::int64_t tiles() const noexcept { return (n + b - 1) / b; }
  [[nodiscard]] std::int64_t edge(std::int64_t t) const noexcept {
    return n - t * b < b ? n - t * b : b;
  }
  [[nodiscard]] int row_owner(std::int64_t t) const noexcept { return static_cast<int>(t % rows); }
  [[nodiscard]] int col_owner(std::int64_t t) const noexcept { return static_cast<int>(t % cols); }
  [[nodiscard]] bool owns_row(std::int64_t t) const noexcept { return row_owner(t) == row; }
  [[nodiscard]] bool owns_col(std::int64_t t) const noexcept { return col_owner(t) == col; }
  /// Number of tile rows (columns) held here.
  [[nodiscard]] std::int64_t tile_rows() const noexcept { return count(row, rows); }
  [[nodiscard]] std::int64_t tile_cols() const noexcept { return count(col, cols); }
  /// Local index of a tile row (column) held here: t / rows.
  [[nodiscard]] std::int64_t local_tile_row(std::int64_t t) const noexcept { return t / rows; }
  [[nodiscard]] std::int64_t local_tile_col(std::int64_t t) const noexcept { return t / cols; }
  /// Global tile row (column) of local index l.
  [[nodiscard]] std::int64_t tile_row(std::int64_t l) const noexcept { return l * rows + row; }
  [[nodiscard]] std::int64_t tile_col(std::int64_t l) const noexcept { return l * cols + col; }
  [[nodiscard]] std::int64_t local_rows() const noexcept { return extent(row, rows); }
  [[nodiscard]] std::int64_t local_cols() const noexcept { return extent(col, cols); }
  /// The local row of global row i (held here).
  [[nodiscard]] std::int64_t local_row(std::int64_t i) const noexcept {
    return i / b / rows * b + i % b;
  }
  [[nodiscard]] std::int64_t local_col(std::int64_t j) const noexcept {
    return j / b / cols * b + j % b;
  }
  /// The global row of local row l.
  [[nodiscard]] std::int64_t global_row(std::int64_t l) const noexcept {
    return (l / b * rows + row) * b + l % b;
  }
  [[nodiscard]] std::int64_t global_col(std::int64_t l) const noexcept {
    return (l / b * cols + col) * b + l % b;
  }
  [[nodiscard]] bool holds(std::int64_t i, std::int64_t j) const noexcept {
    return owns_row(i / b) && owns_col(j / b);
  }

private:
  [[nodiscard]] std::int64_t count(int me, int procs) const noexcept {
    const std::int64_t t = tiles();
    return t > me ? (t - me + procs - 1) / procs : 0;
  }
  /// Rows (or columns) held: full tiles, less what the last (partial) tile lacks if held here.
  [[nodiscard]] std::int64_t extent(int me, int procs) const noexcept {
    const std::int64_t k = count(me, procs);
    if (k == 0)
      return 0;
    const std::int64_t last = (k - 1) * procs + me;
    return (k - 1) * b + edge(last);
  }
};

/// This process's tiles: local_rows() x local_cols() row-major values of the layout, and the
/// via values in the same shape (null: no paths). What every executor works on: the cpu
/// team's, a GPU rank's, an MPI rank's.
template <class T> struct local_tiles {
  grid_layout layout;
  T* d = nullptr;
  std::int32_t* via = nullptr;
};

/// How the processes of a grid exchange tiles. The default does nothing: one process.
/// Called from one thread per process only.
class grid_comm {
public:
  virtual ~grid_comm() = default;
  /// Broadcast among the processes of this process row, from the one in column root_col.
  virtual void bcast_row(void* data, std::size_t bytes, int root_col) {
    (void)data, (void)bytes, (void)root_col;
  }
  /// Broadcast among the processes of this process column, from the one in row root_row.
  virtual void bcast_col(void* data, std::size_t bytes, int root_row) {
    (void)data, (void)bytes, (void)root_row;
  }
  /// Non-blocking forms for look-ahead; wait_all() completes every one started.
  virtual void start_bcast_row(void* data, std::size_t bytes, int root_col) {
    bcast_row(data, bytes, root_col);
  }
  virtual void start_bcast_col(void* data, std::size_t bytes, int root_row) {
    bcast_col(data, bytes, root_row);
  }
  /// Non-blocking broadcasts of a round's pivot tile (look-ahead between ranks): counted as
  /// the blocking ones, completed by wait_all() too; pivot_arrived() says whether every one
  /// started has completed.
  virtual void start_pivot_row(void* data, std::size_t bytes, int root_col) {
    bcast_row(data, bytes, root_col);
  }
  virtual void start_pivot_col(void* data, std::size_t bytes, int root_row) {
    bcast_col(data, bytes, root_row);
  }
  [[nodiscard]] virtual bool pivot_arrived() { return true; }
  virtual void wait_all() {}
  /// Lets started broadcasts advance (called between tiles while computing); true while some
  /// has not completed.
  virtual bool poll() { return false; }
  /// GPU ranks: whether this process row (column) broadcasts device memory itself, ordered on
  /// a CUDA stream (NCCL); otherwise the executor stages through host memory and the calls
  /// above.
  [[nodiscard]] virtual bool device_row() const noexcept { return false; }
  [[nodiscard]] virtual bool device_col() const noexcept { return false; }
  /// Enqueues a broadcast of device memory on `stream` (a cudaStream_t).
  virtual void device_bcast_row(void* data, std::size_t bytes, int root_col, void* stream) {
    (void)data, (void)bytes, (void)root_col, (void)stream;
  }
  virtual void device_bcast_col(void* data, std::size_t bytes, int root_row, void* stream) {
    (void)data, (void)bytes, (void)root_row, (void)stream;
  }
  /// Bitwise OR over all processes.
  virtual std::uint32_t all_or(std::uint32_t bits) { return bits; }
  /// Whether look-ahead can hide anything (more than one process).
  [[nodiscard]] virtual bool distributed() const noexcept { return false; }
};

/// Bits of round_check: what all processes decided after a round.
enum round_decision : std::uint32_t {
  go_on = 0,
  save_now = 1, ///< write a checkpoint of the state after this round
  stop_now = 2, ///< stop after this round (cancelled, or a process failed)
};

/// Which of round r's phase-3 tiles update() covers.
enum class update_part {
  all,
  next_lines, ///< only those in tile row r + 1 or tile column r + 1
  rest        ///< all but those
};

// The schedule itself is C++20 (a concept); CUDA translation units that include this header
// for the layout types compile as C++17 and never run rounds.
#ifdef __cpp_concepts
/// What run_rounds asks of an executor: the steps at the top of this file. The executors: the
/// cpu team's tiles (cpu/blocked_fw.cpp), a GPU's resident tiles with panels between processes
/// (cuda/rank_executor.cpp), one GPU holding the whole matrix (cuda/device_rounds.cpp) and
/// blocks streamed through GPUs from host memory (cuda/out_of_core_rounds.cpp).
template <class E>
concept round_executor = requires(E& e, std::int64_t r, update_part part, std::uint32_t decision) {
  e.pivot(r);
  e.share_pivot(r);
  e.panels(r);
  e.start_share(r);
  e.finish_share(r);
  { e.check(r) } -> std::convertible_to<std::uint32_t>;
  e.update(r, part);
  { e.round_end(r, decision) } -> std::convertible_to<bool>;
};

/// Runs rounds [first, last) with executor `e` (see the top of this file). round_end returns
/// false to stop.
template <round_executor Executor>
void run_rounds(Executor& e, std::int64_t first, std::int64_t last, bool lookahead) {
  bool ahead = false; // round r's pivot and panels were computed during round r - 1
  for (std::int64_t r = first; r < last; ++r) {
    if (!ahead) {
      e.pivot(r);
      e.share_pivot(r);
      e.panels(r);
      e.start_share(r);
    }
    e.finish_share(r);
    const std::uint32_t decision = e.check(r);
    ahead = lookahead && decision == go_on && r + 1 < last;
    if (ahead) {
      e.update(r, update_part::next_lines);
      e.pivot(r + 1);
      e.share_pivot(r + 1);
      e.panels(r + 1);
      e.start_share(r + 1);
      e.update(r, update_part::rest);
    } else {
      e.update(r, update_part::all);
    }
    if (!e.round_end(r, decision))
      return;
  }
}
#endif

} // namespace apsp::detail
