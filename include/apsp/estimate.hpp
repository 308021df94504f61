#pragma once
/// @file estimate.hpp
/// How long a planned solve should take, by the cost model behind algorithm_kind::automatic.

#include <cstdint>

#include "apsp/options.hpp"
#include "apsp/plan.hpp"

namespace apsp {

/// The cost model's seconds for the solve stage of `p` (made with `options`, for a graph of
/// `edges` arcs): Floyd-Warshall on the cpu or cuda back end, or Johnson's algorithm, at the
/// engine rates of docs/sparse.md. 0 where the model has none (the reference back end, the
/// supernodal Floyd-Warshall). The rates were measured on this project's machines, so this is a
/// first guess for a progress display, until the solve's own rounds give a measured pace.
[[nodiscard]] double estimated_solve_seconds(const plan& p, const solve_options& options,
                                             std::int64_t edges);

} // namespace apsp
