#pragma once
// What the plans of the cpu back ends (blocked Floyd-Warshall, Johnson, supernodal) start from.

#include <cstdint>

#include "apsp/error.hpp"
#include "core/backend.hpp"

namespace apsp::detail {

/// A cpu back end's plan for n vertices under `o` with its size, type and paths set; the back
/// end adds its driver, device, block, rounds and memory. Refuses n of 2^31 or more (the cpu
/// engines number vertices in int32).
[[nodiscard]] inline plan cpu_plan(std::int64_t n, const solve_options& o) {
  APSP_EXPECTS(n < (std::int64_t{1} << 31), invalid_argument_error,
               "the cpu back end handles at most 2^31 - 1 vertices");
  plan p;
  p.type = o.type;
  p.n = n;
  p.paths = o.paths;
  return p;
}

} // namespace apsp::detail
