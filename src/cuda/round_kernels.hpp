#pragma once
// The kernels that make up each step of a blocked Floyd-Warshall round (core/round_schedule.hpp)
// on a matrix resident on one device: the in-core driver (fw_driver.hpp) and packed 16-bit mode
// (fw_packed16.hpp) implement it, device_rounds.hpp orders the steps. Kept apart from the
// executor so that the kernels' translation units (C++17, nvcc) need no more than this.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/round_schedule.hpp"

namespace apsp::cuda {

/// The kernels of each step of a round on a matrix resident on the current device, enqueued on
/// the stream given.
class round_kernels {
public:
  virtual ~round_kernels() = default;
  [[nodiscard]] virtual std::int64_t rounds() const = 0;
  /// Whether update() takes update_part::next_lines and ::rest (look-ahead), not only ::all.
  [[nodiscard]] virtual bool splits_update() const = 0;
  /// Phase 1: close the pivot tile.
  virtual void pivot(std::int64_t r, cudaStream_t s) = 0;
  /// Phase 2: the pivot row and column.
  virtual void panels(std::int64_t r, cudaStream_t s) = 0;
  /// Phase 3, or the part of it named.
  virtual void update(std::int64_t r, apsp::detail::update_part part, cudaStream_t s) = 0;
  /// Makes the matrices final for the rounds run so far (the path matrix's deferred pivots,
  /// kernels/deferred_pivots.cuh), before they are read; nothing where nothing is deferred.
  virtual void settle(cudaStream_t) {}
};

} // namespace apsp::cuda
