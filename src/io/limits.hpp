#pragma once
// Sanity limits applied to every untrusted header and value.

#include <cmath>
#include <cstdint>

namespace apsp::io::detail {

/// The largest n whose n x n int32 matrix fits in 2^40 bytes (1 TiB): 2^19.
inline constexpr std::int64_t max_vertices = std::int64_t{1} << 19;

/// Weights are held as double: beyond 2^53 integers stop being exact, so such a weight is
/// treated as corrupt input.
inline constexpr double max_abs_weight = 9007199254740992.0; // 2^53

[[nodiscard]] inline bool is_valid_weight(double w) noexcept {
  return std::isfinite(w) && std::fabs(w) <= max_abs_weight;
}

/// The int32 "unreachable" of the course format and of integer .npy graphs.
inline constexpr std::int32_t course_infinity = 1073741823;

} // namespace apsp::io::detail
