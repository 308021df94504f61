// The supernodal solver's update rate against the blocked Floyd-Warshall's, in one run on the
// same threads (issue 42's measure): a 3D grid with arcs both ways (weights 1-100, each
// direction its own), whose supernodal steps are timed alone (cpu::supernodal_steps on the
// matrix already in elimination labels, no paths), and a random graph of fw_n vertices solved
// by the cpu blocked int32 Floyd-Warshall (apsp::solve, fw_n^3 updates). Alternates the two
// `repeats` times, since a shared machine's speed drifts, and prints one line per repeat and the
// medians.
//
// Usage: cpu_supernodal_rate [x y z (20 20 20) | --graph FILE] [threads (2)] [repeats (3)]
//        [fw_n (3500)]   (FILE: any format apsp reads, e.g. ../shared/data/DE.gr)

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "apsp/apsp.hpp"
#include "apsp/io.hpp"
#include "core/backend.hpp"
#include "cpu/elimination.hpp"
#include "cpu/supernodal_fw.hpp"

namespace {

struct arcs {
  std::int64_t n = 0;
  std::vector<std::int32_t> heads, tails, weights;
};

arcs grid3d(std::int64_t x, std::int64_t y, std::int64_t z, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  arcs a;
  a.n = x * y * z;
  const auto add = [&](std::int64_t u, std::int64_t v) {
    for (const auto& [p, q] : {std::pair{u, v}, std::pair{v, u}}) {
      a.heads.push_back(static_cast<std::int32_t>(p));
      a.tails.push_back(static_cast<std::int32_t>(q));
      a.weights.push_back(1 + static_cast<std::int32_t>(rng() % 100));
    }
  };
  for (std::int64_t k = 0; k < z; ++k) {
    for (std::int64_t j = 0; j < y; ++j) {
      for (std::int64_t i = 0; i < x; ++i) {
        const std::int64_t v = (k * y + j) * x + i;
        if (i + 1 < x)
          add(v, v + 1);
        if (j + 1 < y)
          add(v, v + x);
        if (k + 1 < z)
          add(v, v + x * y);
      }
    }
  }
  return a;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

arcs from_file(const char* path) {
  const apsp::graph g = apsp::io::read_graph(path).g;
  arcs a;
  a.n = g.num_vertices();
  a.heads = g.sources();
  a.tails = g.targets();
  for (const double w : g.weights())
    a.weights.push_back(static_cast<std::int32_t>(w));
  return a;
}

int main(int argc, char** argv) try {
  const bool file = argc > 2 && std::string(argv[1]) == "--graph";
  const bool lattice = !file && argc > 3;
  const std::int64_t gx = lattice ? std::atoll(argv[1]) : 20;
  const std::int64_t gy = lattice ? std::atoll(argv[2]) : 20;
  const std::int64_t gz = lattice ? std::atoll(argv[3]) : 20;
  const int rest = file ? 3 : lattice ? 4 : 1;
  const int threads = argc > rest ? std::atoi(argv[rest]) : 2;
  const int repeats = argc > rest + 1 ? std::atoi(argv[rest + 1]) : 3;
  const std::int64_t fw_n = argc > rest + 2 ? std::atoll(argv[rest + 2]) : 3500;

  const arcs g = file ? from_file(argv[2]) : grid3d(gx, gy, gz, 42);
  const auto plan = apsp::cpu::plan_elimination(g.n, g.heads, g.tails, g.n * g.n);
  apsp::solve_options sn_options;
  sn_options.threads = threads;
  apsp::detail::run_context ctx(sn_options, g.n, false);

  apsp::graph fw_graph(fw_n);
  {
    std::mt19937_64 rng(7);
    for (std::int64_t e = 0; e < 8 * fw_n; ++e)
      fw_graph.add_edge(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(fw_n)),
                        static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(fw_n)),
                        1 + static_cast<double>(rng() % 100));
  }
  apsp::solve_options fw_options;
  fw_options.backend = apsp::backend_kind::cpu;
  fw_options.algorithm = apsp::algorithm_kind::floyd_warshall;
  fw_options.type = apsp::dtype::int32;
  fw_options.threads = threads;
  const double fw_updates =
      static_cast<double>(fw_n) * static_cast<double>(fw_n) * static_cast<double>(fw_n);

  const std::string shape = file ? std::string(argv[2])
                                 : "grid " + std::to_string(gx) + "x" + std::to_string(gy) + "x" +
                                       std::to_string(gz);
  std::printf("# %s n=%lld steps=%zu widest=%lld updates=%.4e order='%s' threads=%d fw_n=%lld\n",
              shape.c_str(), static_cast<long long>(g.n), plan.steps.size(), static_cast<long long>(plan.widest),
              plan.updates, plan.order_name.c_str(), threads, static_cast<long long>(fw_n));
  std::vector<double> sn_rates, fw_rates, ratios;
  std::int64_t checksum = 0;
  for (int r = 0; r < repeats; ++r) {
    apsp::dense_matrix<std::int32_t> d(g.n);
    std::int32_t* m = d.data();
    std::fill(m, m + g.n * g.n, apsp::weight_traits<std::int32_t>::infinity);
    for (std::int64_t v = 0; v < g.n; ++v)
      m[v * g.n + v] = 0;
    for (std::size_t e = 0; e < g.heads.size(); ++e) {
      const std::int64_t u = plan.label[static_cast<std::size_t>(g.heads[e])];
      const std::int64_t v = plan.label[static_cast<std::size_t>(g.tails[e])];
      m[u * g.n + v] = std::min(m[u * g.n + v], g.weights[e]);
    }
    const auto t0 = std::chrono::steady_clock::now();
    apsp::cpu::supernodal_steps(d, nullptr, plan, threads, 1, ctx);
    const double sn_seconds = seconds_since(t0);
    checksum = 0;
    for (std::int64_t c = 0; c < g.n * g.n; ++c)
      checksum += m[c];

    const auto t1 = std::chrono::steady_clock::now();
    const auto fw = apsp::solve(fw_graph, fw_options);
    const double fw_seconds = seconds_since(t1);
    const double sn_rate = plan.updates / sn_seconds;
    const double fw_rate = fw_updates / fw_seconds;
    sn_rates.push_back(sn_rate);
    fw_rates.push_back(fw_rate);
    ratios.push_back(sn_rate / fw_rate);
    std::printf("repeat=%d supernodal_s=%.3f supernodal_rate=%.3e fw_s=%.3f fw_rate=%.3e "
                "ratio=%.3f checksum=%lld\n",
                r, sn_seconds, sn_rate, fw_seconds, fw_rate, sn_rate / fw_rate,
                static_cast<long long>(checksum));
    std::fflush(stdout);
    (void)fw;
  }
  std::printf("median supernodal_rate=%.3e fw_rate=%.3e ratio=%.3f\n", median(sn_rates),
              median(fw_rates), median(ratios));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "cpu_supernodal_rate: %s\n", e.what());
  return 1;
}
