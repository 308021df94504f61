#pragma once
// Definitions behind fw_driver.hpp; included once per weight type by fw_<type>.cu.

#include <algorithm>
#include <cstdlib>
#include <type_traits>

#include "cuda/cuda_check.hpp"
#include "cuda/fw_driver.hpp"
#include "cuda/kernels/fill_padding.cuh"
#include "cuda/kernels/fw_pivot.cuh"
#include "cuda/kernels/min_plus_panel.cuh"
#include "cuda/kernels/min_plus_paths.cuh"
#include "cuda/kernels/min_plus_pipelined.cuh"
#include "cuda/kernels/min_plus_tagged.cuh"

namespace apsp::cuda {
namespace detail {

template <class T> constexpr T infinity_of() {
  if constexpr (std::is_integral_v<T>) {
    return kernels::int32_infinity;
  } else {
    return __builtin_huge_valf();
  }
}

template <class T, bool Clamp> void configure_paths_kernel() {
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_paths_kernel<T, Clamp>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     kernels::paths_smem_bytes(sizeof(T))));
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_paths_kernel<T, Clamp>,
                                     cudaFuncAttributePreferredSharedMemoryCarveout,
                                     cudaSharedmemCarveoutMaxShared));
}

/// Phase 3 with paths: from tagged panels where the problem has the buffers (int32 without
/// clamp), with min_plus_paths_kernel for rounds whose panels cannot be tagged (and always
/// otherwise).
template <class T, bool Clamp>
void enqueue_paths_phase3(const device_problem<T>& p, int round, unsigned tiles3, cudaStream_t s) {
  const auto blocks = static_cast<int>(2 * tiles3); // two half tiles each
  const int* run_if = nullptr;
  if constexpr (!Clamp) {
    if (p.a_tag != nullptr) {
      const std::int64_t k0 = static_cast<std::int64_t>(round) * kernels::fw_tile;
      int* overflow = p.tag_overflow + round;
      kernels::tag_slice_kernel<T><<<1024, 256, 0, s>>>(p.d + k0, p.ld, p.ld, p.d + k0 * p.ld, p.ld,
                                                        p.ld, p.a_tag, p.b_tag, overflow);
      APSP_CUDA_CHECK_LAUNCH("tag_slice_kernel", s);
      kernels::min_plus_tagged_kernel<T, true>
          <<<tiles3, kernels::mp_threads, kernels::pipelined_smem_bytes(sizeof(T)), s>>>(
              p.d, p.via, p.ld, p.a_tag, p.b_tag, p.ld, static_cast<std::int32_t>(k0), overflow,
              round, static_cast<int>(p.tiles()));
      APSP_CUDA_CHECK_LAUNCH("min_plus_tagged_kernel (phase 3)", s);
      run_if = p.tag_overflow;
    }
  }
  // Gated on the flag, a few waves of blocks stride over the tiles, so a round that does not
  // need the kernel costs a few thousand empty blocks rather than one per half tile.
  constexpr int gated_grid = 4096;
  const int grid = run_if != nullptr ? std::min(blocks, gated_grid) : blocks;
  kernels::min_plus_paths_kernel<T, Clamp>
      <<<grid, kernels::mp_threads, kernels::paths_smem_bytes(sizeof(T)), s>>>(
          p.d, p.via, p.ld, round, static_cast<int>(p.tiles()), blocks, run_if);
}

template <class T, bool Clamp, bool Paths> void configure_variant() {
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::pivot_kernel<T, Clamp, Paths>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     kernels::pivot_smem_bytes(sizeof(T), Paths)));
  if constexpr (Paths) {
    APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_panel_kernel<T, Clamp>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       kernels::panel_smem_bytes(sizeof(T))));
    configure_paths_kernel<T, Clamp>();
    if constexpr (!Clamp) {
      APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_tagged_kernel<T, true>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         kernels::pipelined_smem_bytes(sizeof(T))));
    }
  } else {
    APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_pipelined_kernel<T, Clamp>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       kernels::pipelined_smem_bytes(sizeof(T))));
  }
}

/// Phase-3 style products of round r over one tile set (min_plus_common.cuh), distances only.
template <class T, bool Clamp>
void enqueue_tiles(const device_problem<T>& p, int r, int set, cudaStream_t s) {
  const int tiles = static_cast<int>(p.tiles());
  const unsigned blocks = kernels::blocks_of(set, tiles);
  if (blocks == 0)
    return;
  kernels::min_plus_pipelined_kernel<T, Clamp>
      <<<blocks, kernels::mp_threads, kernels::pipelined_smem_bytes(sizeof(T)), s>>>(p.d, p.ld, r,
                                                                                     tiles, set);
  APSP_CUDA_CHECK_LAUNCH(set == kernels::cross ? "min-plus tile kernel (phase 2)"
                                               : "min-plus tile kernel (phase 3)",
                         s);
}

/// Phase 1 and 2 of round r (distances only) on s.
template <class T, bool Clamp>
void enqueue_pivot_and_cross(const device_problem<T>& p, int r, cudaStream_t s) {
  const int tiles = static_cast<int>(p.tiles());
  kernels::pivot_kernel<T, Clamp, false>
      <<<1, kernels::pivot_threads, kernels::pivot_smem_bytes(sizeof(T), false), s>>>(p.d, nullptr,
                                                                                      p.ld, r);
  APSP_CUDA_CHECK_LAUNCH("pivot_kernel (phase 1)", s);
  if (tiles >= 2)
    enqueue_tiles<T, Clamp>(p, r, kernels::cross, s);
}

template <class T, bool Clamp, bool Paths>
void enqueue_variant(const device_problem<T>& p, std::int64_t r, cudaStream_t s) {
  const int tiles = static_cast<int>(p.tiles());
  const int round = static_cast<int>(r);
  kernels::pivot_kernel<T, Clamp, Paths>
      <<<1, kernels::pivot_threads, kernels::pivot_smem_bytes(sizeof(T), Paths), s>>>(p.d, p.via,
                                                                                      p.ld, round);
  APSP_CUDA_CHECK_LAUNCH("pivot_kernel (phase 1)", s);
  if (tiles < 2)
    return;
  const auto others = static_cast<unsigned>(tiles - 1);
  // Phase 2 (the cross), then phase 3 (the rest): same kernel, different tile maps.
  for (const bool cross : {true, false}) {
    const unsigned blocks = cross ? 2 * others : others * others;
    if constexpr (Paths) {
      if (!cross)
        enqueue_paths_phase3<T, Clamp>(p, round, blocks, s);
      else
        kernels::min_plus_panel_kernel<T, Clamp>
            <<<blocks, kernels::mp_threads, kernels::panel_smem_bytes(sizeof(T)), s>>>(
                p.d, p.via, p.ld, round, tiles, cross);
    } else {
      kernels::min_plus_pipelined_kernel<T, Clamp>
          <<<blocks, kernels::mp_threads, kernels::pipelined_smem_bytes(sizeof(T)), s>>>(
              p.d, p.ld, round, tiles, cross ? kernels::cross : kernels::rest);
    }
    APSP_CUDA_CHECK_LAUNCH(
        cross ? "min-plus tile kernel (phase 2)" : "min-plus tile kernel (phase 3)", s);
  }
}

/// Calls f(bool_constant clamp, bool_constant paths) for the variant p needs. float never
/// clamps: it cannot wrap around, and -inf absorbs.
template <class T, class F> void dispatch(const device_problem<T>& p, F&& f) {
  using yes = std::true_type;
  using no = std::false_type;
  const bool paths = p.via != nullptr;
  if constexpr (std::is_integral_v<T>) {
    if (p.clamp) {
      paths ? f(yes{}, yes{}) : f(yes{}, no{});
      return;
    }
  }
  paths ? f(no{}, yes{}) : f(no{}, no{});
}

} // namespace detail

template <class T> void configure_kernels(const device_problem<T>& p) {
  detail::dispatch(p, [](auto clamp, auto paths) {
    detail::configure_variant<T, decltype(clamp)::value, decltype(paths)::value>();
  });
}

template <class T> void enqueue_round(const device_problem<T>& p, std::int64_t r, cudaStream_t s) {
  detail::dispatch(p, [&](auto clamp, auto paths) {
    detail::enqueue_variant<T, decltype(clamp)::value, decltype(paths)::value>(p, r, s);
  });
}

template <class T>
round_runner<T>::round_runner(const device_problem<T>& p, cudaStream_t s) : p_(p), s_(s) {
  const char* env = std::getenv("APSP_CUDA_LOOKAHEAD");
  const bool off = env != nullptr && env[0] == '0';
  if (off || p.via != nullptr || p.tiles() < 3)
    return;
  int least = 0;
  int greatest = 0;
  APSP_CUDA_TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  APSP_CUDA_TRY(cudaStreamCreateWithPriority(&ahead_, cudaStreamNonBlocking, greatest));
  APSP_CUDA_TRY(cudaEventCreateWithFlags(&lines_done_, cudaEventDisableTiming));
  APSP_CUDA_TRY(cudaEventCreateWithFlags(&cross_done_, cudaEventDisableTiming));
}

template <class T> round_runner<T>::~round_runner() {
  if (ahead_ != nullptr) {
    APSP_CUDA_TRY_NOTHROW(cudaStreamSynchronize(ahead_));
    APSP_CUDA_TRY_NOTHROW(cudaStreamDestroy(ahead_));
  }
  if (lines_done_ != nullptr)
    APSP_CUDA_TRY_NOTHROW(cudaEventDestroy(lines_done_));
  if (cross_done_ != nullptr)
    APSP_CUDA_TRY_NOTHROW(cudaEventDestroy(cross_done_));
}

template <class T> void round_runner<T>::enqueue(std::int64_t r) {
  if (ahead_ == nullptr) {
    enqueue_round(p_, r, s_);
    return;
  }
  const auto run = [&](auto clamp) {
    constexpr bool Clamp = decltype(clamp)::value;
    const int round = static_cast<int>(r);
    if (next_ == r) {
      APSP_CUDA_TRY(cudaStreamWaitEvent(s_, cross_done_, 0));
    } else {
      detail::enqueue_pivot_and_cross<T, Clamp>(p_, round, s_);
    }
    next_ = -1;
    if (r + 1 >= p_.tiles()) {
      detail::enqueue_tiles<T, Clamp>(p_, round, kernels::rest, s_);
      return;
    }
    detail::enqueue_tiles<T, Clamp>(p_, round, kernels::next_lines, s_);
    APSP_CUDA_TRY(cudaEventRecord(lines_done_, s_));
    APSP_CUDA_TRY(cudaStreamWaitEvent(ahead_, lines_done_, 0));
    detail::enqueue_pivot_and_cross<T, Clamp>(p_, round + 1, ahead_);
    APSP_CUDA_TRY(cudaEventRecord(cross_done_, ahead_));
    next_ = r + 1;
    detail::enqueue_tiles<T, Clamp>(p_, round, kernels::rest_ahead, s_);
  };
  if constexpr (std::is_integral_v<T>) {
    if (p_.clamp) {
      run(std::true_type{});
      return;
    }
  }
  run(std::false_type{});
}

template <class T>
void enqueue_fill_padding(T* d, std::int64_t n, std::int64_t ld, cudaStream_t s) {
  if (ld == n)
    return;
  kernels::fill_padding_kernel<T><<<1024, 256, 0, s>>>(d, n, ld, detail::infinity_of<T>());
  APSP_CUDA_CHECK_LAUNCH("fill_padding_kernel", s);
}

} // namespace apsp::cuda
