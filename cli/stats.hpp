#pragma once
// Summary numbers of a distance matrix, printed by `apsp solve` as a checksum. They match the
// conventions of ../shared/data/README.md (finite off-diagonal entries), so runs on the real
// graphs can be checked by eye.

#include <cstdint>

#include <nlohmann/json.hpp>

#include "apsp/matrix.hpp"

namespace apsp::cli {

struct distance_stats {
  std::uint64_t reachable_pairs = 0; ///< finite entries off the diagonal
  bool integral = true;              ///< integer dtype: `sum` is exact
  /// Sum of those entries; exact for integer types (held as a 128-bit value).
  __extension__ __int128 exact_sum = 0;
  double sum = 0;
  double max = 0; ///< largest finite off-diagonal distance (0 if none)
};

[[nodiscard]] distance_stats compute_stats(const any_matrix& d);

/// The sum as text: all digits for integer types, 17 significant digits otherwise.
[[nodiscard]] std::string sum_text(const distance_stats& s);
/// The sum as a JSON number (a string when an exact integer sum exceeds 64 bits).
[[nodiscard]] nlohmann::json sum_json(const distance_stats& s);

} // namespace apsp::cli
