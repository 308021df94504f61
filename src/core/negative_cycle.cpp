#include "core/negative_cycle.hpp"

#include <cmath>
#include <cstdio>

#include "apsp/error.hpp"

namespace apsp::detail {

std::string weight_text(double w) {
  if (std::nearbyint(w) == w && std::fabs(w) < 9e15)
    return std::to_string(static_cast<long long>(w));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", w);
  return buf;
}

void throw_negative_cycle_found(std::vector<std::int64_t> cycle, double weight) {
  const std::string text = cycle_text(cycle, [](std::int64_t v) { return std::to_string(v); });
  const std::string what = "the graph has a negative cycle of " + std::to_string(cycle.size()) +
                           (cycle.size() == 1 ? " vertex" : " vertices") + " (0-based: " + text +
                           "), total weight " + weight_text(weight);
  std::vector<std::int64_t> vertices = cycle;
  throw negative_cycle_error(what, std::move(vertices), std::move(cycle), weight);
}

} // namespace apsp::detail
