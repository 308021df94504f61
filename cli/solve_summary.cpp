#include "solve_summary.hpp"

#include <sys/resource.h>

#include <cstdio>

#include "plan_json.hpp"

namespace apsp::cli {
namespace {

/// Largest resident set of this process so far (Linux reports KiB).
std::uint64_t peak_memory_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

nlohmann::ordered_json path_or_null(const std::string& p) {
  return p.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(p);
}

} // namespace

double updates_per_second(std::int64_t n, double solve_seconds) {
  const auto v = static_cast<double>(n);
  return solve_seconds > 0 ? v * v * v / solve_seconds : 0.0;
}

double sources_per_second(std::int64_t sources, double seconds) {
  return seconds > 0 ? static_cast<double>(sources) / seconds : 0.0;
}

nlohmann::ordered_json solve_summary_json(const solve_summary& s,
                                          const nlohmann::ordered_json& extra) {
  const plan& p = *s.ran;
  // The plan's own fields in its words (as `apsp info --json` shows the plan it would run).
  const nlohmann::ordered_json planned = plan_json(p);
  nlohmann::ordered_json j;
  j["input"] = s.input;
  j["format"] = io::to_string(s.format);
  j["n"] = s.n;
  j["m"] = s.m;
  j["backend"] = s.backend;
  for (const char* key : {"device", "driver", "algorithm", "algorithm_reason"})
    j[key] = planned[key];
  j["dtype"] = to_string(s.type);
  j["narrow"] = p.narrow;
  for (const char* key : {"block", "rounds"})
    j[key] = planned[key];
  j["plan"] = planned;
  j["seconds"] = {{"read", s.read_seconds},
                  {"setup", s.setup_seconds},
                  {"solve", s.solve_seconds},
                  {"finish", s.finish_seconds},
                  {"write", s.write_seconds}};
  j["updates_per_second"] = updates_per_second(s.n, s.solve_seconds);
  j["sources_per_second"] = sources_per_second(s.n, s.solve_seconds);
  j["peak_memory_bytes"] = peak_memory_bytes();
  j["reachable_pairs"] = s.reachable_pairs;
  j["distance_sum"] = s.distance_sum;
  j["max_distance"] = s.max_distance;
  j["outputs"] = {{"distances", path_or_null(s.distances_out)},
                  {"paths", path_or_null(s.paths_out)}};
  if (extra.is_object()) {
    for (const auto& [key, value] : extra.items())
      j[key] = value;
  }
  return j;
}

std::string summary_line(const char* label, const std::string& value) {
  char head[32];
  std::snprintf(head, sizeof head, "%-17s", label);
  return head + value + "\n";
}

std::string solve_summary_text(const solve_summary& s, const std::string& how,
                               const std::string& per_rank) {
  const auto n = static_cast<long long>(s.n);
  std::string text =
      summary_line("input", s.input + " (" + std::string(io::to_string(s.format)) + ")");
  text += summary_line("vertices, edges",
                       std::to_string(n) + ", " + std::to_string(static_cast<long long>(s.m)));
  text += how;
  char seconds[160];
  std::snprintf(seconds, sizeof seconds,
                "read %.3f, setup %.3f, solve %.3f, finish %.3f, write %.3f", s.read_seconds,
                s.setup_seconds, s.solve_seconds, s.finish_seconds, s.write_seconds);
  text += summary_line("seconds", seconds);
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.3g", updates_per_second(s.n, s.solve_seconds));
  text += summary_line("updates/s", rate);
  text += per_rank;
  text += summary_line("reachable pairs", std::to_string(s.reachable_pairs) + " of " +
                                              std::to_string(n > 0 ? n * (n - 1) : 0LL));
  text += summary_line("checksum", "sum " + s.distance_sum_text + ", max " + s.max_distance_text);
  if (!s.distances_out.empty())
    text += summary_line("distances", s.distances_out);
  if (!s.paths_out.empty())
    text += summary_line("paths", s.paths_out);
  return text;
}

} // namespace apsp::cli
