// Times the apsp cuda back end on random graphs (10 % density, weights 1..1000): kernel time
// with CUDA events on a resident matrix, and the whole library solve; plus the min-plus peak
// microbenchmark and the two baselines. Prints a table and appends rows to a CSV.
//
// Mode packed16 times the packed 16-bit kernels on a hop-count graph (10 % density, weights 1).
//
//   apsp_bench_cuda [--peak] [--sizes 10000,20000,40000]
//                   [--modes int32,int32_paths,int32_negative,int32_paths_negative,float32,
//                            float32_paths,float32_paths_fractional,packed16]
//                   [--solve] [--naive N] [--blocked32 N,...] [--csv FILE] [--commit C]
//                   [--command TEXT]

#include <omp.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "apsp/apsp.hpp"
#include "bench_kernels.hpp"
#include "csv_rows.hpp"
#include "cuda/deferred_pivots.hpp"
#include "cuda/device_rounds.hpp"
#include "cuda/fw_driver.hpp"
#include "cuda/fw_packed16.hpp"
#include "cuda/packed16_solve.hpp"
#include "cuda/resources.hpp"
#include "cuda/tagged_panels.hpp"
#include "cuda/transfer.hpp"

namespace {

using apsp::bench::peak_op;

struct args {
  bool peak = false;
  bool solve = false;
  std::vector<std::int64_t> sizes;
  std::vector<std::string> modes{"int32", "int32_paths", "float32"};
  std::int64_t naive = 0;
  std::vector<std::int64_t> blocked32;
  std::string csv;
  std::string commit = "unknown";
  std::string command;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    out.push_back(item);
  return out;
}

args parse(int argc, char** argv) {
  args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (k == "--peak")
      a.peak = true;
    else if (k == "--solve")
      a.solve = true;
    else if (k == "--sizes")
      for (auto& x : split(next()))
        a.sizes.push_back(std::stoll(x));
    else if (k == "--modes")
      a.modes = split(next());
    else if (k == "--naive")
      a.naive = std::stoll(next());
    else if (k == "--blocked32")
      for (auto& x : split(next()))
        a.blocked32.push_back(std::stoll(x));
    else if (k == "--csv")
      a.csv = next();
    else if (k == "--commit")
      a.commit = next();
    else if (k == "--command")
      a.command = next();
    else {
      std::fprintf(stderr, "unknown argument %s\n", k.c_str());
      std::exit(1);
    }
  }
  return a;
}

std::uint64_t mix(std::uint64_t x) { // splitmix64: a reproducible value per matrix cell
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Random graph as a dense matrix: edge with probability 10 %, weight 1..1000, else infinity.
template <class T> apsp::dense_matrix<T> random_matrix(std::int64_t n, std::uint64_t seed) {
  apsp::dense_matrix<T> m(n);
  const T inf = apsp::weight_traits<T>::infinity;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      const std::uint64_t h = mix(seed ^ static_cast<std::uint64_t>(i * n + j));
      T v = inf;
      if (h % 10 == 0)
        v = static_cast<T>(1 + (h >> 32) % 1000);
      m(i, j) = i == j ? T(0) : v;
    }
  }
  return m;
}

/// The random graph with negative weights and no negative cycle: w(i, j) + p(i) - p(j), vertex
/// potentials p in 0..1000 (weights -999..2000).
apsp::dense_matrix<std::int32_t> negative_matrix(std::int64_t n, std::uint64_t seed) {
  auto m = random_matrix<std::int32_t>(n, seed);
  const std::int32_t inf = apsp::weight_traits<std::int32_t>::infinity;
  const auto p = [&](std::int64_t v) {
    return static_cast<std::int32_t>(mix(~seed ^ static_cast<std::uint64_t>(v)) % 1001);
  };
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      if (i != j && m(i, j) < inf)
        m(i, j) += p(i) - p(j);
    }
  }
  return m;
}

/// Hop-count graph as a dense matrix: edge with probability 10 %, weight 1, else infinity.
apsp::dense_matrix<std::int32_t> hop_matrix(std::int64_t n, std::uint64_t seed) {
  auto m = random_matrix<std::int32_t>(n, seed);
  const std::int32_t inf = apsp::weight_traits<std::int32_t>::infinity;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      if (i != j && m(i, j) < inf)
        m(i, j) = 1;
    }
  }
  return m;
}

struct row {
  std::int64_t n;
  std::string mode;
  double seconds;
  double peak; // updates/s the percentage refers to (0: none)
};

/// Kernel seconds of one solve of m (resident on the device, events around the rounds); `clamp`
/// as for negative weights, `fractional` as for weights with fractions (run_context).
template <class T>
double kernel_seconds(const apsp::dense_matrix<T>& m, bool paths, bool clamp = false,
                      bool fractional = false) {
  namespace ac = apsp::cuda;
  const std::int64_t n = m.n();
  const std::int64_t ld =
      (n + ac::kernels::fw_tile - 1) / ac::kernels::fw_tile * ac::kernels::fw_tile;
  const auto cells = static_cast<std::size_t>(ld) * static_cast<std::size_t>(ld);
  ac::stream s;
  ac::device_buffer<T> d(cells);
  ac::device_buffer<std::int32_t> via(paths ? cells : 0);
  ac::upload_rows(m.data(), d.data(), sizeof(T), n, ld, s.get());
  ac::enqueue_fill_padding(d.data(), n, ld, s.get());
  if (paths)
    APSP_CUDA_TRY(cudaMemsetAsync(via.data(), 0xff, cells * 4, s.get()));
  ac::device_problem<T> p;
  p.d = d.data();
  p.via = via.data();
  p.ld = ld;
  p.n = ac::trimmed_vertices(n, ld);
  p.clamp = clamp;
  p.three_way = ac::three_way_minima<T>(clamp);         // as the back end does (float32)
  const ac::tagged_panels tags(p, s.get(), fractional); // as the back end does
  const ac::deferred_pivots deferred(p, UINT64_MAX);    // likewise, where they fit
  ac::configure_kernels(p);
  const auto kernels = ac::make_round_kernels(p); // as the back end runs the rounds
  const apsp::solve_options o;
  apsp::detail::run_context ctx(o, n, false);
  ac::event e0;
  ac::event e1;
  e0.record(s.get());
  ac::run_device_rounds(*kernels, s.get(), ctx, {}, [] {});
  e1.record(s.get());
  e1.synchronize();
  return e1.ms_since(e0) * 1e-3;
}

/// Kernel seconds of one packed 16-bit solve of m (a hop-count matrix, resident on the device).
double packed16_kernel_seconds(const apsp::dense_matrix<std::int32_t>& m) {
  namespace ac = apsp::cuda;
  const std::int64_t n = m.n();
  const std::int64_t ld =
      (n + ac::kernels::fw_tile - 1) / ac::kernels::fw_tile * ac::kernels::fw_tile;
  ac::stream s;
  ac::device_buffer<std::int16_t> d(static_cast<std::size_t>(ld) * static_cast<std::size_t>(ld));
  ac::device_buffer<std::uint32_t> panel(ac::packed16_panel_words(ld));
  ac::upload_packed16(m.data(), d.data(), n, ld, s.get());
  ac::enqueue_packed16_fill_padding(d.data(), n, ld, s.get());
  ac::packed16_problem p;
  p.d = d.data();
  p.panel = panel.data();
  p.ld = ld;
  ac::configure_packed16_kernels();
  const auto kernels = ac::make_packed16_round_kernels(p);
  const apsp::solve_options o;
  apsp::detail::run_context ctx(o, n, false);
  ac::event e0;
  ac::event e1;
  e0.record(s.get());
  ac::run_device_rounds(*kernels, s.get(), ctx, {}, [] {});
  e1.record(s.get());
  e1.synchronize();
  return e1.ms_since(e0) * 1e-3;
}

/// The whole library solve from an edge list (graph -> matrix -> device -> back), in seconds.
template <class T>
double solve_seconds(const apsp::dense_matrix<T>& m, bool paths,
                     apsp::narrow_mode narrow = apsp::narrow_mode::off) {
  const std::int64_t n = m.n();
  std::vector<std::int32_t> src, dst;
  std::vector<double> w;
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      if (i != j && m(i, j) < apsp::weight_traits<T>::infinity) {
        src.push_back(static_cast<std::int32_t>(i));
        dst.push_back(static_cast<std::int32_t>(j));
        w.push_back(static_cast<double>(m(i, j)));
      }
    }
  }
  apsp::graph g(n);
  g.assign(std::move(src), std::move(dst), std::move(w));
  apsp::solve_options o;
  o.backend = apsp::backend_kind::cuda;
  o.type = apsp::weight_traits<T>::type;
  o.paths = paths;
  o.narrow = narrow;
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = apsp::solve(g, o);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("    solve n=%lld %s%s: total %.3f s (setup %.3f, solve %.3f, finish %.3f)\n",
              static_cast<long long>(n), paths ? "paths" : "dist",
              r.executed_plan().narrow ? " packed16" : "", s, r.timings().setup_seconds,
              r.timings().solve_seconds, r.timings().finish_seconds);
  return s;
}

} // namespace

int main(int argc, char** argv) {
  const args a = parse(argc, argv);
  cudaDeviceProp prop{};
  APSP_CUDA_TRY(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  std::vector<row> rows;

  // Published H100 figures, replaced by measurements with --peak.
  double peak_i32 = 14.4e12;
  double peak_f32 = 12.6e12;
  double peak_s16 = 33e12; // measured __viaddmin_s16x2 peak on the H100 (bench/cuda/NOTES.md)
  if (a.peak) {
    apsp::cuda::stream s;
    peak_i32 = apsp::bench::measure_minplus_peak(peak_op::int32_dpx, 5, s.get());
    peak_f32 = apsp::bench::measure_minplus_peak(peak_op::float32, 5, s.get());
    peak_s16 = apsp::bench::measure_minplus_peak(peak_op::int16x2_dpx, 5, s.get());
    const double peak_f32_3 =
        apsp::bench::measure_minplus_peak(peak_op::float32_three_way, 5, s.get());
    std::printf("min-plus peak: int32 %.2fe12/s, float32 %.2fe12/s (three-way minima "
                "%.2fe12/s), int16x2 %.2fe12/s\n",
                peak_i32 / 1e12, peak_f32 / 1e12, peak_f32_3 / 1e12, peak_s16 / 1e12);
    rows.push_back({0, "peak_int32", 1.0 / peak_i32, 0});
    rows.push_back({0, "peak_float32", 1.0 / peak_f32, 0});
    rows.push_back({0, "peak_float32_three_way", 1.0 / peak_f32_3, 0});
    rows.push_back({0, "peak_int16x2", 1.0 / peak_s16, 0});
    // The float32 rows (no negative weights) run the three-way minima unless turned off.
    if (apsp::cuda::three_way_minima<float>(false))
      peak_f32 = peak_f32_3;
  }

  for (std::int64_t n : a.sizes) {
    const auto mi = random_matrix<std::int32_t>(n, 12345);
    for (const auto& mode : a.modes) {
      double t = 0;
      double pk = peak_i32;
      if (mode == "int32")
        t = kernel_seconds(mi, false);
      else if (mode == "int32_paths")
        t = kernel_seconds(mi, true);
      else if (mode == "int32_negative")
        t = kernel_seconds(negative_matrix(n, 12345), false, true);
      else if (mode == "int32_paths_negative")
        t = kernel_seconds(negative_matrix(n, 12345), true, true);
      else if (mode == "float32") {
        const auto mf = random_matrix<float>(n, 12345);
        t = kernel_seconds(mf, false);
        pk = peak_f32;
      } else if (mode == "float32_paths") {
        const auto mf = random_matrix<float>(n, 12345);
        t = kernel_seconds(mf, true);
        pk = peak_f32;
      } else if (mode == "float32_paths_fractional") {
        // Weights / 7: fractions, so no slice can be tagged and every round rescans (the back
        // end then makes no tagged slices; APSP_CUDA_TRY_TAGS=1 tries them anyway, as before).
        auto mf = random_matrix<float>(n, 12345);
        for (std::size_t e = 0; e < mf.size(); ++e)
          mf.data()[e] /= 7.0f;
        const char* try_tags = std::getenv("APSP_CUDA_TRY_TAGS");
        t = kernel_seconds(mf, true, false, !(try_tags != nullptr && try_tags[0] == '1'));
        pk = peak_f32;
      } else if (mode == "packed16") {
        t = packed16_kernel_seconds(hop_matrix(n, 12345));
        pk = peak_s16;
      } else {
        std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
        return 1;
      }
      rows.push_back({n, mode, t, pk});
      const double ups = static_cast<double>(n) * n * n / t;
      std::printf("  n=%lld %-14s kernels %.3f s  %.2fe12 updates/s  %.1f %% of peak\n",
                  static_cast<long long>(n), mode.c_str(), t, ups / 1e12, 100 * ups / pk);
      std::fflush(stdout);
      if (a.solve) {
        double ts = 0;
        if (mode == "int32")
          ts = solve_seconds(mi, false);
        else if (mode == "int32_paths")
          ts = solve_seconds(mi, true);
        else if (mode == "float32")
          ts = solve_seconds(random_matrix<float>(n, 12345), false);
        else if (mode == "packed16")
          ts = solve_seconds(hop_matrix(n, 12345), false, apsp::narrow_mode::required);
        rows.push_back({n, mode + "_solve", ts, pk});
      }
    }
  }

  auto baseline = [&](std::int64_t n, bool naive) {
    const auto m = random_matrix<std::int32_t>(n, 777);
    const std::int64_t ld = naive ? n : (n + 31) / 32 * 32;
    apsp::cuda::stream s;
    apsp::cuda::device_buffer<std::int32_t> d(static_cast<std::size_t>(ld * ld));
    apsp::cuda::upload_rows(m.data(), d.data(), 4, n, ld, s.get());
    apsp::cuda::enqueue_fill_padding(d.data(), n, ld, s.get());
    const double t = 1e-3 * (naive ? apsp::bench::naive_fw_ms(d.data(), n, s.get())
                                   : apsp::bench::blocked32_fw_ms(d.data(), ld, s.get()));
    rows.push_back({n, naive ? "baseline_naive_int32" : "baseline_blocked32_int32", t, peak_i32});
    const double ups = static_cast<double>(n) * n * n / t;
    std::printf("  n=%lld %s: %.3f s  %.3fe12 updates/s\n", static_cast<long long>(n),
                naive ? "naive per-k" : "blocked 32x32", t, ups / 1e12);
    std::fflush(stdout);
  };
  if (a.naive > 0)
    baseline(a.naive, true);
  for (std::int64_t n : a.blocked32)
    baseline(n, false);

  if (!a.csv.empty()) {
    std::vector<apsp::bench::csv_row> out;
    for (const auto& r : rows) {
      const double ups =
          r.n == 0 ? 1.0 / r.seconds : static_cast<double>(r.n) * r.n * r.n / r.seconds;
      out.push_back({prop.name, r.n, r.mode, r.n == 0 ? 0.0 : r.seconds, ups,
                     r.peak > 0 ? 100 * ups / r.peak : 100.0});
    }
    apsp::bench::append_csv(a.csv, a.commit, a.command, out);
  }
  return 0;
}
