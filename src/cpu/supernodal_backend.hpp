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

// make_supernodal_backend, analyse_supernodal and expect_supernodal_pays: core/backend.hpp.

} // namespace apsp::detail
