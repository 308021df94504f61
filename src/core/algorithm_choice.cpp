#include "core/algorithm_choice.hpp"

#include <cstdio>

namespace apsp::detail {
namespace {

// Rates; docs/sparse.md says where each was measured. Per cpu thread, so they scale with
// --threads; a GPU's is the whole device.
constexpr double fw_cpu_rate_4_byte = 2.0e10; // int32/float32 updates per second per thread
constexpr double fw_cpu_rate_8_byte = 1.0e10; // int64/float64
constexpr double fw_cuda_rate_int32 = 2.0e13; // H100, int32 (DPX min-plus)
constexpr double fw_cuda_rate_float32 = 1.2e13;
constexpr double johnson_seconds_per_arc = 4e-9;         // relaxing one arc
constexpr double johnson_seconds_per_vertex_int = 40e-9; // radix heap pop + the row's cell
constexpr double johnson_seconds_per_vertex_float = 55e-9; // 4-ary heap pop + the row's cell

double cube(std::int64_t n) {
  const double x = static_cast<double>(n);
  return x * x * x;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

} // namespace

double fw_cpu_seconds(const problem_shape& s) {
  const double rate = size_of(s.type) == 4 ? fw_cpu_rate_4_byte : fw_cpu_rate_8_byte;
  return cube(s.n) / (rate * static_cast<double>(s.threads > 0 ? s.threads : 1));
}

double fw_cuda_seconds(const problem_shape& s) {
  return cube(s.n) / (s.type == dtype::int32 ? fw_cuda_rate_int32 : fw_cuda_rate_float32);
}

double johnson_cpu_seconds(const problem_shape& s) {
  const double per_vertex =
      is_integral(s.type) ? johnson_seconds_per_vertex_int : johnson_seconds_per_vertex_float;
  const double n = static_cast<double>(s.n);
  const double per_source = static_cast<double>(s.m) * johnson_seconds_per_arc + n * per_vertex;
  return n * per_source / static_cast<double>(s.threads > 0 ? s.threads : 1);
}

algorithm_choice choose_algorithm(const problem_shape& s, backend_kind fw_backend) {
  const double fw = fw_backend == backend_kind::cuda ? fw_cuda_seconds(s) : fw_cpu_seconds(s);
  const double johnson = johnson_cpu_seconds(s);
  algorithm_choice c;
  c.algorithm = johnson < fw ? algorithm_kind::johnson : algorithm_kind::floyd_warshall;
  const std::string fw_text = "Floyd-Warshall on " + std::string(to_string(fw_backend)) + " ~" +
                              seconds_text(fw);
  const std::string johnson_text = "Johnson on cpu ~" + seconds_text(johnson);
  c.reason = "auto: n = " + std::to_string(s.n) + ", m = " + std::to_string(s.m) + ": " +
             (johnson < fw ? johnson_text + " < " + fw_text : fw_text + " <= " + johnson_text);
  return c;
}

} // namespace apsp::detail
