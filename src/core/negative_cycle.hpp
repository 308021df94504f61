#pragma once
// Reporting a negative cycle that an algorithm found as a cycle (Bellman-Ford's predecessors).

#include <cstdint>
#include <string>
#include <vector>

namespace apsp::detail {

/// "3 -> 7 -> 9 -> 3": the first `shown` vertices (then "..."), back to the first, as `name`
/// writes each vertex.
template <class Name>
std::string cycle_text(const std::vector<std::int64_t>& cycle, Name&& name, std::size_t shown = 10) {
  std::string text;
  for (std::size_t k = 0; k < cycle.size() && k < shown; ++k)
    text += (k ? " -> " : "") + name(cycle[k]);
  if (cycle.size() > shown)
    text += " -> ...";
  if (!cycle.empty())
    text += " -> " + name(cycle.front());
  return text;
}

/// The weight as an integer when it is one, else with 9 significant digits.
[[nodiscard]] std::string weight_text(double w);

/// Throws negative_cycle_error for `cycle` (0-based vertices in order) of total weight `weight`.
[[noreturn]] void throw_negative_cycle_found(std::vector<std::int64_t> cycle, double weight);

} // namespace apsp::detail
