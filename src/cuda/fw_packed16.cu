// Launchers of the packed 16-bit blocked Floyd-Warshall (see fw_packed16.hpp).

#include <algorithm>
#include <memory>

#include "cuda/cuda_check.hpp"
#include "cuda/fw_packed16.hpp"
#include "cuda/kernels/fill_padding.cuh"
#include "cuda/kernels/fw_pivot_packed16.cuh"
#include "cuda/kernels/min_plus_packed16.cuh"

namespace apsp::cuda {
namespace {

/// Round r's scratch panel (packed16_problem).
std::uint32_t* panel_of(const packed16_problem& p, int round) {
  return p.panel + static_cast<std::int64_t>(round & 1) * p.ld * kernels::fw_tile;
}

void enqueue_expand(const packed16_problem& p, int round, cudaStream_t s) {
  constexpr int threads = 256;
  const std::int64_t work = p.ld * kernels::fw_tile;
  const auto blocks = static_cast<unsigned>(
      std::min<std::int64_t>((work + threads - 1) / threads, std::int64_t{4096}));
  kernels::expand_pivot_column_kernel<<<blocks, threads, 0, s>>>(p.d, panel_of(p, round), p.ld,
                                                                 round);
  APSP_CUDA_CHECK_LAUNCH("expand_pivot_column_kernel (packed16)", s);
}

} // namespace

void configure_packed16_kernels() {
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_packed16_kernel,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(kernels::packed16_smem_bytes())));
  // Four blocks per SM need 4 x 43 KB: ask for the largest shared-memory carveout.
  APSP_CUDA_TRY(cudaFuncSetAttribute(kernels::min_plus_packed16_kernel,
                                     cudaFuncAttributePreferredSharedMemoryCarveout,
                                     cudaSharedmemCarveoutMaxShared));
}

namespace {

/// The steps of a packed round (round_kernels.hpp). The A operand is the pivot column as it
/// stands: after phase 1 for phase 2 (the column panel reads its own old tile, the row panel the
/// closed pivot tile), after phase 2 for phase 3. Both expansions belong to panels(), so that the
/// look-ahead's event after round r's panels also covers the operand of round r's phase 3, whose
/// tile sets (min_plus_common.cuh) then run on either stream.
class packed16_kernels final : public round_kernels {
public:
  explicit packed16_kernels(const packed16_problem& p) : p_(p) {}
  [[nodiscard]] std::int64_t rounds() const override { return p_.tiles(); }
  [[nodiscard]] bool splits_update() const override { return true; }
  void pivot(std::int64_t r, cudaStream_t s) override {
    kernels::pivot_packed16_kernel<<<1, kernels::pivot16_threads, 0, s>>>(p_.d, p_.ld,
                                                                          static_cast<int>(r));
    APSP_CUDA_CHECK_LAUNCH("pivot_packed16_kernel (phase 1)", s);
  }
  void panels(std::int64_t r, cudaStream_t s) override {
    if (p_.tiles() < 2)
      return;
    enqueue_expand(p_, static_cast<int>(r), s);
    products(r, kernels::cross, s);
    enqueue_expand(p_, static_cast<int>(r), s);
  }
  void update(std::int64_t r, apsp::detail::update_part part, cudaStream_t s) override {
    using apsp::detail::update_part;
    products(r,
             part == update_part::all          ? kernels::rest
             : part == update_part::next_lines ? kernels::next_lines
                                               : kernels::rest_ahead,
             s);
  }

private:
  void products(std::int64_t r, int set, cudaStream_t s) {
    const int tiles = static_cast<int>(p_.tiles());
    if (tiles < 2)
      return;
    const int round = static_cast<int>(r);
    const unsigned blocks = kernels::blocks_of(set, tiles);
    if (blocks == 0)
      return;
    kernels::min_plus_packed16_kernel<<<blocks, kernels::p16_threads,
                                        kernels::packed16_smem_bytes(), s>>>(
        reinterpret_cast<std::uint32_t*>(p_.d), panel_of(p_, round), p_.ld, round, tiles, set);
    APSP_CUDA_CHECK_LAUNCH(set == kernels::cross ? "min_plus_packed16_kernel (phase 2)"
                                                 : "min_plus_packed16_kernel (phase 3)",
                           s);
  }

  packed16_problem p_;
};

} // namespace

std::unique_ptr<round_kernels> make_packed16_round_kernels(const packed16_problem& p) {
  return std::make_unique<packed16_kernels>(p);
}

void enqueue_packed16_fill_padding(std::int16_t* d, std::int64_t n, std::int64_t ld,
                                   cudaStream_t s) {
  if (ld == n)
    return;
  kernels::fill_padding_kernel<std::int16_t>
      <<<1024, 256, 0, s>>>(d, n, ld, kernels::int16_infinity);
  APSP_CUDA_CHECK_LAUNCH("fill_padding_kernel (packed16)", s);
}

} // namespace apsp::cuda
