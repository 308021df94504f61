#pragma once
// The (min, +) semiring step per weight type. int32 maps to Hopper's fused DPX instruction
// (VIADDMNMX: one instruction for min(a + b, c)); float32 is an add and a min.

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace apsp::cuda::kernels {

/// The int32 "no path" value (2^30 - 1) and the clamp floor used with negative weights.
inline constexpr std::int32_t int32_infinity = 1073741823;

template <class T, bool Clamp> struct min_plus;

template <bool Clamp> struct min_plus<std::int32_t, Clamp> {
  using vec4 = int4;
  /// Starting value of a min-reduction: larger than any sum of two entries (<= 2^31 - 2).
  static __device__ __forceinline__ std::int32_t identity() { return INT32_MAX; }
  /// a + b, clamped at -infinity when Clamp (so negative cycles cannot overflow).
  static __device__ __forceinline__ std::int32_t sum(std::int32_t a, std::int32_t b) {
    if constexpr (Clamp) {
      return __viaddmax_s32(a, b, -int32_infinity);
    } else {
      return a + b;
    }
  }
  /// min(acc, sum(a, b)).
  static __device__ __forceinline__ std::int32_t relax(std::int32_t acc, std::int32_t a,
                                                       std::int32_t b) {
    if constexpr (Clamp) {
      return min(__viaddmax_s32(a, b, -int32_infinity), acc);
    } else {
      return __viaddmin_s32(a, b, acc);
    }
  }
};

/// The clamp of a finished minimum over k (with Clamp: at -infinity), for products whose
/// accumulators never feed a later step of the same kernel (the phase 2 and 3 tile products,
/// min_plus_gemm_kernel). Every stored value is at least -infinity, so the sum of two never wraps
/// (>= -2^31 + 2), and min over k of the unclamped sums, clamped once, equals min over k of
/// clamped sums: such kernels run min_plus<T, false> (one fused VIADDMNMX per update) and clamp
/// here, in their epilogue, instead of paying a second instruction per update.
template <class T, bool Clamp> __device__ __forceinline__ T clamp_min(T v) {
  if constexpr (Clamp && std::is_same_v<T, std::int32_t>) {
    return max(v, -int32_infinity);
  } else {
    return v;
  }
}

template <bool Clamp> struct min_plus<float, Clamp> {
  using vec4 = float4;
  static __device__ __forceinline__ float identity() { return __int_as_float(0x7f800000); }
  static __device__ __forceinline__ float sum(float a, float b) { return a + b; }
  static __device__ __forceinline__ float relax(float acc, float a, float b) {
    return fminf(a + b, acc);
  }
};

/// Element q (0..3) of a 4-vector.
template <class V> __device__ __forceinline__ auto lane_of(const V& v, int q) {
  return q == 0 ? v.x : q == 1 ? v.y : q == 2 ? v.z : v.w;
}

template <class V, class T> __device__ __forceinline__ void set_lane(V& v, int q, T value) {
  if (q == 0)
    v.x = value;
  if (q == 1)
    v.y = value;
  if (q == 2)
    v.z = value;
  if (q == 3)
    v.w = value;
}

} // namespace apsp::cuda::kernels
