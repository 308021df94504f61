#pragma once
// The min-plus peak microbenchmark's inner loop: the library's own register-blocked kernel
// (src/cpu/tile_kernels.hpp), run over and over on operands that stay in L1.

#include <chrono>
#include <cstdint>

#include "cpu/tile_kernels.hpp"

namespace apsp::bench {

/// Shapes tried, in rows x vectors; the first is the one the library uses without paths.
inline constexpr int peak_shapes = 5;

/// Out of line with a run-time kb, as in the library's product_tile, so register allocation sees
/// the same loop the solver runs.
template <class S, int MR, int NR>
__attribute__((noinline)) void kernel_call(const std::int32_t* a, const std::int32_t* b,
                                           std::ptrdiff_t ld, int kb, std::int32_t* c) {
  detail::cpu::micro_kernel<S, false, false, MR, NR>(a, b, ld, kb, c, nullptr, NR * S::lanes, 0);
}

/// int32 min-plus updates per second of one thread running micro-tile shape `MR` x `NR` for
/// about `seconds`.
template <class S, int MR, int NR> double single_thread_rate(double seconds) {
  constexpr int L = S::lanes;
  constexpr int W = NR * L;
  constexpr int max_kb = 48; // a and b: kb x W int32 each, 24 KiB in all at W = 64
  constexpr std::ptrdiff_t ld = W < MR ? MR : W;
  // On this thread's stack: addresses relative to rsp leave every register to the kernel.
  alignas(64) std::int32_t a[max_kb * ld];
  alignas(64) std::int32_t b[max_kb * ld];
  alignas(64) std::int32_t c[MR * W];
  for (int i = 0; i < max_kb * ld; ++i) {
    a[i] = (i * 7919) % 1000;
    b[i] = (i * 104729) % 1000;
  }
  for (int i = 0; i < MR * W; ++i)
    c[i] = 1 << 29;
  using clock = std::chrono::steady_clock;
  volatile int runtime_kb = max_kb;
  const int kb = runtime_kb;
  const auto t0 = clock::now();
  std::int64_t calls = 0;
  double elapsed = 0;
  do {
    for (int rep = 0; rep < 1000; ++rep) {
      kernel_call<S, MR, NR>(a, b, ld, kb, c);
    }
    calls += 1000;
    elapsed = std::chrono::duration<double>(clock::now() - t0).count();
  } while (elapsed < seconds);
  return static_cast<double>(calls) * MR * W * kb / elapsed;
}

} // namespace apsp::bench
