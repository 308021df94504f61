#include "stats.hpp"

#include <cstdint>
#include <limits>

namespace apsp::cli {

nlohmann::json sum_json(const distance_stats& s) {
  if (!s.integral)
    return s.sum;
  __extension__ using int128 = __int128;
  const int128 lo = std::numeric_limits<std::int64_t>::min();
  const int128 hi = std::numeric_limits<std::int64_t>::max();
  if (s.exact_sum >= lo && s.exact_sum <= hi)
    return static_cast<std::int64_t>(s.exact_sum);
  return s.sum_text();
}

} // namespace apsp::cli
