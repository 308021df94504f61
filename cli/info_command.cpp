// apsp info: what the graph is and what solving it would take on each back end.

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "apsp/solve.hpp"
#include "commands.hpp"
#include "distributed.hpp"
#include "input.hpp"
#include "json_text.hpp"
#include "plan_json.hpp"
#include "solver.hpp"
#include "subset_solve.hpp"
#include "vertex_lists.hpp"

namespace apsp::cli {
namespace {

struct info_args {
  input_options in;
  solver_options solver;
  bool paths = false;
  bool json = false;
  bool metrics = false;     // also what `apsp metrics` would run
  subset_selection subsets; // also what `apsp solve --sources/--targets` would run
  std::vector<std::string> pair; // SRC DST: also what `apsp path SRC DST` would run
};

constexpr const char* int16_needs_cuda =
    "--dtype int16 (packed 16-bit arithmetic) runs on the cuda back end only";

nlohmann::ordered_json backend_plan_json(const backend_status& status, const graph& g,
                                         const solve_options& base) {
  nlohmann::ordered_json j;
  j["backend"] = to_string(status.kind);
  j["available"] = status.available;
  j["detail"] = status.detail;
  if (!status.available)
    return j;
  solve_options o = base;
  o.backend = status.kind;
  if (base.narrow == narrow_mode::required && status.kind != backend_kind::cuda) {
    j["fits"] = false; // as `solve --dtype int16` refuses it (exit 6)
    j["reason"] = std::string(int16_needs_cuda);
    return j;
  }
  try {
    const plan p = make_plan(g, o);
    const std::string why = why_not_fitting(p);
    nlohmann::ordered_json fields = plan_json(p);
    fields.erase("backend");
    fields.erase("reason");
    fields["fits"] = why.empty();
    if (!why.empty())
      fields["reason"] = why;
    j.update(fields);
  } catch (const apsp::error& e) {
    j["fits"] = false;
    j["reason"] = e.what();
  }
  return j;
}

/// What `apsp metrics` with these options would run: its plan, or why none.
nlohmann::ordered_json metrics_plan_json(const graph& g, solve_options o) {
  o.paths = false; // metrics keep no path matrix
  try {
    return plan_json(make_plan(g, o, plan_request::metrics()));
  } catch (const apsp::error& e) {
    return {{"fits", false}, {"reason", e.what()}};
  }
}

/// Adds to `j` the engine the planner chooses for `asked`, as the command that runs it reports
/// it: `engine` (a block's, as solve's --json names it), `driver`, `engine_reason` and `plan`;
/// or `engine`: "none (why)".
void add_engine(nlohmann::ordered_json& j, const graph& g, const solve_options& o,
                const plan_request& asked) {
  try {
    const plan p = make_plan(g, o, asked);
    if (asked.what == plan_request::output::block)
      j["engine"] = block_engine(p);
    j["driver"] = to_string(p.run);
    j["engine_reason"] = p.algorithm_reason;
    j["plan"] = plan_json(p);
  } catch (const apsp::error& e) {
    j["engine"] = std::string("none (") + e.what() + ")";
  }
}

/// What `apsp solve --sources/--targets` with these options would run: the block's size, the
/// engine as solve's --json names it, and the plan; or why none.
nlohmann::ordered_json block_plan_json(const loaded_graph& in, const subset_selection& s,
                                       solve_options o) {
  o.paths = false; // a block keeps no path matrix
  const auto count = [&in](const std::optional<std::string>& list, const char* option) {
    return list ? static_cast<std::int64_t>(find_vertices(in, read_id_list(*list, option)).size())
                : std::int64_t{-1};
  };
  const std::int64_t sources = count(s.sources, "--sources");
  const std::int64_t targets = count(s.targets, "--targets");
  const std::int64_t n = in.file.g.num_vertices();
  nlohmann::ordered_json j;
  j["sources"] = sources < 0 ? n : sources;
  j["targets"] = targets < 0 ? n : targets;
  add_engine(j, in.file.g, o, plan_request::block(sources, targets));
  return j;
}

/// What `apsp path SRC DST` with these options would run: the pair, its engine (driver and
/// why, as `apsp path --plan --json` reports them) and the plan; or why none.
nlohmann::ordered_json pair_plan_json(const loaded_graph& in, const std::vector<std::string>& ids,
                                      const solve_options& o) {
  const bool numeric = ids_are_numbers(in);
  const auto& labels = in.file.labels;
  nlohmann::ordered_json j;
  j["source"] = label_json(labels, find_vertex(in, ids[0]), numeric);
  j["target"] = label_json(labels, find_vertex(in, ids[1]), numeric);
  add_engine(j, in.file.g, o, plan_request::pair());
  return j;
}

std::string number_text(double v, bool integral) {
  if (integral)
    return std::to_string(static_cast<long long>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

/// A plan's host memory and whether it fits: "host 1.2 MiB, fits" or "..., does not fit: why".
std::string memory_text(const nlohmann::ordered_json& plan) {
  return "host " + format_bytes(plan["host_bytes"].get<std::uint64_t>()) + ", " +
         (plan["fits"].get<bool>() ? "fits"
                                   : "does not fit: " + plan["reason"].get<std::string>());
}

void print_text(const nlohmann::ordered_json& j) {
  std::printf("file             %s (%s)\n", j["file"].get<std::string>().c_str(),
              j["format"].get<std::string>().c_str());
  std::printf("vertices         %lld\n", j["n"].get<long long>());
  std::printf("edges            %lld (%lld self-loops)\n", j["m"].get<long long>(),
              j["self_loops"].get<long long>());
  const auto& w = j["weights"];
  if (j["m"].get<long long>() > 0) {
    const bool integral = w["integral"].get<bool>();
    std::printf("weights          %s .. %s, %s, %s\n",
                number_text(w["min"].get<double>(), integral).c_str(),
                number_text(w["max"].get<double>(), integral).c_str(),
                integral ? "integral" : "not integral",
                w["negative"].get<bool>() ? "has negative weights" : "no negative weights");
  }
  const std::string asked = j.value("backend", std::string("auto"));
  std::printf("plans for        %s%s (%s %s", j["dtype"].get<std::string>().c_str(),
              j["paths"].get<bool>() ? " with paths" : "",
              asked == "auto" ? "auto picks" : ("--backend " + asked + ":").c_str(),
              j["auto"].get<std::string>().c_str());
  if (j.contains("auto_algorithm")) {
    std::printf(", %s; %s", j["auto_algorithm"].get<std::string>().c_str(),
                j["auto_reason"].get<std::string>().c_str());
  }
  std::printf(")\n");
  for (const auto& p : j["plans"]) {
    const std::string name = p["backend"].get<std::string>();
    if (!p["available"].get<bool>()) {
      std::printf("  %-10s unavailable: %s\n", name.c_str(),
                  p["detail"].get<std::string>().c_str());
      continue;
    }
    if (!p.contains("rounds")) {
      std::printf("  %-10s %s\n", name.c_str(), p["reason"].get<std::string>().c_str());
      continue;
    }
    const std::string algorithm = p["algorithm"].get<std::string>();
    std::printf(
        "  %-10s %s: %s (%s), %s %lld, %lld rounds, host %s, device %s, %s\n", name.c_str(),
        p["device"].get<std::string>().c_str(), p["algorithm"].get<std::string>().c_str(),
        p["driver"].get<std::string>().c_str(),
        algorithm == "johnson" || algorithm == "phast" ? "sources per step"
        : algorithm == "supernodal" ? "widest step"
                                    : "tile",
        p["block"].get<long long>(),
        p["rounds"].get<long long>(), format_bytes(p["host_bytes"].get<std::uint64_t>()).c_str(),
        format_bytes(p["device_bytes"].get<std::uint64_t>()).c_str(),
        p["fits"].get<bool>() ? "fits"
                              : ("does not fit: " + p["reason"].get<std::string>()).c_str());
  }
  if (j.contains("metrics")) {
    const auto& m = j["metrics"];
    if (m.contains("driver")) {
      std::printf("metrics runs     %s (%s), %s\n", m["driver"].get<std::string>().c_str(),
                  m["algorithm_reason"].get<std::string>().c_str(), memory_text(m).c_str());
    } else {
      std::printf("metrics runs     none (%s)\n", m["reason"].get<std::string>().c_str());
    }
  }
  if (j.contains("pair")) {
    const auto& p = j["pair"];
    const auto id = [](const nlohmann::ordered_json& v) {
      return v.is_string() ? v.get<std::string>() : v.dump();
    };
    std::printf("pair runs        %s -> %s: ", id(p["source"]).c_str(), id(p["target"]).c_str());
    if (p.contains("driver")) {
      std::printf("%s (%s), %s\n", p["driver"].get<std::string>().c_str(),
                  p["engine_reason"].get<std::string>().c_str(), memory_text(p["plan"]).c_str());
    } else {
      std::printf("%s\n", p["engine"].get<std::string>().c_str());
    }
  }
  if (j.contains("block")) {
    const auto& b = j["block"];
    std::printf("block runs       %lld sources x %lld targets: ", b["sources"].get<long long>(),
                b["targets"].get<long long>());
    if (b.contains("driver")) {
      const bool whole = b["engine"].get<std::string>() == "whole_matrix";
      std::printf("%s%s (%s)\n", whole ? "the whole matrix by " : "",
                  b["driver"].get<std::string>().c_str(),
                  b["engine_reason"].get<std::string>().c_str());
    } else {
      std::printf("%s\n", b["engine"].get<std::string>().c_str());
    }
  }
}

int run(const info_args& a) {
  if (under_mpi())
    return info_distributed(a.in, a.solver, a.paths, a.json);
  refuse_grid_outside_mpi(a.solver);
  const loaded_graph in = read_input(a.in);
  const graph& g = in.file.g;
  const auto w = g.summarize_weights();
  std::int64_t self_loops = 0;
  for (std::int64_t e = 0; e < g.num_edges(); ++e) {
    self_loops +=
        g.sources()[static_cast<std::size_t>(e)] == g.targets()[static_cast<std::size_t>(e)];
  }
  solve_options base = to_solve_options(a.solver);
  base.paths = a.paths;
  resolve_auto_dtype(base, a.solver, g); // --dtype auto: the type `solve` would take for g

  nlohmann::ordered_json j;
  j["file"] = in.path;
  j["format"] = io::to_string(in.file.source_format);
  j["n"] = g.num_vertices();
  j["m"] = g.num_edges();
  j["self_loops"] = self_loops;
  j["weights"] = {
      {"min", w.min}, {"max", w.max}, {"integral", w.all_integral}, {"negative", w.has_negative}};
  j["dtype"] = to_string(base.type);
  j["paths"] = a.paths;
  j["backend"] = to_string(base.backend);
  try {
    const plan p = make_plan(g, base); // what `solve` with these options would run
    if (base.narrow == narrow_mode::required && p.backend != backend_kind::cuda)
      throw backend_unavailable_error(int16_needs_cuda);
    j["auto"] = to_string(p.backend);
    j["auto_algorithm"] = to_string(p.algorithm);
    j["auto_reason"] = p.algorithm_reason;
    j["plan"] = plan_json(p); // the plan `solve` runs, in full
  } catch (const apsp::error& e) {
    j["auto"] = std::string("none (") + e.what() + ")";
  }
  j["plans"] = nlohmann::ordered_json::array();
  for (const backend_status& status : list_backends()) {
    j["plans"].push_back(backend_plan_json(status, g, base));
  }
  if (a.metrics)
    j["metrics"] = metrics_plan_json(g, base);
  if (a.subsets.given())
    j["block"] = block_plan_json(in, a.subsets, base);
  if (!a.pair.empty())
    j["pair"] = pair_plan_json(in, a.pair, base);
  if (a.json) {
    std::printf("%s\n", json_text(j, 2).c_str());
  } else {
    print_text(j);
  }
  return 0;
}

} // namespace

void add_info_command(CLI::App& app, command_action& action) {
  auto args = std::make_shared<info_args>();
  CLI::App* cmd =
      app.add_subcommand("info", "describe a graph and plan its solve on each back end");
  add_input_options(*cmd, args->in);
  add_solver_options(*cmd, args->solver);
  cmd->add_flag("--paths", args->paths, "plan with the path matrix");
  cmd->add_flag("--json", args->json, "print a JSON object instead of text");
  cmd->add_flag("--metrics", args->metrics,
                "also show the engine `apsp metrics` would run with these options");
  cmd->add_option("--sources", args->subsets.sources,
                  "also show the engine `apsp solve --sources` would run for these vertices "
                  "(same forms: 1,5,9 or @FILE)");
  cmd->add_option("--targets", args->subsets.targets,
                  "also show the engine `apsp solve --targets` would run (with --sources or "
                  "alone)");
  cmd->add_option("--pair", args->pair,
                  "also show the engine `apsp path SRC DST` would run (two ids, as the file "
                  "names them)")
      ->expected(2)
      ->type_name("ID");
  cmd->footer(
      "Plans are computed without allocating anything, so this is instant even for graphs too\n"
      "large to solve here.\n\n"
      "Examples:\n"
      "  apsp info data/rome99.gr\n"
      "  apsp info DE.gr --dtype float32 --paths --json\n"
      "  apsp info DE.gr --metrics\n"
      "  apsp info DE.gr --sources 1,2 --targets 3\n"
      "  apsp info DE.gr --pair 1 3353");
  cmd->callback([args, &action] { action = [args] { return run(*args); }; });
}

} // namespace apsp::cli
