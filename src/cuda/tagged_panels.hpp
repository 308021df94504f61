#pragma once
// Owners of the buffers that let products with paths run from tagged pivot slices
// (kernels/min_plus_tagged.cuh): int32 or float32, with paths. Callers allocate them where that
// applies and hand them to the in-core driver (device_problem) or the general product
// (gemm_args::tags); everything else (and APSP_CUDA_TAGGED_PATHS=0) runs without them, and the
// kernels then find pivots by rescanning.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "core/tuning.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/fw_driver.hpp"
#include "cuda/gemm_driver.hpp"
#include "cuda/resources.hpp"

namespace apsp::cuda {

/// False when APSP_CUDA_TAGGED_PATHS=0 (a diagnostic switch; the tests compare both ways).
[[nodiscard]] inline bool tagged_paths_enabled() {
  return apsp::detail::current_tuning().cuda_tagged_paths;
}

/// Whether a solve of weight type T uses tagged slices: int32 or float32 with paths (the
/// slices take the tagged route where their values are whole numbers in one of the tagged
/// ranges, negative weights included; kernels/min_plus_tagged.cuh), unless `fractional`: the
/// weights have fractions, so no float32 slice would ever take the tagged route.
template <class T> [[nodiscard]] bool uses_tagged_paths(bool paths, bool fractional = false) {
  if (std::is_same_v<T, float> && fractional)
    return false;
  return (std::is_same_v<T, std::int32_t> || std::is_same_v<T, float>)&&paths &&
         tagged_paths_enabled();
}

/// Device bytes of a workspace for products up to a_rows x b_cols over `slices` k slices, with
/// `copies` pairs of tagged slices.
[[nodiscard]] inline std::uint64_t tag_workspace_bytes(std::int64_t a_rows, std::int64_t b_cols,
                                                       std::int64_t slices, int copies = 1) {
  return static_cast<std::uint64_t>(copies) * static_cast<std::uint64_t>(kernels::fw_tile) *
             static_cast<std::uint64_t>(a_rows + b_cols) * sizeof(std::int32_t) +
         static_cast<std::uint64_t>(slices) * sizeof(int);
}

/// Tagged A slice (a_rows x 128), B slice (128 x b_cols) -- `copies` pairs, stride() elements
/// apart -- and `slices` overflow flags on the current device; empty when default-constructed.
class tag_workspace {
public:
  tag_workspace() = default;
  tag_workspace(std::int64_t a_rows, std::int64_t b_cols, std::int64_t slices, int copies = 1)
      : tags_(static_cast<std::size_t>(copies * kernels::fw_tile * (a_rows + b_cols))),
        overflow_(static_cast<std::size_t>(slices)), a_rows_(a_rows), b_cols_(b_cols),
        slices_(slices) {}
  /// Elements from one pair of tagged slices to the next.
  [[nodiscard]] std::int64_t stride() const noexcept {
    return kernels::fw_tile * (a_rows_ + b_cols_);
  }

  [[nodiscard]] gemm_tags view() {
    gemm_tags t;
    if (tags_.size() == 0)
      return t;
    t.a = tags_.data();
    t.a_rows = a_rows_;
    t.b = tags_.data() + kernels::fw_tile * a_rows_;
    t.b_cols = b_cols_;
    t.overflow = overflow_.data();
    t.slices = slices_;
    return t;
  }

private:
  device_buffer<std::int32_t> tags_;
  device_buffer<int> overflow_;
  std::int64_t a_rows_ = 0;
  std::int64_t b_cols_ = 0;
  std::int64_t slices_ = 0;
};

/// The in-core solve's workspace: two pairs of panels of ld x 128 and 128 x ld (even and odd
/// rounds, for look-ahead) and a flag per round, zeroed on stream s, attached to p when p can
/// use them (p must keep its via and ld).
class tagged_panels {
public:
  /// Pairs of tagged panels the in-core solve keeps.
  static constexpr int copies = 2;
  /// `fractional`: the weights have fractions, so float32 slices would not take the tagged route
  /// (every sum through such a weight has one): none is made, and the rescan kernels run
  /// ungated, without a tagging attempt per round.
  template <class T> tagged_panels(device_problem<T>& p, cudaStream_t s, bool fractional = false) {
    if (!uses_tagged_paths<T>(p.via != nullptr, fractional))
      return;
    work_ = tag_workspace(p.ld, p.ld, p.tiles(), copies);
    const gemm_tags t = work_.view();
    APSP_CUDA_TRY(
        cudaMemsetAsync(t.overflow, 0, static_cast<std::size_t>(t.slices) * sizeof(int), s));
    p.a_tag = t.a;
    p.b_tag = t.b;
    p.tag_stride = work_.stride();
    p.tag_overflow = t.overflow;
  }

private:
  tag_workspace work_;
};

} // namespace apsp::cuda
