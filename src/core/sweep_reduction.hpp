#pragma once
// What metrics_accumulator::take_sweep asks of the cpu (src/cpu/sweep_reduction.cpp): a PHAST
// sweep's pairs reduced by position, with the instruction set that the cpu's kernels run with
// (cpu::selected_isa), so that core names no cpu header. Internal: not installed.

#include <cstddef>
#include <cstdint>

#include "core/row_sink.hpp"

namespace apsp::detail {

/// The most rows a sweep reduction takes at once.
inline constexpr int max_sweep_lanes = 16;

/// K rows' out-sums while a sweep's positions come in, lane by lane: arrays of K of one width,
/// so that the compiler makes one vector operation of a position's K pairs (a reach fits T: it
/// is below n). Distances sum in double as row_sink::take() sums them: whole numbers, exact in
/// any order while below 2^53.
template <class T, int K> struct sweep_row_lanes {
  alignas(64) T out_max[K] = {};
  alignas(64) T reach[K] = {};
  alignas(64) double sum[K] = {};
  alignas(64) double inverse[K] = {};
};

/// A worker's sums that a sweep adds to: its column sums by sweep position (n each; read only
/// when `columns`) and, when `bins` > 0, its per-lane histogram counts (max_sweep_lanes x bins)
/// with the exponent of their width, widened as values need it (as histogram_builder::add
/// widens).
template <class T> struct sweep_sums {
  bool columns = false;
  std::int64_t* in_count = nullptr;
  T* in_max = nullptr;
  double* in_sum = nullptr;
  double* in_inverse = nullptr;
  std::size_t bins = 0;
  std::uint64_t* lane_counts = nullptr;
  int* lane_exponent = nullptr;
};

/// The pairs of rows.count <= K rows at each position p (d finite, t != s): the rows' sums
/// added to `r`, column p's and the histogram's to `sums`; returns how many pairs were negative
/// (the histogram's). Defined for T = int32 and int64 and K = 1, 4, 8 and 16.
template <class T, int K>
std::uint64_t reduce_sweep(const sweep_rows<T>& rows, const sweep_sums<T>& sums,
                           sweep_row_lanes<T, K>& r);

} // namespace apsp::detail
