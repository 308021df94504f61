#pragma once
// The supernodal Floyd-Warshall back end (src/cpu/supernodal_backend.cpp). Internal.

#include <cstdint>
#include <memory>

#include "core/backend.hpp"
#include "cpu/elimination.hpp"

namespace apsp::detail {

/// The most Cholesky-pattern entries the analysis keeps for an n-vertex graph (beyond it the
/// graph has no small separators and the method cannot pay).
[[nodiscard]] std::int64_t supernodal_fill_limit(std::int64_t n);

/// Throws invalid_argument_error (saying why and what to use instead) when the analysis stopped
/// because the graph has no small separators.
void expect_supernodal_pays(const cpu::elimination_plan& ep);

/// kind() is cpu; its plans say algorithm_kind::supernodal. `ep`, when given, is the analysis
/// already made for the graph to be solved (the cost model makes it to choose); else run()
/// makes it.
[[nodiscard]] std::unique_ptr<backend>
make_supernodal_backend(std::shared_ptr<const cpu::elimination_plan> ep = nullptr);

} // namespace apsp::detail
