#pragma once
// The host engines' thread count (the cpu back end's Floyd-Warshall, Johnson, the supernodal
// solver, the per-source solves) and the cap that a whole solve runs under.

#include <omp.h>

#include <string>

#include "apsp/error.hpp"
#include "apsp/options.hpp"

namespace apsp::detail {

/// `o.threads`, or every OpenMP thread when it is 0; invalid_argument_error when negative.
inline int thread_count(const solve_options& o) {
  APSP_EXPECTS(o.threads >= 0, invalid_argument_error,
               "threads must be >= 0 (0 = all), got " + std::to_string(o.threads));
  return o.threads > 0 ? o.threads : omp_get_max_threads();
}

/// Caps the calling thread's OpenMP regions at `threads` (when > 0) for a whole solve: the input
/// checks, the fill and the post-processing as well as the back end (which sizes its own teams).
class omp_thread_cap {
public:
  explicit omp_thread_cap(int threads) : previous_(omp_get_max_threads()), set_(threads > 0) {
    if (set_)
      omp_set_num_threads(threads);
  }
  ~omp_thread_cap() {
    if (set_)
      omp_set_num_threads(previous_);
  }
  omp_thread_cap(const omp_thread_cap&) = delete;
  omp_thread_cap& operator=(const omp_thread_cap&) = delete;

private:
  int previous_;
  bool set_;
};

} // namespace apsp::detail
