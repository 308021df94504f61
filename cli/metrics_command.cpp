// apsp metrics: per-vertex centralities and whole-graph summaries of all-pairs distances,
// without keeping the n x n matrix (docs/metrics.md).

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "apsp/metrics.hpp"
#include "commands.hpp"
#include "declared_plan.hpp"
#include "histogram_svg.hpp"
#include "distributed.hpp"
#include "input.hpp"
#include "interrupt.hpp"
#include "json_text.hpp"
#include "metrics_command.hpp"
#include "plan_json.hpp"
#include "output.hpp"
#include "solve_summary.hpp"
#include "solver.hpp"

namespace apsp::cli {
namespace {

/// -o's kind, from its suffix.
enum class table_kind { csv, json, npy };

table_kind output_kind(const std::string& path) {
  const auto ends_with = [&path](const std::string& s) {
    return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  if (ends_with(".csv") || ends_with(".csv.gz"))
    return table_kind::csv;
  if (ends_with(".json"))
    return table_kind::json;
  if (ends_with(".npy"))
    return table_kind::npy;
  throw invalid_argument_error("cannot tell the format of '" + path +
                               "' from its suffix (metrics are written as .csv, .json or .npy)");
}

/// One per-vertex column: its name in CSV and JSON, and its values.
struct vertex_column {
  std::string name;
  std::vector<double> values;
};

/// The per-vertex metrics that were computed, in the documented column order.
std::vector<vertex_column> vertex_columns(const graph_metrics& m) {
  std::vector<vertex_column> cols;
  const auto add = [&cols](const char* name, const auto& v) {
    if (!v.empty())
      cols.push_back({name, std::vector<double>(v.begin(), v.end())});
  };
  add("out-eccentricity", m.out_eccentricity);
  add("in-eccentricity", m.in_eccentricity);
  add("closeness", m.closeness);
  add("harmonic", m.harmonic);
  add("reach-out", m.reach_out);
  add("reach-in", m.reach_in);
  return cols;
}

/// The graph-level values that were computed (JSON keys as the metric names).
nlohmann::ordered_json graph_level_json(const graph_metrics& m) {
  nlohmann::ordered_json j;
  j["n"] = m.n;
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (const metric x : metric_list()) {
    if (contains(m.computed, x))
      names.push_back(std::string(to_string(x)));
  }
  j["metrics"] = names;
  if (contains(m.computed, metric::diameter))
    j["diameter"] = m.diameter;
  if (contains(m.computed, metric::radius))
    j["radius"] = m.radius;
  if (contains(m.computed, metric::average_path_length))
    j["average-path-length"] = m.average_path_length;
  if (contains(m.computed, metric::global_efficiency))
    j["global-efficiency"] = m.global_efficiency;
  if (contains(m.computed, metric::reachable_pairs))
    j["reachable-pairs"] = m.reachable_pairs;
  if (contains(m.computed, metric::histogram)) {
    j["histogram"] = {{"width", m.histogram.width},
                      {"edges", m.histogram.edges()},
                      {"counts", m.histogram.counts},
                      {"negative", m.histogram.negative}};
  }
  return j;
}

/// What ran, for --json and the summary.
nlohmann::ordered_json run_json(const metrics_args& a, const loaded_graph& in,
                                const graph_metrics& m) {
  const plan& p = m.executed_plan;
  nlohmann::ordered_json j;
  j["input"] = a.in.path;
  j["format"] = io::to_string(in.file.source_format);
  j["m"] = in.file.g.num_edges();
  j["dtype"] = to_string(p.type);
  j["backend"] = to_string(p.backend);
  j["device"] = p.device;
  j["driver"] = to_string(p.run);
  j["algorithm"] = algorithm_name(p);
  j["algorithm_reason"] = p.algorithm_reason;
  j["block"] = p.block;
  j["host_matrix"] = m.host_matrix;
  j["seconds"] = {{"read", in.read_seconds}, {"metrics", m.seconds}};
  j["sources_per_second"] = sources_per_second(m.n, m.seconds);
  return j;
}

void write_json_file(const std::filesystem::path& partial, const loaded_graph& in,
                     const graph_metrics& m) {
  nlohmann::ordered_json j = graph_level_json(m);
  const io::vertex_labels& labels = in.file.labels;
  const bool numbers = labels_are_integers(labels);
  nlohmann::ordered_json ids = nlohmann::ordered_json::array();
  for (std::int64_t i = 0; i < m.n; ++i) {
    const nlohmann::json id = label_json(labels, i, numbers);
    if (id.is_number())
      ids.push_back(id.get<std::int64_t>());
    else
      ids.push_back(id.get<std::string>());
  }
  j["vertices"] = std::move(ids);
  for (const vertex_column& c : vertex_columns(m))
    j[c.name] = c.values;
  write_text_file(partial, json_text(j) + '\n');
}

void write_table(const std::filesystem::path& partial, table_kind kind, const loaded_graph& in,
                 const graph_metrics& m) {
  if (kind == table_kind::json) {
    write_json_file(partial, in, m);
    return;
  }
  const std::vector<vertex_column> cols = vertex_columns(m);
  std::vector<std::string> names;
  for (const vertex_column& c : cols)
    names.push_back(c.name);
  const auto k = cols.size();
  std::vector<double> values(static_cast<std::size_t>(m.n) * k);
  for (std::size_t c = 0; c < k; ++c) {
    for (std::size_t v = 0; v < static_cast<std::size_t>(m.n); ++v)
      values[v * k + c] = cols[c].values[v];
  }
  io::write_vertex_table(partial, names, values, in.file.labels,
                         kind == table_kind::csv ? io::format::csv : io::format::npy);
}

void print_summary(const metrics_args& a, const loaded_graph& in, const graph_metrics& m) {
  const plan& p = m.executed_plan;
  std::printf("input              %s (%s)\n", a.in.path.c_str(),
              std::string(io::to_string(in.file.source_format)).c_str());
  std::printf("vertices, edges    %lld, %lld\n", static_cast<long long>(m.n),
              static_cast<long long>(in.file.g.num_edges()));
  // Where the matrix was reduced when not on the host: one GPU, a split or GPU ranks.
  const auto* ranks = std::get_if<drivers::distributed>(&p.run);
  const char* where = ranks != nullptr && ranks->gpu ? ", reduced on the GPUs"
                      : std::holds_alternative<drivers::cuda_split>(p.run) && !m.host_matrix
                          ? ", reduced on the GPUs"
                      : (std::holds_alternative<drivers::cuda_in_core>(p.run) ||
                         std::holds_alternative<drivers::cuda_phast>(p.run)) &&
                              !m.host_matrix
                          ? ", reduced on the GPU"
                          : "";
  std::printf("engine             %s (%s)%s\n", to_string(p.run).c_str(),
              p.algorithm_reason.c_str(), where);
  std::printf("dtype              %s\n", std::string(to_string(p.type)).c_str());
  std::printf("seconds            read %.3f, metrics %.3f\n", in.read_seconds, m.seconds);
  const auto line = [&m](metric x, const char* label, double v) {
    if (contains(m.computed, x))
      std::printf("%-18s %.10g\n", label, v);
  };
  line(metric::reachable_pairs, "reachable pairs", static_cast<double>(m.reachable_pairs));
  line(metric::diameter, "diameter", m.diameter);
  line(metric::radius, "radius", m.radius);
  line(metric::average_path_length, "average path", m.average_path_length);
  line(metric::global_efficiency, "global efficiency", m.global_efficiency);
  if (contains(m.computed, metric::histogram)) {
    std::printf("histogram          %zu bins of width %.10g, %llu below 0\n",
                m.histogram.counts.size(), m.histogram.width,
                static_cast<unsigned long long>(m.histogram.negative));
  }
  if (!a.out.empty())
    std::printf("per vertex         %s\n", a.out.c_str());
}

/// 4. Write (through a partial file, renamed at the end), then report.
void write_and_report(const metrics_args& a, table_kind kind, const loaded_graph& in,
                      const graph_metrics& m) {
  output_files outputs;
  if (!a.out.empty())
    outputs.write(a.out, [&](const auto& partial) { write_table(partial, kind, in, m); });
  if (!a.plot.empty()) {
    outputs.write(a.plot, [&](const auto& partial) {
      write_text_file(partial, histogram_svg(m.histogram, a.in.path));
    });
  }
  outputs.commit();
  if (a.json) {
    nlohmann::ordered_json j = run_json(a, in, m);
    j.update(graph_level_json(m));
    j["output"] = a.out.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(a.out);
    std::printf("%s\n", json_text(j, 2).c_str());
  } else if (!a.quiet) {
    print_summary(a, in, m);
  }
}

} // namespace

int run_metrics(const metrics_args& a) {
  // 1. What can be refused without reading, refused first.
  metrics_options mo;
  mo.which = parse_metrics(a.metrics);
  if (!a.plot.empty()) { // the picture is of the histogram: computed whatever --metrics says
    if (a.plot.size() < 4 || a.plot.compare(a.plot.size() - 4, 4, ".svg") != 0) {
      throw invalid_argument_error("--plot draws the distance histogram as SVG, so its name "
                                   "must end in .svg, not '" +
                                   a.plot + "'");
    }
    check_writable(a.plot);
    mo.which = mo.which | metric::histogram;
  }
  mo.histogram_bins = a.histogram_bins;
  mo.wf_improved = !a.no_wf_improved;
  table_kind kind = table_kind::csv;
  if (!a.out.empty()) {
    kind = output_kind(a.out);
    check_writable(a.out);
  }
  solve_options options = to_solve_options(a.solver);
  warn_about_threads(a.solver);
  if (!under_mpi())
    refuse_grid_outside_mpi(a.solver);
  check_narrow_backend(options);

  const interrupt_scope signals;
  if (under_mpi()) {
    // The ranks reduce their tiles; the first writes what one process writes.
    return metrics_distributed(
        a.in, a.solver, mo, progress_wanted(a.quiet, a.progress),
        [&](const loaded_graph& in, const graph_metrics& m) { write_and_report(a, kind, in, m); });
  }
  if (const auto n = declared_vertices(a.in))
    refuse_declared_memory(a.in, *n, metrics_least_host_bytes(*n, 0, options), "apsp metrics");
  // 2. Read, 3. compute.
  const progress_style shown = progress_wanted(a.quiet, a.progress);
  show_stage(shown, "reading " + a.in.path);
  const loaded_graph in = read_input(keeping_no_matrix(a.in));
  throw_if_interrupted();
  resolve_auto_dtype(options, a.solver, in.file.g);
  mo.progress = make_progress(shown);
  graph_metrics m;
  try {
    m = compute_metrics(in.file.g, options, mo);
  } catch (...) {
    rethrow_for_input(in, options, "computing the metrics of");
  }
  throw_if_interrupted();
  write_and_report(a, kind, in, m);
  return 0;
}

void add_metric_shape_options(CLI::App& cmd, metrics_args& a) {
  cmd.add_option("--histogram-bins", a.histogram_bins, "bins of the distance histogram")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  cmd.add_flag("--no-wf-improved", a.no_wf_improved,
               "closeness without NetworkX's wf_improved scaling by the share of the graph "
               "that reaches the vertex");
}

void add_metrics_command(CLI::App& app, command_action& action) {
  auto args = std::make_shared<metrics_args>();
  CLI::App* cmd = app.add_subcommand(
      "metrics", "centralities and summaries of all-pairs distances, without the n x n matrix");
  add_input_options(*cmd, args->in);
  cmd->add_option("-o,--output", args->out,
                  "per-vertex metrics to write: .csv (a header row 'vertex,...' and one row per "
                  "vertex, in the file's ids), .json (the graph-level values, 'vertices' and one "
                  "array per metric) or .npy (float64, n x k, columns as in the CSV)");
  cmd->add_option("--metrics", args->metrics,
                  "comma-separated: out-eccentricity, in-eccentricity, closeness, harmonic, "
                  "reachable, diameter, radius, average-path-length, global-efficiency, "
                  "reachable-pairs, histogram, or all")
      ->capture_default_str();
  add_metric_shape_options(*cmd, *args);
  add_solver_options(*cmd, args->solver);
  cmd->add_option("--plot", args->plot,
                  "draw the distance histogram (--histogram-bins bins, computed whatever "
                  "--metrics says) as an SVG bar chart in this file (.svg)");
  cmd->add_flag("--json", args->json, "print a JSON summary on stdout instead of the text one");
  add_progress_flags(*cmd, args->quiet, args->progress, "no progress line and no summary");
  cmd->footer(
      "Definitions (NetworkX's where it has the function) in docs/metrics.md. Sparse graphs,\n"
      "and graphs whose n x n matrix would not fit in RAM, run Dijkstra from every source in\n"
      "batches and keep no matrix (road-like graphs with integer weights: the same rows by\n"
      "contraction hierarchy sweeps, PHAST); cuda plans in core reduce the matrix on the GPUs;\n"
      "others solve by Floyd-Warshall in RAM and reduce the matrix. `apsp solve --metrics` runs\n"
      "this.\n"
      "The per-vertex columns, in this order where asked: out-eccentricity, in-eccentricity,\n"
      "closeness, harmonic, reach-out, reach-in. Ctrl-C, SIGTERM or SIGHUP cancels (exit 130,\n"
      "143 or 129) and leaves no output file. Under mpirun the ranks solve by Floyd-Warshall\n"
      "(--grid RxC) and each reduces its own tiles; the first rank writes the outputs.\n\n"
      "Examples:\n"
      "  apsp metrics data/rome99.gr\n"
      "  apsp metrics data/rome99.gr -o rome99-metrics.csv --metrics closeness,harmonic\n"
      "  apsp metrics roads.txt --undirected --dtype float64 -o m.json --json");
  cmd->callback([args, &action] { action = [args] { return run_metrics(*args); }; });
}

} // namespace apsp::cli
