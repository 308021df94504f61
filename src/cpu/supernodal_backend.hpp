#pragma once
// The supernodal Floyd-Warshall back end (src/cpu/supernodal_backend.cpp). Internal.

#include <cstdint>
#include <memory>
#include <vector>

#include "apsp/matrix.hpp"

#include "core/backend.hpp"
#include "cpu/elimination.hpp"

namespace apsp::detail {

/// The most Cholesky-pattern entries the analysis keeps for an n-vertex graph (beyond it the
/// graph has no small separators and the method cannot pay).
[[nodiscard]] std::int64_t supernodal_fill_limit(std::int64_t n);

/// The arcs of an initial matrix (solve_dense): every finite off-diagonal entry, as heads[a] ->
/// tails[a]. A matrix with more than twice the fill limit of them cannot have small separators
/// (the factor's pattern holds at least half the arcs): refused (invalid_argument_error) before
/// the arrays are made.
template <class T>
void matrix_arcs(const dense_matrix<T>& d, std::vector<std::int32_t>& heads,
                 std::vector<std::int32_t>& tails);

// make_supernodal_backend, analyse_supernodal and expect_supernodal_pays: core/backend.hpp.

} // namespace apsp::detail
