// Times the cuda back end's out-of-core and multi-GPU modes through the public API (whole
// library solves of a dense random matrix) against the in-core single-GPU solve, and appends
// CSV rows like apsp_bench_cuda's. pct_peak holds the comparison: for "ooc_*" rows the percent
// of the in-core rate, for "multi*" rows the percent of the one-device rate (200 = linear).
//
//   apsp_bench_blocked [--ooc 40000:2G,...] [--big-ooc N] [--multi 40000,80000]
//                      [--multi-ooc 80000:8G,...] [--devices 0,1] [--csv FILE] [--commit C]
//                      [--command TEXT] [--paths] [--float32]
// --multi-ooc N:CAP runs out of core (CAP bytes of each device) on the first device alone, then
// on all of --devices. --float32 solves the same matrices as float32 (whole numbers, so the
// checksums of both types agree).

#include <omp.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "apsp/apsp.hpp"
#include "csv_rows.hpp"

namespace {

struct args {
  std::vector<std::pair<std::int64_t, std::uint64_t>> ooc;       // n, cap bytes
  std::vector<std::pair<std::int64_t, std::uint64_t>> multi_ooc; // n, cap bytes per device
  std::int64_t big_ooc = 0;
  std::vector<std::int64_t> multi;
  std::vector<int> devices{0, 1};
  std::string csv;
  std::string commit = "unknown";
  std::string command;
  bool paths = false;   // --paths: with the path matrix (mode names say int32_paths)
  bool float32 = false; // --float32: the matrices as float32 (mode names say float32)
};

std::vector<std::string> split(const std::string& s, char sep = ',') {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    out.push_back(item);
  return out;
}

std::uint64_t bytes_of(const std::string& s) {
  std::size_t pos = 0;
  const std::uint64_t v = std::stoull(s, &pos);
  const char u = pos < s.size() ? s[pos] : '\0';
  const int shift = u == 'K' ? 10 : u == 'M' ? 20 : u == 'G' ? 30 : u == 'T' ? 40 : 0;
  return v << shift;
}

args parse(int argc, char** argv) {
  args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (k == "--ooc") {
      for (const auto& item : split(next())) {
        const auto parts = split(item, ':');
        a.ooc.emplace_back(std::stoll(parts.at(0)), bytes_of(parts.at(1)));
      }
    } else if (k == "--multi-ooc") {
      for (const auto& item : split(next())) {
        const auto parts = split(item, ':');
        a.multi_ooc.emplace_back(std::stoll(parts.at(0)), bytes_of(parts.at(1)));
      }
    } else if (k == "--big-ooc") {
      a.big_ooc = std::stoll(next());
    } else if (k == "--multi") {
      for (const auto& x : split(next()))
        a.multi.push_back(std::stoll(x));
    } else if (k == "--devices") {
      a.devices.clear();
      for (const auto& x : split(next()))
        a.devices.push_back(std::stoi(x));
    } else if (k == "--paths") {
      a.paths = true;
    } else if (k == "--float32") {
      a.float32 = true;
    } else if (k == "--csv") {
      a.csv = next();
    } else if (k == "--commit") {
      a.commit = next();
    } else if (k == "--command") {
      a.command = next();
    } else {
      std::fprintf(stderr, "unknown argument %s\n", k.c_str());
      std::exit(1);
    }
  }
  return a;
}

std::uint64_t mix(std::uint64_t x) { // splitmix64, as in bench_cuda.cpp: same matrices
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Edge with probability 10 %, weight 1..1000, else infinity; zero diagonal.
apsp::dense_matrix<std::int32_t> random_matrix(std::int64_t n, std::uint64_t seed) {
  apsp::dense_matrix<std::int32_t> m(n);
  const std::int32_t inf = apsp::weight_traits<std::int32_t>::infinity;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      const std::uint64_t h = mix(seed ^ static_cast<std::uint64_t>(i * n + j));
      std::int32_t v = inf;
      if (h % 10 == 0)
        v = static_cast<std::int32_t>(1 + (h >> 32) % 1000);
      m(i, j) = i == j ? 0 : v;
    }
  }
  return m;
}

struct row {
  std::int64_t n;
  std::string mode;
  double seconds;
  double reference_rate; // updates/s that pct_peak compares with (0: none)
  std::string device;
};

struct timed {
  double seconds = 0; // the back end's solve phase (transfers included)
  double wall = 0;
  std::string device;
  std::uint64_t checksum = 0;
};

/// The same matrix as float32 (its values are whole numbers, exact in float32).
apsp::dense_matrix<float> as_float32(const apsp::dense_matrix<std::int32_t>& m) {
  apsp::dense_matrix<float> f(m.n());
  const std::int32_t inf = apsp::weight_traits<std::int32_t>::infinity;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < m.n(); ++i) {
    for (std::int64_t j = 0; j < m.n(); ++j)
      f(i, j) = m(i, j) == inf ? apsp::weight_traits<float>::infinity : static_cast<float>(m(i, j));
  }
  return f;
}

/// A checksum of the distances: infinity counts as int32's infinity, so float32 runs of whole
/// numbers sum like int32 ones.
template <class T> std::uint64_t checksum(const apsp::dense_matrix<T>& d) {
  const std::int64_t n = d.n();
  std::uint64_t sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      const auto v = d(i, j) == apsp::weight_traits<T>::infinity
                         ? apsp::weight_traits<std::int32_t>::infinity
                         : static_cast<std::int32_t>(d(i, j));
      sum += static_cast<std::uint64_t>(static_cast<std::uint32_t>(v)) * (1 + (i ^ j) % 7);
    }
  }
  return sum;
}

timed run(std::int64_t n, const apsp::solve_options& o, bool float32) {
  auto m = random_matrix(n, 12345);
  apsp::any_matrix in = float32 ? apsp::any_matrix(as_float32(m)) : apsp::any_matrix(std::move(m));
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = apsp::solve_dense(std::move(in), o);
  timed t;
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  t.seconds = r.timings().solve_seconds;
  t.device = r.executed_plan().device;
  t.checksum =
      float32 ? checksum(r.distances_as<float>()) : checksum(r.distances_as<std::int32_t>());
  return t;
}

double rate(std::int64_t n, double s) {
  return static_cast<double>(n) * n * n / s;
}

void report(const char* what, std::int64_t n, const timed& t) {
  std::printf(
      "  n=%lld %-22s solve %.3f s (wall %.3f)  %.2fe12 updates/s  checksum %llu\n    on %s\n",
      static_cast<long long>(n), what, t.seconds, t.wall, rate(n, t.seconds) / 1e12,
      static_cast<unsigned long long>(t.checksum), t.device.c_str());
  std::fflush(stdout);
}

/// n on the first of `devices` alone, then on all of them, each capped at `cap` device bytes
/// when non-zero; both reported.
std::pair<timed, timed> one_then_all(std::int64_t n, const apsp::solve_options& base,
                                     const std::vector<int>& devices, std::uint64_t cap,
                                     const std::string& what, bool float32) {
  apsp::solve_options one = base;
  one.devices = {devices.front()};
  one.device_memory_limit = cap;
  const timed t1 = run(n, one, float32);
  report(("1 device" + what).c_str(), n, t1);
  apsp::solve_options all = one;
  all.devices = devices;
  const timed tm = run(n, all, float32);
  report((std::to_string(devices.size()) + " devices" + what).c_str(), n, tm);
  return {t1, tm};
}

} // namespace

int main(int argc, char** argv) {
  const args a = parse(argc, argv);
  std::vector<row> rows;
  apsp::solve_options base;
  base.backend = apsp::backend_kind::cuda;
  base.paths = a.paths;
  base.type = a.float32 ? apsp::dtype::float32 : apsp::dtype::int32;
  const std::string type = std::string(a.float32 ? "float32" : "int32") + (a.paths ? "_paths" : "");

  for (const auto& [n, cap] : a.ooc) {
    const timed in_core = run(n, base, a.float32);
    report("in-core", n, in_core);
    apsp::solve_options o = base;
    o.device_memory_limit = cap;
    const timed ooc = run(n, o, a.float32);
    report(("out-of-core cap " + std::to_string(cap >> 20) + " MiB").c_str(), n, ooc);
    const double pct = 100 * rate(n, ooc.seconds) / rate(n, in_core.seconds);
    std::printf("  ooc n=%lld: %.1f %% of the in-core rate, results %s\n",
                static_cast<long long>(n), pct,
                ooc.checksum == in_core.checksum ? "identical" : "DIFFER");
    rows.push_back({n, "incore_" + type + "_solve", in_core.seconds, 0, in_core.device});
    rows.push_back({n, "ooc_" + type + "_cap" + std::to_string(cap >> 20) + "M_solve", ooc.seconds,
                    rate(n, in_core.seconds), ooc.device});
  }
  if (a.big_ooc > 0) {
    apsp::solve_options o = base;
    // A line every 30 s: the run takes minutes.
    auto last = std::make_shared<std::chrono::steady_clock::time_point>();
    o.progress = [last](const apsp::progress_info& p) {
      const auto now = std::chrono::steady_clock::now();
      if (now - *last > std::chrono::seconds(30) || p.rounds_done == p.rounds_total) {
        *last = now;
        std::printf("    round %lld/%lld, %.1f s, %.2fe12 updates/s\n",
                    static_cast<long long>(p.rounds_done), static_cast<long long>(p.rounds_total),
                    p.elapsed_seconds, p.updates_per_second / 1e12);
        std::fflush(stdout);
      }
      return true;
    };
    const timed t = run(a.big_ooc, o, a.float32);
    report("out-of-core (large)", a.big_ooc, t);
    rows.push_back({a.big_ooc, "ooc_" + type + "_large_solve", t.seconds, 0, t.device});
  }
  for (const auto& [n, cap] : a.multi_ooc) {
    const auto [t1, tm] = one_then_all(n, base, a.devices, cap, ", out of core", a.float32);
    if (tm.device.find("out-of-core") == std::string::npos)
      std::printf("  note: the rows fit on the devices under this cap: that run was in core\n");
    std::printf("  multi out-of-core n=%lld cap %llu MiB: %.2fx one device, results %s\n",
                static_cast<long long>(n), static_cast<unsigned long long>(cap >> 20),
                t1.seconds / tm.seconds, tm.checksum == t1.checksum ? "identical" : "DIFFER");
    const std::string tag = "_cap" + std::to_string(cap >> 20) + "M_solve";
    rows.push_back({n, "ooc_single_" + type + tag, t1.seconds, 0, t1.device});
    rows.push_back({n, "ooc_multi" + std::to_string(a.devices.size()) + "_" + type + tag,
                    tm.seconds, rate(n, t1.seconds), tm.device});
  }
  for (std::int64_t n : a.multi) {
    const auto [t1, tm] = one_then_all(n, base, a.devices, 0, "", a.float32);
    std::printf("  multi n=%lld: %.2fx one device, results %s\n", static_cast<long long>(n),
                t1.seconds / tm.seconds, tm.checksum == t1.checksum ? "identical" : "DIFFER");
    rows.push_back({n, "single_" + type + "_solve", t1.seconds, 0, t1.device});
    rows.push_back({n, "multi" + std::to_string(a.devices.size()) + "_" + type + "_solve",
                    tm.seconds, rate(n, t1.seconds), tm.device});
  }

  if (!a.csv.empty()) {
    std::vector<apsp::bench::csv_row> out;
    for (const auto& r : rows) {
      const double ups = rate(r.n, r.seconds);
      out.push_back({r.device, r.n, r.mode, r.seconds, ups,
                     r.reference_rate > 0 ? 100 * ups / r.reference_rate : 100.0});
    }
    apsp::bench::append_csv(a.csv, a.commit, a.command, out);
  }
  return 0;
}
