#pragma once
// Block-cyclic grids for the tests of what each process of a grid holds: one process and
// several, tile edges that do and do not divide n, processes that hold nothing.

#include <cstdint>

#include "core/round_schedule.hpp"

namespace apsp::testing {

struct grid_case {
  std::int64_t n;
  std::int64_t b;
  int rows;
  int cols;
};

inline constexpr grid_case grid_cases[] = {{97, 97, 1, 1},  {97, 16, 1, 2},  {97, 16, 2, 1},
                                           {130, 32, 2, 2}, {130, 48, 3, 1}, {20, 16, 3, 2},
                                           {1, 4, 2, 2},    {300, 128, 2, 1}};

/// Process (row, col) of grid c.
inline detail::grid_layout grid_layout_of(const grid_case& c, int row, int col) {
  detail::grid_layout L;
  L.n = c.n;
  L.b = c.b;
  L.rows = c.rows;
  L.cols = c.cols;
  L.row = row;
  L.col = col;
  return L;
}

} // namespace apsp::testing
