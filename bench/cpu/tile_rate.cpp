// The phase-3 tile product's own rate on T threads at once, each thread on operands of its own:
// the library's tile_ops::product (selected ISA, int32, no paths) on packed a and b tiles and on
// c tiles inside a row-major matrix of row stride `n`, as the blocked solver calls it. Beside the
// min-plus peak (cpu_minplus_peak, operands in L1) it shows what a tile's memory traffic costs by
// itself, and per thread how evenly the machine's cores run: on a shared host some cores run at
// half speed for seconds at a time (docs/benchmarks.md, "Each core's own speed").
//
// Usage: cpu_tile_rate [threads (all)] [seconds (0.5)] [block (96)] [n (1000)] [c tiles (6)]
//                      [fresh (0)]
// fresh = 1: before every pass over its c tiles, each thread rewrites the next thread's a and b
// (two sets, alternating), so that every pass reads operands another core has just written, as
// in the solver. Prints one summary line and one line of per-thread figures, each "cpu:mean/
// median/max us per tile/share of tiles over 1.5x the median".

#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cpu/blocked_fw.hpp"
#include "cpu/cpu_isa.hpp"
#include "cpu/tile_ops.hpp"

namespace {

struct thread_result {
  double mean = 0; // seconds per tile
  double median = 0;
  double most = 0;
  double over = 0; // share of tiles over 1.5x the median
  int cpu = -1;
};

} // namespace

int main(int argc, char** argv) {
  namespace cpu = apsp::detail::cpu;
  using clock = std::chrono::steady_clock;
  const int threads = argc > 1 ? std::atoi(argv[1]) : omp_get_max_threads();
  const double seconds = argc > 2 ? std::atof(argv[2]) : 0.5;
  const int b = argc > 3 ? std::atoi(argv[3]) : 96;
  const std::int64_t n = argc > 4 ? std::atoll(argv[4]) : 1000;
  const int tiles = argc > 5 ? std::atoi(argv[5]) : 6;
  const bool fresh = argc > 6 && std::atoi(argv[6]) == 1;
  if (threads < 1 || b < 1 || tiles < 1 || n < static_cast<std::int64_t>(tiles) * b) {
    std::fprintf(stderr, "usage: cpu_tile_rate [threads] [seconds] [block] [n >= tiles * block] "
                         "[c tiles] [fresh 0|1]\n");
    return 2;
  }
  const cpu::isa isa = cpu::selected_isa();
  const auto ops = cpu::select_tile_ops<std::int32_t>(isa, false, false);
  const std::int64_t ld = cpu::packed_stride(b, sizeof(std::int32_t));
  const std::int64_t operand = b * ld + cpu::packed_align; // one packed tile, in elements
  std::vector<std::int32_t*> as(threads);
  std::vector<std::int32_t*> bs(threads);
  std::vector<double> stop_votes(threads);
  std::vector<thread_result> results(threads);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    // Two sets of a and b (fresh mode alternates them) and the c rows, first touched here.
    std::vector<std::int32_t> a(static_cast<std::size_t>(2 * operand));
    std::vector<std::int32_t> bb(static_cast<std::size_t>(2 * operand));
    std::vector<std::int32_t> c(static_cast<std::size_t>(b * n), 1 << 29);
    for (std::int64_t i = 0; i < 2 * operand; ++i) {
      a[i] = static_cast<std::int32_t>((i * 7919 + t) % 1000);
      bb[i] = static_cast<std::int32_t>((i * 104729 + t) % 1000);
    }
    as[t] = a.data();
    bs[t] = bb.data();
    std::vector<double> samples;
    samples.reserve(1 << 16);
    const int next = (t + 1) % threads;
#pragma omp barrier
    const auto t0 = clock::now();
    for (std::int64_t pass = 0;; ++pass) {
      const std::int64_t set = fresh ? (pass & 1) * operand : 0;
      if (fresh) {
        std::int32_t* wa = as[next] + set;
        std::int32_t* wb = bs[next] + set;
        for (std::int64_t i = 0; i < b * ld; ++i) {
          wa[i] = static_cast<std::int32_t>((i + pass) % 1000);
          wb[i] = static_cast<std::int32_t>((i * 3 + pass) % 1000);
        }
#pragma omp barrier
      }
      for (int x = 0; x < tiles; ++x) {
        const auto p0 = clock::now();
        ops.product(as[t] + set, bs[t] + set, ld, b, c.data() + x * b, nullptr, n, b, b, 0, nullptr,
                    nullptr);
        samples.push_back(std::chrono::duration<double>(clock::now() - p0).count());
      }
      double elapsed = std::chrono::duration<double>(clock::now() - t0).count();
      if (fresh) { // every thread stops after the same pass: the barrier above needs all
        stop_votes[t] = elapsed;
#pragma omp barrier
        elapsed = *std::min_element(stop_votes.begin(), stop_votes.end());
#pragma omp barrier
      }
      if (elapsed >= seconds)
        break;
    }
    thread_result& r = results[t];
    for (double s : samples)
      r.mean += s;
    r.mean /= static_cast<double>(samples.size());
    std::sort(samples.begin(), samples.end());
    r.median = samples[samples.size() / 2];
    r.most = samples.back();
    r.over = static_cast<double>(std::count_if(samples.begin(), samples.end(),
                                               [&](double s) { return s > 1.5 * r.median; })) /
             static_cast<double>(samples.size());
    r.cpu = sched_getcpu();
  }
  double rate = 0;
  double fastest = results[0].mean;
  double slowest = results[0].mean;
  std::vector<double> means;
  for (const thread_result& r : results) {
    rate += static_cast<double>(b) * b * b / r.mean;
    fastest = std::min(fastest, r.mean);
    slowest = std::max(slowest, r.mean);
    means.push_back(r.mean);
  }
  std::sort(means.begin(), means.end());
  const auto half_speed =
      std::count_if(means.begin(), means.end(), [&](double m) { return m > 1.6 * fastest; });
  std::printf("tile_rate threads=%d block=%d n=%lld tiles=%d fresh=%d isa=%s median_us=%.2f "
              "fastest_us=%.2f slowest_us=%.2f half_speed_threads=%lld updates_per_s=%.4e\n",
              threads, b, static_cast<long long>(n), tiles, fresh ? 1 : 0,
              std::string(cpu::to_string(isa)).c_str(), 1e6 * means[means.size() / 2],
              1e6 * fastest, 1e6 * slowest, static_cast<long long>(half_speed), rate);
  std::printf("  per thread (cpu:mean/median/max us per tile/over 1.5x median):");
  for (const thread_result& r : results)
    std::printf(" %d:%.1f/%.1f/%.0f/%.0f%%", r.cpu, 1e6 * r.mean, 1e6 * r.median, 1e6 * r.most,
                100 * r.over);
  std::printf("\n");
  return 0;
}
