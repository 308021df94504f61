#pragma once
// The cpu back end's thread count, shared by its Floyd-Warshall and Johnson plans.

#include <omp.h>

#include <string>

#include "apsp/error.hpp"
#include "apsp/options.hpp"

namespace apsp::cpu {

/// `o.threads`, or every OpenMP thread when it is 0; invalid_argument_error when negative.
inline int thread_count(const solve_options& o) {
  APSP_EXPECTS(o.threads >= 0, invalid_argument_error,
               "threads must be >= 0 (0 = all), got " + std::to_string(o.threads));
  return o.threads > 0 ? o.threads : omp_get_max_threads();
}

} // namespace apsp::cpu
