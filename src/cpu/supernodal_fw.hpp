#pragma once
// The numeric side of the supernodal Floyd-Warshall: one dense block step per supernode of an
// elimination_plan (blocked Floyd-Warshall rounds over the pivots, restricted to the step's rows:
// supernodal_step.hpp), the elimination tree's independent subtrees on threads of their own and
// the steps above them on every thread (supernodal_schedule.hpp), on the matrix relabelled into
// elimination order and relabelled back in place at the end, so it needs no second n x n buffer.

#include <cstdint>
#include <vector>

#include "apsp/matrix.hpp"
#include "core/backend.hpp"
#include "cpu/elimination.hpp"

namespace apsp::cpu {

/// Moves element (i, j) of the n x n row-major matrix `d` to (to[i], to[j]), in place, on
/// `threads` threads: each cycle of the row permutation is cut into segments, each segment's
/// first row saved, then the segments run in parallel, each row read once and written once.
template <class E>
void permute_symmetric(E* d, std::int64_t n, const std::vector<std::int32_t>& to, int threads);

/// All pairs on `d` (and `via`), which hold the initial matrix in elimination labels
/// (d(p, q) is the arc order[p] -> order[q]); `via` holds no_via everywhere. Leaves the result
/// in elimination labels too, with via values as the graph's vertex ids; distances and vias are
/// the same bits on any thread count. Calls
/// ctx.round_done `progress_steps` times (it may throw cancelled_error).
template <class T>
void supernodal_steps(dense_matrix<T>& d, via_matrix* via, const elimination_plan& plan,
                      int threads, std::int64_t progress_steps, detail::run_context& ctx);

} // namespace apsp::cpu
