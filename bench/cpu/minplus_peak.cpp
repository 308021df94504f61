// Min-plus peak of this CPU: the best register-blocked int32 min-plus loop (d = min(d, a + b))
// with operands in L1, on all threads at once, for each SIMD ISA the CPU has. The cpu back end's
// solve speed is reported as a fraction of this number (docs/benchmarks.md).
//
// Usage: cpu_minplus_peak [seconds per shape (default 1)] [threads (default all)]

#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cpu/cpu_isa.hpp"
#include "peak_kernels.hpp"

namespace apsp::bench {
double avx2_peak_rate(int shape, double seconds, const char** name);
double avx512_peak_rate(int shape, double seconds, const char** name);
} // namespace apsp::bench

int main(int argc, char** argv) {
  namespace cpu = apsp::detail::cpu;
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  const int threads = argc > 2 ? std::atoi(argv[2]) : omp_get_max_threads();
  std::printf("threads %d, %.1f s per shape, int32 updates/s (one update = one add + one min)\n",
              threads, seconds);
  double best_overall = 0;
  for (auto isa : {cpu::isa::avx2, cpu::isa::avx512}) {
    if (!cpu::isa_supported(isa)) {
      std::printf("%-7s not supported here\n", std::string(cpu::to_string(isa)).c_str());
      continue;
    }
    double best = 0;
    for (int shape = 0; shape < apsp::bench::peak_shapes; ++shape) {
      const char* name = "";
      double total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
      {
        const char* local = "";
        total += isa == cpu::isa::avx512 ? apsp::bench::avx512_peak_rate(shape, seconds, &local)
                                         : apsp::bench::avx2_peak_rate(shape, seconds, &local);
#pragma omp master
        name = local;
      }
      std::printf("%-7s %-20s %8.2f e9\n", std::string(cpu::to_string(isa)).c_str(), name,
                  total / 1e9);
      if (total > best)
        best = total;
    }
    std::printf("%-7s best                 %8.2f e9\n", std::string(cpu::to_string(isa)).c_str(),
                best / 1e9);
    if (best > best_overall)
      best_overall = best;
  }
  std::printf("peak_updates_per_s %.4e\n", best_overall);
  return 0;
}
