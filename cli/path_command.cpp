// apsp path: one shortest path, by one bidirectional search for the pair or from saved distance
// and via matrices.

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "apsp/pair.hpp"
#include "apsp/solve.hpp"
#include "commands.hpp"
#include "declared_plan.hpp"
#include "distributed.hpp"
#include "input.hpp"
#include "interrupt.hpp"
#include "json_text.hpp"
#include "output.hpp"
#include "plan_json.hpp"
#include "solver.hpp"
#include "source_batches.hpp"

namespace apsp::cli {
namespace {

struct path_args {
  input_options in;
  solver_options solver;
  std::string source;
  std::string target;
  std::string dist;
  std::string via;
  bool json = false;
  bool quiet = false;
  bool show_plan = false; // --plan: also the plan the search ran (its driver and why)
};

any_matrix read_saved(const std::string& path, std::int64_t n, const char* what) {
  any_matrix m;
  try {
    m = io::read_matrix(path);
  } catch (const invalid_input_error& e) {
    throw invalid_input_error(with_file(e.what(), path));
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error(path + ": out of memory while reading the " + what + " matrix");
  }
  const std::int64_t got = std::visit([](const auto& x) { return x.n(); }, m);
  if (got != n) {
    throw invalid_input_error(path + ": the " + what + " matrix is " + std::to_string(got) + " x " +
                              std::to_string(got) + " but the graph has " + std::to_string(n) +
                              " vertices");
  }
  return m;
}

/// The via matrix of a file is untrusted: expand_via_path checks every entry it uses and bounds
/// the walk, so a corrupt file gives an error naming it instead of an endless walk.
std::vector<std::int64_t> saved_path(const any_matrix& dist, const via_matrix& via,
                                     const std::string& via_path, std::int64_t s, std::int64_t t) {
  if (s == t)
    return {s};
  const bool reachable = std::visit(
      [&](const auto& m) {
        using T = typename std::decay_t<decltype(m)>::value_type;
        return m(s, t) < weight_traits<T>::infinity; // false for NaN too
      },
      dist);
  if (!reachable)
    return {};
  try {
    return expand_via_path(via, s, t);
  } catch (const invalid_input_error& e) {
    throw invalid_input_error(via_path + ": " + e.what());
  }
}

/// Saved matrices may belong to another graph: the path they give must walk INPUT's edges (the
/// lightest of parallel arcs) and add up to the saved distance (exactly for integers, within the
/// rounding of its additions for floats). Throws invalid_input_error naming what does not fit.
void check_saved_path(const loaded_graph& in, const any_matrix& dist, const std::string& files,
                      const std::vector<std::int64_t>& path) {
  if (path.size() < 2)
    return;
  std::unordered_map<std::uint64_t, double> lightest; // (u << 32 | v) of each step
  const auto key = [](std::int64_t u, std::int64_t v) {
    return (static_cast<std::uint64_t>(u) << 32) | static_cast<std::uint64_t>(v);
  };
  for (std::size_t k = 0; k + 1 < path.size(); ++k)
    lightest.emplace(key(path[k], path[k + 1]), std::numeric_limits<double>::infinity());
  const graph& g = in.file.g;
  for (std::size_t e = 0; e < g.weights().size(); ++e) {
    const auto it = lightest.find(key(g.sources()[e], g.targets()[e]));
    if (it != lightest.end())
      it->second = std::min(it->second, g.weights()[e]);
  }
  const auto& labels = in.file.labels;
  double length = 0;
  double magnitude = 0;
  for (std::size_t k = 0; k + 1 < path.size(); ++k) {
    const double w = lightest.at(key(path[k], path[k + 1]));
    if (!std::isfinite(w)) {
      throw invalid_input_error(files + " do not describe " + in.path + ": their path uses " +
                                labels.label(path[k]) + " -> " + labels.label(path[k + 1]) +
                                ", which is not an edge of " + in.path);
    }
    length += w;
    magnitude += std::fabs(w);
  }
  const std::int64_t s = path.front();
  const std::int64_t t = path.back();
  const double saved =
      std::visit([&](const auto& m) { return static_cast<double>(m(s, t)); }, dist);
  const bool exact = std::visit(
      [](const auto& m) {
        return std::is_integral_v<typename std::decay_t<decltype(m)>::value_type>;
      },
      dist);
  const double eps = std::holds_alternative<dense_matrix<float>>(dist)
                         ? std::numeric_limits<float>::epsilon()
                         : std::numeric_limits<double>::epsilon();
  const double slack = exact ? 0 : static_cast<double>(path.size()) * eps * (magnitude + 1);
  if (!(std::fabs(length - saved) <= slack)) {
    char walked[32];
    std::snprintf(walked, sizeof walked, "%.17g", length);
    throw invalid_input_error(files + " do not describe " + in.path + ": their path from " +
                              labels.label(s) + " to " + labels.label(t) + " has length " + walked +
                              " in " + in.path + ", but the distance file says " +
                              distance_text(dist, s, t));
  }
}

/// The length of a path, as text ("12", "inf") and as JSON (null when unreachable).
struct length_texts {
  std::string text;
  nlohmann::json json;
};

/// `ran`: with --plan, the plan the search ran, after the documented keys (JSON) or on a line
/// of its own.
void print_path(const path_args& a, const loaded_graph& in, const length_texts& length,
                std::int64_t s, std::int64_t t, const std::vector<std::int64_t>& path,
                const plan* ran = nullptr) {
  const auto& labels = in.file.labels;
  if (a.json) {
    // Key order and spacing are fixed by the documentation, so the object is written by hand.
    const bool numeric = ids_are_numbers(in);
    std::string text = "{\"source\": " + json_text(label_json(labels, s, numeric)) +
                       ", \"target\": " + json_text(label_json(labels, t, numeric)) +
                       ", \"length\": " + json_text(length.json) + ", \"path\": [";
    for (std::size_t k = 0; k < path.size(); ++k) {
      text += (k ? ", " : "") + json_text(label_json(labels, path[k], numeric));
    }
    text += "]";
    if (ran != nullptr) {
      text += ", \"driver\": " + json_text(nlohmann::json(to_string(ran->run))) +
              ", \"engine_reason\": " + json_text(nlohmann::json(ran->algorithm_reason)) +
              ", \"plan\": " + json_text(plan_json(*ran));
    }
    text += "}";
    std::printf("%s\n", text.c_str());
    return;
  }
  if (path.empty()) {
    std::printf("no path from %s to %s\n", labels.label(s).c_str(), labels.label(t).c_str());
  } else {
    std::string text;
    for (std::size_t k = 0; k < path.size(); ++k) {
      text += (k ? " -> " : "") + labels.label(path[k]);
    }
    std::printf("length %s, %zu edges\n%s\n", length.text.c_str(), path.size() - 1,
                text.c_str());
  }
  if (ran != nullptr) {
    std::printf("engine %s (%s)\n", to_string(ran->run).c_str(),
                ran->algorithm_reason.c_str());
  }
}

/// The path from saved distance and via matrices, checked against INPUT's edges.
void print_saved_path(const path_args& a) {
  const sigint_scope sigint;
  const loaded_graph in = read_input(a.in);
  const std::int64_t s = find_vertex(in, a.source);
  const std::int64_t t = find_vertex(in, a.target);
  const std::int64_t n = in.file.g.num_vertices();
  const any_matrix dist = read_saved(a.dist, n, "distance");
  any_matrix via_any = read_saved(a.via, n, "path");
  auto* via = std::get_if<via_matrix>(&via_any);
  if (via == nullptr)
    throw invalid_input_error(a.via + ": a path matrix must hold int32");
  const std::vector<std::int64_t> path = saved_path(dist, *via, a.via, s, t);
  check_saved_path(in, dist, a.dist + " and " + a.via, path);
  print_path(a, in, {distance_text(dist, s, t), distance_json(dist, s, t)}, s, t, path);
}

/// One bidirectional Dijkstra for the pair (apsp::solve_pair): memory O(n + m) whatever n.
void print_searched_path(const path_args& a) {
  // --dtype int16 refused, the all-pairs engines' options ignored with a warning each.
  const batch_settings settings = dijkstra_settings(a.solver, "single-pair paths");
  if (const auto n = declared_vertices(a.in))
    refuse_declared_memory(a.in, *n, solve_pair_host_bytes(*n, 0, settings.type), "apsp path");
  const sigint_scope sigint;
  const loaded_graph in = read_input(keeping_no_matrix(a.in));
  throw_if_interrupted();
  const std::int64_t s = find_vertex(in, a.source);
  const std::int64_t t = find_vertex(in, a.target);
  solve_options resolved = to_solve_options(a.solver);
  resolve_auto_dtype(resolved, a.solver, in.file.g);
  pair_options options;
  options.type = resolved.type;
  options.progress = [](const progress_info&) { return !interrupted(); };
  pair_result r;
  try {
    // The planner's one-pair engine (as `apsp info --pair` shows it), run as planned.
    r = solve_pair(in.file.g, s, t, make_plan(in.file.g, resolved, plan_request::pair()),
                   options);
  } catch (...) {
    rethrow_for_input(in, resolved, "searching");
  }
  const any_rows one =
      std::visit([](auto d) -> any_rows { return std::vector<decltype(d)>{d}; }, r.distance);
  print_path(a, in, {distance_text(one, 0), distance_json(one, 0)}, s, t, r.path,
             a.show_plan ? &r.ran : nullptr);
}

int run(const path_args& a) {
  refuse_without_distributed_mode("path");
  refuse_grid_outside_mpi(a.solver);
  if (a.dist.empty() != a.via.empty()) {
    throw invalid_argument_error("--dist and --via go together");
  }
  if (a.show_plan && !a.dist.empty()) {
    throw invalid_argument_error("--plan shows the search's plan; with --dist and --via "
                                 "nothing is searched");
  }
  if (a.dist.empty()) {
    print_searched_path(a);
  } else {
    print_saved_path(a);
  }
  return 0;
}

} // namespace

void add_path_command(CLI::App& app, command_action& action) {
  auto args = std::make_shared<path_args>();
  CLI::App* cmd = app.add_subcommand("path", "print one shortest path and its length");
  add_input_options(*cmd, args->in);
  cmd->add_option("SRC", args->source,
                  "source vertex, as the file names it (1-based for .gr/.mtx, 0-based for .bin "
                  "and .npy, the original id or name for edge lists and CSV)")
      ->required();
  cmd->add_option("DST", args->target, "target vertex, same convention")->required();
  cmd->add_option("--dist", args->dist,
                  "read distances from this saved matrix instead of solving (with --via; the "
                  "path must walk INPUT's edges and add up to its entry, else exit 3)");
  cmd->add_option("--via", args->via, "the path matrix saved with it (apsp solve --paths)");
  add_solver_options(*cmd, args->solver);
  cmd->add_flag("--json", args->json,
                "print {\"source\": S, \"target\": T, \"length\": L, \"path\": [S, ..., T]}");
  cmd->add_flag("-q,--quiet", args->quiet, "accepted for scripts; one search shows no progress");
  cmd->add_flag("--plan", args->show_plan,
                "also print the plan the search ran: a line 'engine DRIVER (WHY)', or with "
                "--json the keys driver, engine_reason and plan after path (as apsp info --pair "
                "shows them)");
  cmd->footer(
      "Solved by one bidirectional Dijkstra search for the pair (Bellman-Ford potentials first\n"
      "when a weight is negative; a negative cycle anywhere refuses, exit 4), in memory O(n + m)\n"
      "whatever n; of the shortest paths, one with the fewest edges. --backend, --algorithm,\n"
      "--block, --gpu-memory and --devices choose all-pairs engines: ignored with a warning.\n"
      "Unreachable targets print 'no path' (JSON: length null, path []).\n\n"
      "Examples:\n"
      "  apsp path data/rome99.gr 1 3353\n"
      "  apsp path data/c_elegans_hermaphrodite/edgelist.csv.gz ADAL AVAR --json\n"
      "  apsp solve data/rome99.gr -o d.npy --paths v.npy && apsp path data/rome99.gr 1 3353 "
      "--dist d.npy --via v.npy");
  cmd->callback([args, &action] { action = [args] { return run(*args); }; });
}

} // namespace apsp::cli
