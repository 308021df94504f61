#pragma once
// Definitions behind fw_driver.hpp; included once per weight type by fw_<type>.cu.

#include <algorithm>
#include <memory>
#include <type_traits>

#include "cuda/cuda_check.hpp"
#include "cuda/fw_driver.hpp"
#include "cuda/kernels/deferred_pivots.cuh"
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

template <class T, bool Clamp, int NI = 8, bool Defer = false, bool ThreeWay = false>
void configure_paths_kernel() {
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_paths_kernel<T, Clamp, NI, Defer, ThreeWay>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     kernels::paths_smem_bytes<NI>(sizeof(T))));
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_paths_kernel<T, Clamp, NI, Defer, ThreeWay>,
                                     cudaFuncAttributePreferredSharedMemoryCarveout,
                                     cudaSharedmemCarveoutMaxShared));
}

/// The path kernel for p: float32 with device_problem::three_way takes its minima three at a
/// time (min_plus_chunk).
template <class T, bool Clamp, int NI, bool Defer> auto paths_kernel(const device_problem<T>& p) {
  if constexpr (std::is_same_v<T, float>) {
    if (p.three_way)
      return &kernels::min_plus_paths_kernel<T, Clamp, NI, Defer, true>;
  }
  return &kernels::min_plus_paths_kernel<T, Clamp, NI, Defer, false>;
}

/// The distance kernel for p, chosen the same way.
template <class T, bool Clamp> auto pipelined_kernel(const device_problem<T>& p) {
  if constexpr (std::is_same_v<T, float>) {
    if (p.three_way)
      return &kernels::min_plus_pipelined_kernel<T, Clamp, true>;
  }
  return &kernels::min_plus_pipelined_kernel<T, Clamp, false>;
}

/// Round r's tagged panels (the buffers of r's parity, min_plus_tagged.cuh), made once its
/// pivot row and column are final (after phase 2), when the problem has the buffers.
template <class T, bool Clamp>
void enqueue_tag_panels(const device_problem<T>& p, int round, cudaStream_t s) {
  if (p.a_tag == nullptr)
    return;
  const std::int64_t k0 = static_cast<std::int64_t>(round) * kernels::fw_tile;
  const std::int64_t at = (round & 1) * p.tag_stride;
  kernels::tag_slice_kernel<T, Clamp><<<1024, 256, 0, s>>>(p.d + k0, p.ld, p.ld, p.d + k0 * p.ld,
                                                           p.ld, p.ld, p.a_tag + at, p.b_tag + at,
                                                           p.tag_overflow + round);
  APSP_CUDA_CHECK_LAUNCH("tag_slice_kernel", s);
}

/// Phase 3 with paths over one tile set of round r (min_plus_common.cuh): from the round's
/// tagged panels where the problem has the buffers, with min_plus_paths_kernel for rounds whose
/// panels cannot be tagged (and always otherwise).
template <class T, bool Clamp>
void enqueue_paths_tiles(const device_problem<T>& p, int round, int set, cudaStream_t s) {
  const int tiles = static_cast<int>(p.tiles());
  const unsigned tiles3 = kernels::blocks_of(set, tiles);
  if (tiles3 == 0)
    return;
  const auto blocks = static_cast<int>(2 * tiles3); // two half tiles each
  const int* run_if = nullptr;
  if (p.a_tag != nullptr) {
    const std::int64_t k0 = static_cast<std::int64_t>(round) * kernels::fw_tile;
    const std::int64_t at = (round & 1) * p.tag_stride;
    kernels::min_plus_tagged_kernel<T, true>
        <<<tiles3, kernels::mp_threads, kernels::pipelined_smem_bytes(sizeof(T)), s>>>(
            p.d, p.via, p.ld, p.a_tag + at, p.b_tag + at, p.ld, static_cast<std::int32_t>(k0),
            p.tag_overflow + round, round, tiles, p.vertices(), set);
    APSP_CUDA_CHECK_LAUNCH("min_plus_tagged_kernel (phase 3)", s);
    run_if = p.tag_overflow;
  }
  // Gated on the flag, a few waves of blocks stride over the tiles, so a round that does not
  // need the kernel costs a few thousand empty blocks rather than one per half tile.
  constexpr int gated_grid = 4096;
  const int grid = run_if != nullptr ? std::min(blocks, gated_grid) : blocks;
  // With snapshots, the kernel leaves its pivots to step_kernels::settle.
  auto* kernel =
      p.snap != nullptr ? paths_kernel<T, Clamp, 8, true>(p) : paths_kernel<T, Clamp, 8, false>(p);
  kernel<<<grid, kernels::mp_threads, kernels::paths_smem_bytes(sizeof(T)), s>>>(
      p.d, p.via, p.ld, p.vertices(), round, tiles, blocks, run_if, set, 0);
  APSP_CUDA_CHECK_LAUNCH("min_plus_paths_kernel (phase 3)", s);
}

template <class T, bool Clamp, bool Paths> void configure_variant() {
  constexpr bool three_way = std::is_same_v<T, float>; // its kernels come in both forms
  if constexpr (Paths) {
    configure_paths_kernel<T, Clamp>();
    configure_paths_kernel<T, Clamp, 8, true>();
    configure_paths_kernel<T, Clamp, 4>();
    if constexpr (three_way) {
      configure_paths_kernel<T, Clamp, 8, false, true>();
      configure_paths_kernel<T, Clamp, 8, true, true>();
      configure_paths_kernel<T, Clamp, 4, false, true>();
    }
    APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_tagged_kernel<T, true>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       kernels::pipelined_smem_bytes(sizeof(T))));
  } else {
    APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_pipelined_kernel<T, Clamp>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       kernels::pipelined_smem_bytes(sizeof(T))));
    if constexpr (three_way) {
      APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_pipelined_kernel<T, Clamp, true>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         kernels::pipelined_smem_bytes(sizeof(T))));
    }
  }
}

/// Phase-3 style products of round r over one tile set (min_plus_common.cuh), distances only.
template <class T, bool Clamp>
void enqueue_tiles(const device_problem<T>& p, int r, int set, cudaStream_t s) {
  const int tiles = static_cast<int>(p.tiles());
  const unsigned blocks = kernels::blocks_of(set, tiles);
  if (blocks == 0)
    return;
  auto* kernel = pipelined_kernel<T, Clamp>(p);
  kernel<<<blocks, kernels::mp_threads, kernels::pipelined_smem_bytes(sizeof(T)), s>>>(
      p.d, p.ld, p.vertices(), r, tiles, set);
  APSP_CUDA_CHECK_LAUNCH(set == kernels::cross ? "min-plus tile kernel (phase 2)"
                                               : "min-plus tile kernel (phase 3)",
                         s);
}

/// The kernels of round r's steps for one variant (round_kernels.hpp): phase 2 (the cross) and
/// phase 3 (the rest) are the same kernel over different tile maps; with paths, phase 2 also
/// tags the round's panels (into the buffers of its parity, so that round r + 1's can be made
/// while round r's rest reads them) and phase 3 runs the path kernels over the tile maps.
template <class T, bool Clamp, bool Paths> class step_kernels final : public round_kernels {
public:
  explicit step_kernels(const device_problem<T>& p) : p_(p) {}
  [[nodiscard]] std::int64_t rounds() const override { return p_.tiles(); }
  [[nodiscard]] bool splits_update() const override { return true; }

  void pivot(std::int64_t r, cudaStream_t s) override {
    kernels::pivot_kernel<T, Clamp, Paths><<<1, kernels::pivot_threads, 0, s>>>(
        p_.d, p_.via, p_.ld, static_cast<int>(r),
        static_cast<int>(
            std::min<std::int64_t>(p_.vertices() - r * kernels::fw_tile, kernels::fw_tile)));
    APSP_CUDA_CHECK_LAUNCH("pivot_kernel (phase 1)", s);
  }

  void panels(std::int64_t r, cudaStream_t s) override {
    const int tiles = static_cast<int>(p_.tiles());
    if (tiles < 2)
      return;
    if constexpr (Paths) {
      // The row panel's tiles in column halves, then the column panel's in row halves
      // (min_plus_paths.cuh: each half reads only its own part of the tile it writes).
      const int halves = 2 * (tiles - 1);
      auto* row_panel = paths_kernel<T, Clamp, 8, false>(p_);
      row_panel<<<halves, kernels::mp_threads, kernels::paths_smem_bytes<8>(sizeof(T)), s>>>(
          p_.d, p_.via, p_.ld, p_.vertices(), static_cast<int>(r), tiles, halves, nullptr,
          kernels::cross, 0);
      APSP_CUDA_CHECK_LAUNCH("min_plus_paths_kernel (phase 2, row panel)", s);
      auto* column_panel = paths_kernel<T, Clamp, 4, false>(p_);
      column_panel<<<halves, kernels::mp_threads, kernels::paths_smem_bytes<4>(sizeof(T)), s>>>(
          p_.d, p_.via, p_.ld, p_.vertices(), static_cast<int>(r), tiles, halves, nullptr,
          kernels::cross, tiles - 1);
      APSP_CUDA_CHECK_LAUNCH("min_plus_paths_kernel (phase 2, column panel)", s);
      enqueue_tag_panels<T, Clamp>(p_, static_cast<int>(r), s);
      if (p_.snap != nullptr) { // the panels as this round's phase 3 reads them
        kernels::snapshot_panels_kernel<T><<<1024, kernels::snapshot_threads, 0, s>>>(
            p_.d, p_.ld, static_cast<int>(r), p_.snap, p_.tag_overflow);
        APSP_CUDA_CHECK_LAUNCH("snapshot_panels_kernel", s);
      }
    } else {
      enqueue_tiles<T, Clamp>(p_, static_cast<int>(r), kernels::cross, s);
    }
  }

  void update(std::int64_t r, apsp::detail::update_part part, cudaStream_t s) override {
    using apsp::detail::update_part;
    const int tiles = static_cast<int>(p_.tiles());
    if (tiles < 2)
      return;
    const int set = part == update_part::all          ? kernels::rest
                    : part == update_part::next_lines ? kernels::next_lines
                                                      : kernels::rest_ahead;
    if constexpr (Paths) {
      enqueue_paths_tiles<T, Clamp>(p_, static_cast<int>(r), set, s);
    } else {
      enqueue_tiles<T, Clamp>(p_, static_cast<int>(r), set, s);
    }
  }

  void settle(cudaStream_t s) override {
    if constexpr (Paths) {
      if (p_.snap == nullptr)
        return;
      kernels::resolve_deferred_kernel<T, Clamp>
          <<<4096, 256, 0, s>>>(p_.via, p_.ld, p_.vertices(), p_.snap);
      APSP_CUDA_CHECK_LAUNCH("resolve_deferred_kernel", s);
    }
  }

private:
  device_problem<T> p_;
};

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
    detail::step_kernels<T, decltype(clamp)::value, decltype(paths)::value> k(p);
    k.pivot(r, s);
    k.panels(r, s);
    k.update(r, apsp::detail::update_part::all, s);
  });
}

template <class T> std::unique_ptr<round_kernels> make_round_kernels(const device_problem<T>& p) {
  std::unique_ptr<round_kernels> k;
  detail::dispatch(p, [&](auto clamp, auto paths) {
    k = std::make_unique<detail::step_kernels<T, decltype(clamp)::value, decltype(paths)::value>>(
        p);
  });
  return k;
}

template <class T>
void enqueue_fill_padding(T* d, std::int64_t n, std::int64_t ld, cudaStream_t s) {
  if (ld == n)
    return;
  kernels::fill_padding_kernel<T><<<1024, 256, 0, s>>>(d, n, ld, detail::infinity_of<T>());
  APSP_CUDA_CHECK_LAUNCH("fill_padding_kernel", s);
}

} // namespace apsp::cuda
