#pragma once
// One step of the supernodal Floyd-Warshall (src/cpu/supernodal_fw.cpp) as rounds of the blocked
// Floyd-Warshall on the step's rows R = [first, top] + ancestors, run by the blocked solver's
// register-tiled kernels (tile_ops.hpp). A round takes up to `supernodal_tile` of the step's
// pivots K: closes K x K, updates the row and column panels K x Y and Y x K (Y = R - K), keeping
// the pivots' snapshots, then every tile of Y x Y as a min-plus product of snapshots. Y is cut
// into blocks: long runs of consecutive labels are blocks in place (the products run on the
// matrix itself), short runs (scattered ancestors) are gathered into blocks of their own.
//
// The kernels follow Floyd-Warshall's order exactly, so a step computes what plain
// Floyd-Warshall over its pivots computes, bit for bit. Via values name the pivot by its position
// in the plan's pivot sequence (the steps' members in step order) until supernodal_steps turns
// them into vertex ids: the positions of one round are consecutive, as the kernels need.
//
// Cells whose row and column both lie above the step's top column (ancestor x ancestor) are the
// only cells that steps of other subtrees also update. Those the step never reads; it computes
// its part of them from +infinity and merges it in: the smaller distance, and on a tie the
// smaller via position (an unchanged cell's direct edge, no_via, first). That is what running
// the steps one after another in plan order gives, whatever order the merges come in, so any
// thread count gives the same bits (`merge_locks` serialise merges into one row).

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "apsp/matrix.hpp"
#include "cpu/cpu_isa.hpp"
#include "cpu/elimination.hpp"
#include "cpu/packed_buffer.hpp"
#include "cpu/tile_ops.hpp"

namespace apsp::cpu {

/// Pivots per round and the longest block of a step (tile edge of the kernels).
inline constexpr int supernodal_tile = 192;

/// Row-striped locks for merges into cells that concurrent steps share.
class merge_locks {
public:
  static constexpr int stripes = 64;
  static int stripe(std::int64_t i) { return static_cast<int>(i % stripes); }
  std::mutex& row(std::int64_t i) { return stripes_[static_cast<std::size_t>(stripe(i))]; }
  std::mutex& at(int s) { return stripes_[static_cast<std::size_t>(s)]; }

private:
  std::array<std::mutex, stripes> stripes_;
};

template <class T> class step_executor {
public:
  step_executor(dense_matrix<T>& d, via_matrix* via, detail::cpu::isa kernels, bool negative);

  /// Runs step `s` of `plan`, whose first pivot is `position` in the pivot sequence, on `team`
  /// threads (a parallel region of its own when team > 1). `locks`: non-null while steps of
  /// other subtrees run at the same time.
  void run(const elimination_plan& plan, const supernode_step& s, std::int32_t position, int team,
           merge_locks* locks);

private:
  /// Part of Y: `len` consecutive labels from `first`, or (first < 0) the labels
  /// labels_[offset, offset + len). `shared`: above the step's top column.
  struct block {
    std::int32_t first;
    int len;
    std::int64_t offset;
    bool shared;
  };

  void make_blocks(const elimination_plan& plan, const supernode_step& s, const std::int32_t* k,
                   int kb);
  void add_runs(const std::int32_t* labels, std::int64_t count, bool shared);
  void add_block(std::int32_t first, int len, std::int64_t offset, bool shared);
  void reserve(int team, int kb);
  std::int32_t label(const block& b, int x) const {
    return b.first >= 0 ? b.first + x : labels_[static_cast<std::size_t>(b.offset + x)];
  }
  T* a_snap(std::int64_t b, int kb) const { return snaps_.get() + 2 * b * kb * ld_; }
  T* b_snap(std::int64_t b, int kb) const { return snaps_.get() + (2 * b + 1) * kb * ld_; }

  /// Holds the merge locks of every row of a block (none for a null block or null locks), taken
  /// in stripe order.
  class row_locks {
  public:
    row_locks(merge_locks* locks, const block* rows, const step_executor& e);
    ~row_locks();
    row_locks(const row_locks&) = delete;
    row_locks& operator=(const row_locks&) = delete;

  private:
    merge_locks* locks_;
    std::uint64_t stripes_ = 0;
  };

  void pivot(const std::int32_t* k, int kb, std::int32_t k0);
  void row_panel(const block& b, std::int64_t index, const std::int32_t* k, int kb, std::int32_t k0,
                 int thread);
  void column_panel(const block& b, std::int64_t index, const std::int32_t* k, int kb,
                    std::int32_t k0, int thread);
  void product(std::int64_t bi, std::int64_t bj, int kb, std::int32_t k0, int thread,
               merge_locks* locks);

  std::int64_t n_;
  T* d_;
  std::int32_t* via_; ///< null without paths
  detail::cpu::tile_ops<T> ops_;
  std::int64_t ld_;
  std::vector<block> blocks_;
  std::vector<std::int32_t> labels_;
  std::vector<std::int32_t> sorted_;   ///< the round's pivots, ascending
  bool pivots_in_place_ = false;       ///< the round's pivots are consecutive labels, in order
  std::vector<std::int32_t> rows_;     ///< [first, top] without the round's pivots
  std::vector<std::int32_t> gathered_; ///< short runs waiting to fill a gathered block
  detail::cpu::packed_buffer<T> pivot_, row_snap_, col_snap_, snaps_;
  detail::cpu::packed_buffer<std::int32_t> pivot_via_;
  std::int64_t snap_capacity_ = 0;
  std::vector<detail::cpu::packed_buffer<T>> work_; ///< one tile per thread
  std::vector<detail::cpu::packed_buffer<std::int32_t>> work_via_;
};

} // namespace apsp::cpu
