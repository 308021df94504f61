#pragma once
// A plan as JSON: what `apsp info --json` shows for each back end and for the one `solve`
// would run, and what `apsp solve --json` reports it ran, in the same words.

#include <string>

#include <nlohmann/json.hpp>

#include "apsp/plan.hpp"

namespace apsp::cli {

/// The engine that runs `p`, as --json names it: "phast" for the contraction hierarchy's
/// sweeps, "ch-table" for its bucket tables, "rphast" for its restricted sweeps,
/// "bidirectional-dijkstra" for one pair's search, else the algorithm ("fw", "johnson",
/// "supernodal").
[[nodiscard]] std::string algorithm_name(const plan& p);

/// The plan's fields (driver, algorithm and why, device, type, block, rounds, memory, fits);
/// a distributed plan adds its ranks, grid and per-rank memory.
[[nodiscard]] nlohmann::ordered_json plan_json(const plan& p);

} // namespace apsp::cli
