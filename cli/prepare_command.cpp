// apsp prepare: build a graph's contraction hierarchy once and save it, for the many tables a
// routing service asks of that graph (`apsp solve --sources S --targets T --hierarchy FILE`).

#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "apsp/error.hpp"
#include "apsp/hierarchy.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "interrupt.hpp"
#include "json_text.hpp"
#include "solver.hpp"
#include "timer.hpp"

namespace apsp::cli {
namespace {

struct prepare_args {
  input_options in;
  std::string out;
  std::string type = "int32";
  int threads = 0;
  bool json = false;
  bool quiet = false;
};

int run(const prepare_args& a) {
  const sigint_scope sigint;
  const loaded_graph in = read_input(keeping_no_matrix(a.in));
  throw_if_interrupted();
  solve_options o;
  o.type = parse_dtype(a.type);
  o.threads = a.threads;
  const stopwatch build_clock;
  const hierarchy h = [&] {
    try {
      return hierarchy(in.file.g, o);
    } catch (...) {
      rethrow_for_input(in, o, "preparing the contraction hierarchy of");
    }
  }();
  const double build = build_clock.seconds();
  throw_if_interrupted();
  const stopwatch write_clock;
  h.save(a.out);
  const double write = write_clock.seconds();
  if (a.json) {
    nlohmann::ordered_json j;
    j["input"] = a.in.path;
    j["n"] = in.file.g.num_vertices();
    j["m"] = in.file.g.num_edges();
    j["dtype"] = std::string(to_string(h.type()));
    j["shortcuts"] = h.shortcuts();
    j["levels"] = h.levels();
    j["format_version"] = hierarchy::file_version;
    j["seconds"] = {{"read", in.read_seconds}, {"build", build}, {"write", write}};
    j["output"] = a.out;
    std::printf("%s\n", json_text(j, 2).c_str());
  } else if (!a.quiet) {
    std::printf("input            %s\n", a.in.path.c_str());
    std::printf("vertices, edges  %lld, %lld\n", static_cast<long long>(in.file.g.num_vertices()),
                static_cast<long long>(in.file.g.num_edges()));
    std::printf("hierarchy        %lld shortcuts, %d levels, %s (format version %u)\n",
                static_cast<long long>(h.shortcuts()), h.levels(),
                std::string(to_string(h.type())).c_str(), hierarchy::file_version);
    std::printf("seconds          read %.3f, build %.3f, write %.3f\n", in.read_seconds, build,
                write);
    std::printf("written          %s\n", a.out.c_str());
  }
  return 0;
}

} // namespace

void add_prepare_command(CLI::App& app, command_action& action) {
  auto args = std::make_shared<prepare_args>();
  CLI::App* cmd = app.add_subcommand(
      "prepare", "build the graph's contraction hierarchy once and save it for many tables");
  add_input_options(*cmd, args->in);
  cmd->add_option("-o,--output", args->out, "the hierarchy file to write (e.g. graph.ch)")
      ->required();
  cmd->add_option("--dtype", args->type,
                  "the tables' integer type: int32 or int64 (weights must be whole numbers)")
      ->check(CLI::IsMember({"int32", "int64"}))
      ->capture_default_str();
  cmd->add_option("--threads", args->threads, "CPU threads that contract (0: all)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print a JSON summary on stdout instead of the text one");
  cmd->add_flag("-q,--quiet", args->quiet, "no summary")->excludes("--json");
  cmd->footer(
      "The file holds the hierarchy (with Bellman-Ford potentials where a weight is negative)\n"
      "and the graph's fingerprint: its vertex and edge counts and a hash of every edge and\n"
      "weight as read (with the same --format, --weight-column and --undirected). `apsp solve\n"
      "--hierarchy FILE` refuses it (exit 8) for another graph, a graph that changed since, or\n"
      "another version of the format, and a damaged or truncated file (exit 3).\n\n"
      "Examples:\n"
      "  apsp prepare DE.gr -o DE.ch\n"
      "  apsp solve DE.gr --sources @depots.txt --targets @customers.txt --hierarchy DE.ch "
      "-o t.npy");
  cmd->callback([args, &action] { action = [args] { return run(*args); }; });
}

} // namespace apsp::cli
