// apsp paths: the distance and one shortest path of each chosen pair, by Dijkstra from the
// pairs' distinct sources, a batch of them at a time (memory O(batch x n), never n x n).

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "apsp/block_io.hpp"
#include "apsp/error.hpp"
#include "apsp/result.hpp"
#include "commands.hpp"
#include "declared_plan.hpp"
#include "distributed.hpp"
#include "input.hpp"
#include "interrupt.hpp"
#include "json_text.hpp"
#include "output.hpp"
#include "source_batches.hpp"
#include "vertex_lists.hpp"

namespace apsp::cli {
namespace {

struct paths_args {
  input_options in;
  solver_options solver;
  std::string pairs;
  std::optional<std::string> sources;
  std::optional<std::string> targets;
  std::string out;
  bool quiet = false;
  bool progress = false;
};

enum class paths_format { jsonl, csv };

paths_format output_format(const std::string& out) {
  const auto ends_with = [&](const char* suffix) { return out.ends_with(suffix); };
  if (out.empty() || ends_with(".jsonl") || ends_with(".json"))
    return paths_format::jsonl;
  if (ends_with(".csv"))
    return paths_format::csv;
  throw invalid_argument_error("cannot tell the format of '" + out +
                               "' from its suffix: use .jsonl (JSON lines) or .csv");
}

/// The pairs as written, from --pairs FILE or every pair of --sources x --targets.
std::vector<std::pair<written_id, written_id>> written_pairs(const paths_args& a) {
  if (!a.pairs.empty()) {
    if (a.sources || a.targets)
      throw invalid_argument_error("--pairs excludes --sources and --targets");
    return read_pairs(a.pairs);
  }
  if (!a.sources || !a.targets)
    throw invalid_argument_error("give --pairs FILE, or both --sources and --targets");
  const auto sources = read_id_list(*a.sources, "--sources");
  const auto targets = read_id_list(*a.targets, "--targets");
  std::vector<std::pair<written_id, written_id>> pairs;
  pairs.reserve(sources.size() * targets.size());
  for (const written_id& s : sources) {
    for (const written_id& t : targets)
      pairs.emplace_back(s, t);
  }
  return pairs;
}

/// The vertices of the shortest path from `s` to `t` in a predecessor row, s first; empty when
/// t is unreachable. A walk longer than n steps would be a broken row: an internal error.
std::vector<std::int64_t> walk_back(const std::int32_t* pred, std::int64_t n, std::int64_t s,
                                    std::int64_t t) {
  std::vector<std::int64_t> path{t};
  for (std::int64_t v = t; v != s;) {
    v = pred[v];
    if (v == no_predecessor)
      return {};
    if (v < 0 || v >= n || static_cast<std::int64_t>(path.size()) > n)
      throw std::logic_error("a broken predecessor row from vertex " + std::to_string(s));
    path.push_back(v);
  }
  return {path.rbegin(), path.rend()};
}

/// One output line (without its line end) for a pair.
class line_writer {
public:
  line_writer(const loaded_graph& in, paths_format f)
      : labels_(in.file.labels), numbers_(ids_are_numbers(in)), format_(f) {}

  [[nodiscard]] std::string operator()(std::int64_t s, std::int64_t t, const any_rows& d,
                                       std::size_t at,
                                       const std::vector<std::int64_t>& path) const {
    if (format_ == paths_format::csv) {
      std::string ids;
      for (std::size_t k = 0; k < path.size(); ++k)
        ids += (k ? " " : "") + labels_.label(path[k]);
      return io::csv_text_field(labels_.label(s)) + "," + io::csv_text_field(labels_.label(t)) +
             "," + distance_text(d, at) + "," + (ids.empty() ? "" : io::csv_text_field(ids));
    }
    // Key order and spacing as `apsp path --json`, so the object is written by hand.
    std::string text = "{\"source\": " + id(s) + ", \"target\": " + id(t) +
                       ", \"distance\": " + json_text(distance_json(d, at)) + ", \"path\": [";
    for (std::size_t k = 0; k < path.size(); ++k)
      text += (k ? ", " : "") + id(path[k]);
    return text + "]}";
  }

private:
  [[nodiscard]] std::string id(std::int64_t v) const {
    return json_text(label_json(labels_, v, numbers_));
  }
  const io::vertex_labels& labels_;
  bool numbers_;
  paths_format format_;
};

/// The text of every pair, in the order given: Dijkstra with predecessors from each distinct
/// source, a batch at a time.
std::vector<std::string> pair_lines(const loaded_graph& in,
                                    const std::vector<std::pair<std::int64_t, std::int64_t>>& pairs,
                                    const batch_settings& settings, const line_writer& line) {
  std::vector<std::int64_t> sources;               // distinct, in order of first appearance
  std::vector<std::vector<std::size_t>> of_source; // the pairs of each
  std::unordered_map<std::int64_t, std::size_t> slot;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const auto [it, added] = slot.try_emplace(pairs[p].first, sources.size());
    if (added) {
      sources.push_back(pairs[p].first);
      of_source.emplace_back();
    }
    of_source[it->second].push_back(p);
  }
  const std::int64_t n = in.file.g.num_vertices();
  std::vector<std::string> lines(pairs.size());
  for_each_batch(
      in, in.file.g, sources, settings, [&](std::size_t first, const source_result& rows) {
        for (std::size_t k = 0; k < rows.sources.size(); ++k) {
          const std::int32_t* pred = rows.predecessors.data() + k * static_cast<std::size_t>(n);
          for (const std::size_t p : of_source[first + k]) {
            const auto [s, t] = pairs[p];
            const std::size_t at = k * static_cast<std::size_t>(n) + static_cast<std::size_t>(t);
            lines[p] = line(s, t, rows.distances, at, walk_back(pred, n, s, t));
          }
        }
      });
  return lines;
}

void write_lines(const std::filesystem::path& p, paths_format f,
                 const std::vector<std::string>& lines) {
  std::FILE* file = std::fopen(p.c_str(), "wb");
  if (file == nullptr)
    throw io_error("cannot write " + p.string() + ": " + std::strerror(errno));
  bool ok = f != paths_format::csv || std::fputs("source,target,distance,path\n", file) >= 0;
  for (const std::string& line : lines)
    ok = ok && std::fputs(line.c_str(), file) >= 0 && std::fputc('\n', file) != EOF;
  const int saved = errno;
  ok = std::fclose(file) == 0 && ok;
  if (!ok) {
    throw io_error("cannot write " + p.string() + ": " + std::strerror(saved != 0 ? saved : errno));
  }
}

int run(const paths_args& a) {
  refuse_without_distributed_mode("paths");
  refuse_grid_outside_mpi(a.solver);
  const paths_format format = output_format(a.out);
  if (!a.out.empty())
    check_writable(a.out);
  batch_settings settings = dijkstra_settings(a.solver, "paths");
  settings.predecessors = true;
  settings.progress = progress_wanted(a.quiet, a.progress);
  const auto written = written_pairs(a);
  if (const auto n = declared_vertices(a.in)) {
    source_options least; // one row with its predecessors, searched on one thread
    least.type = settings.type;
    least.predecessors = true;
    refuse_declared_memory(a.in, *n, source_rows_host_bytes(*n, 0, 1, least), "apsp paths");
  }
  const sigint_scope sigint;
  output_files outputs;
  const loaded_graph in = read_input(keeping_no_matrix(a.in));
  throw_if_interrupted();
  solve_options resolved = to_solve_options(a.solver);
  resolve_auto_dtype(resolved, a.solver, in.file.g);
  settings.type = resolved.type;
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
  pairs.reserve(written.size());
  for (const auto& [s, t] : written)
    pairs.emplace_back(find_vertices(in, {s}).front(), find_vertices(in, {t}).front());
  const std::vector<std::string> lines = pair_lines(in, pairs, settings, line_writer(in, format));
  if (a.out.empty()) {
    for (const std::string& line : lines)
      std::printf("%s\n", line.c_str());
    return 0;
  }
  outputs.write(a.out, [&](const auto& partial) { write_lines(partial, format, lines); });
  outputs.commit();
  return 0;
}

} // namespace

void add_paths_command(CLI::App& app, command_action& action) {
  auto args = std::make_shared<paths_args>();
  CLI::App* cmd =
      app.add_subcommand("paths", "distances and shortest paths of chosen pairs (JSON lines, CSV)");
  add_input_options(*cmd, args->in);
  cmd->add_option("--pairs", args->pairs,
                  "file of pairs, one 'SRC DST' per line (whitespace or a comma between them, ids "
                  "as the file writes them, '#' comments)");
  cmd->add_option("--sources", args->sources,
                  "with --targets: every pair of these sources and targets (comma-separated ids, "
                  "or @FILE)");
  cmd->add_option("--targets", args->targets, "with --sources: the targets (same forms)");
  cmd->add_option("-o,--output", args->out,
                  "write to this file: .jsonl (one JSON object per line) or .csv "
                  "(source,target,distance,path); without it, JSON lines on stdout");
  add_solver_options(*cmd, args->solver);
  add_progress_flags(*cmd, args->quiet, args->progress, "no progress line");
  cmd->footer(
      "Each pair gives {\"source\": S, \"target\": T, \"distance\": D, \"path\": [S, ..., T]}\n"
      "in the order given (distance null and path [] when T is unreachable). Solved by\n"
      "Dijkstra from the pairs' distinct sources (Bellman-Ford potentials first when a weight\n"
      "is negative), a batch of sources at a time; a negative cycle anywhere refuses (exit 4).\n\n"
      "Examples:\n"
      "  apsp paths data/rome99.gr --pairs pairs.txt -o paths.jsonl\n"
      "  apsp paths data/rome99.gr --sources 1,2 --targets 3353 -o paths.csv\n"
      "  apsp paths data/c_elegans_hermaphrodite/edgelist.csv.gz --pairs pairs.txt");
  cmd->callback([args, &action] { action = [args] { return run(*args); }; });
}

} // namespace apsp::cli
