#pragma once
/// @file stats.hpp
/// Summary numbers of a distance matrix: how many pairs are reachable, the sum of their
/// distances (exact for integer types) and the largest. `apsp solve` prints them as a checksum;
/// they follow the conventions of the reference checksums (finite off-diagonal entries only).

#include <cstdint>
#include <string>

#include "apsp/matrix.hpp"

namespace apsp {

struct distance_summary {
  std::uint64_t reachable_pairs = 0; ///< finite entries off the diagonal
  bool integral = true;              ///< integer dtype: `exact_sum` holds the sum exactly
  __extension__ __int128 exact_sum = 0;
  double sum = 0; ///< the sum as a double (rounded for integer types)
  double max = 0; ///< largest finite off-diagonal distance (0 if none)

  /// Adds another part of the same matrix (the tiles of another process).
  void merge(const distance_summary& other) noexcept;
  /// The sum as text: every digit for integer types, 17 significant digits otherwise.
  [[nodiscard]] std::string sum_text() const;
};

/// The summary of `d`, on all cores (one vectorised pass).
[[nodiscard]] distance_summary summarize(const any_matrix& d);

} // namespace apsp
