#pragma once
/// @file plan.hpp
/// What a solve will do and need, computed without allocating the matrices (planning a graph
/// may run the supernodal solver's analysis, see make_plan).

#include <cstdint>
#include <string>

#include "apsp/types.hpp"

namespace apsp {

struct plan {
  backend_kind backend = backend_kind::cpu; ///< the concrete back end (never `automatic`)
  std::string device;                       ///< e.g. "cpu (2 threads, avx512)" or a GPU name
  algorithm_kind algorithm = algorithm_kind::floyd_warshall; ///< never `automatic`
  /// Why this algorithm (and, under `auto`, this back end): the cost model's estimates, or
  /// "requested".
  std::string algorithm_reason;
  dtype type = dtype::int32;
  std::int64_t n = 0;
  std::int64_t block = 0;  ///< tile edge (Johnson: sources per progress step)
  std::int64_t rounds = 0; ///< ceil(n / block)
  bool paths = false;
  bool narrow = false;            ///< the rounds ran in packed 16-bit arithmetic
  std::uint64_t host_bytes = 0;   ///< peak host memory (RAM): matrices plus working copies
  std::uint64_t file_bytes = 0;   ///< bytes of the memory-mapped distances_file (not in RAM)
  std::uint64_t device_bytes = 0; ///< peak device memory (0 for host back ends)
  bool out_of_core = false;       ///< the matrix stays in host memory and streams through the
                                  ///< device(s) during the solve (larger than device memory)
  int devices = 1;                ///< GPUs the solve uses (cuda; 1 for host back ends)
  bool fits = true;               ///< false when the memory above is not available
  std::string reason;             ///< why it does not fit (empty when it fits)
};

/// Physical memory of this machine in bytes (0 when the system does not say); plans compare
/// their host_bytes with it.
[[nodiscard]] std::uint64_t host_memory_bytes() noexcept;

} // namespace apsp
