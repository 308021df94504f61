// PHAST's sweeps on the GPU against the cpu's hierarchy table (bench/gpu/run.sh phast): one
// graph's hierarchy prepared once (timed apart), then a table of --sources x --targets random
// vertices on the GPU (cuda/phast_table.hpp, twice: the first run starts the device) and by the
// cpu's bucket searches (cpu/ch_table.hpp) on --threads threads, compared cell by cell; and
// --rows full rows on the GPU. One CSV row per timing (bench/cuda/csv_rows.hpp), `mode` naming
// it; cells per second in updates_per_s.
//   apsp_bench_phast GRAPH [--sources 10000] [--targets 10000] [--rows 1000] [--threads N]
//                    [--lanes 256] [--seed 1] [--csv FILE --commit C --command CMD]

#include <omp.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "apsp/apsp.hpp"
#include "apsp/io.hpp"
#include "core/tuning.hpp"
#include "csv_rows.hpp"
#include "cpu/ch_table.hpp"
#include "cpu/prepared_hierarchy.hpp"
#include "cuda/phast_table.hpp"

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<std::int64_t> random_vertices(std::int64_t n, std::int64_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> out(static_cast<std::size_t>(count));
  for (auto& v : out)
    v = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
  return out;
}

std::string gpu_name() {
  for (const auto& s : apsp::list_backends())
    if (s.kind == apsp::backend_kind::cuda)
      return s.available ? s.detail : std::string();
  return {};
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s GRAPH [--sources S] [--targets T] [--rows R] [--threads N] "
                         "[--lanes L] [--seed X] [--csv FILE --commit C --command CMD]\n",
                 argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  std::int64_t sources = 10000, targets = 10000, rows = 1000;
  int threads = omp_get_max_threads(), lanes = 256;
  std::uint64_t seed = 1;
  std::string csv, commit = "unknown", command;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const char* v = argv[i + 1];
    if (k == "--sources")
      sources = std::atoll(v);
    else if (k == "--targets")
      targets = std::atoll(v);
    else if (k == "--rows")
      rows = std::atoll(v);
    else if (k == "--threads")
      threads = std::atoi(v);
    else if (k == "--lanes")
      lanes = std::atoi(v);
    else if (k == "--seed")
      seed = std::strtoull(v, nullptr, 10);
    else if (k == "--csv")
      csv = v;
    else if (k == "--commit")
      commit = v;
    else if (k == "--command")
      command = v;
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  const std::string device = gpu_name();
  if (device.empty()) {
    std::fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  const apsp::graph g = apsp::io::read_graph(path).g;
  const std::int64_t n = g.num_vertices();
  auto t0 = std::chrono::steady_clock::now();
  const auto prep = apsp::cpu::prepare_hierarchy<std::int32_t>(g, threads);
  const double t_prepare = since(t0);
  if (!prep.ch.complete) {
    std::fprintf(stderr, "the hierarchy outgrew its budget\n");
    return 1;
  }
  std::printf("phast bench: n = %lld, %lld arcs, hierarchy in %.3f s (%d threads), %lld down arcs\n",
              static_cast<long long>(n), static_cast<long long>(g.num_edges()), t_prepare, threads,
              static_cast<long long>(prep.ch.down_arcs.size()));
  std::vector<apsp::bench::csv_row> out;
  const auto add = [&](const std::string& mode, double seconds, double cells) {
    out.push_back({device, n, mode, seconds, seconds > 0 ? cells / seconds : 0, 100});
    std::printf("phast bench: %-34s %9.3f s  %.3e cells/s\n", mode.c_str(), seconds,
                seconds > 0 ? cells / seconds : 0);
  };
  add("hierarchy_cpu_" + std::to_string(threads) + "t", t_prepare, 0);

  const auto s = random_vertices(n, sources, seed);
  const auto t = random_vertices(n, targets, seed + 1);
  const auto cells = static_cast<double>(sources) * static_cast<double>(targets);
  const std::string shape = std::to_string(sources) + "x" + std::to_string(targets);
  apsp::cuda::gpu_sweep_config cfg;
  cfg.lanes = lanes;
  cfg.threads = threads;
  cfg.launch_graph = apsp::detail::current_tuning().cuda_phast_graph; // APSP_CUDA_PHAST_GRAPH
  std::vector<std::int32_t> gpu(static_cast<std::size_t>(sources * targets));
  for (int run = 0; run < 2; ++run) {
    t0 = std::chrono::steady_clock::now();
    apsp::cuda::phast_table_on_gpu(prep.ch, prep.h, s.data(), sources, t.data(), targets, cfg,
                                   gpu.data());
    add(std::string(run == 0 ? "gpu_table_first_" : "gpu_table_") + shape, since(t0), cells);
  }
  std::vector<std::int32_t> cpu(gpu.size(), -1);
  const std::vector<std::int32_t> s32(s.begin(), s.end()), t32(t.begin(), t.end());
  t0 = std::chrono::steady_clock::now();
  apsp::cpu::ch_table<std::int32_t>(prep.ch, prep.h, s32, t32, threads, cpu.data());
  add("cpu_bucket_table_" + shape + "_" + std::to_string(threads) + "t", since(t0), cells);
  std::int64_t differ = 0;
  for (std::size_t i = 0; i < gpu.size(); ++i)
    differ += gpu[i] != cpu[i];
  std::printf("phast bench: table cells differing between GPU and cpu: %lld\n",
              static_cast<long long>(differ));
  out.push_back({device, n, "gpu_table_cells_differing", static_cast<double>(differ), 0, 100});

  if (rows > 0) {
    const auto r = random_vertices(n, rows, seed + 2);
    std::vector<std::int32_t> full(static_cast<std::size_t>(rows) * static_cast<std::size_t>(n));
    t0 = std::chrono::steady_clock::now();
    apsp::cuda::phast_table_on_gpu(prep.ch, prep.h, r.data(), rows, nullptr, n, cfg, full.data());
    add("gpu_rows_" + std::to_string(rows), since(t0),
        static_cast<double>(rows) * static_cast<double>(n));
  }
  if (!csv.empty())
    apsp::bench::append_csv(csv, commit, command, out);
  return differ == 0 ? 0 : 1;
}
