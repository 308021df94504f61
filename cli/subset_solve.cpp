#include "subset_solve.hpp"

#include <omp.h>

#include <cstdint>
#include <cstdio>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "apsp/block_io.hpp"
#include "apsp/error.hpp"
#include "apsp/hierarchy.hpp"
#include "apsp/plan.hpp"
#include "apsp/solve.hpp"
#include "apsp/table.hpp"
#include "csv_labels.hpp"
#include "declared_plan.hpp"
#include "input.hpp"
#include "interrupt.hpp"
#include "json_text.hpp"
#include "output.hpp"
#include "solve_summary.hpp"
#include "solver.hpp"
#include "source_batches.hpp"
#include "table_tiles.hpp"
#include "timer.hpp"
#include "vertex_lists.hpp"

namespace apsp::cli {
namespace {

constexpr const char* subsets_option = "--sources/--targets";

/// Whether plan `p` makes the table from a contraction hierarchy (buckets or RPHAST).
bool hierarchy_table(const plan& p) {
  return std::holds_alternative<drivers::ch_table>(p.run) ||
         std::holds_alternative<drivers::rphast_table>(p.run) ||
         std::holds_alternative<drivers::cuda_table>(p.run);
}

/// How the hierarchy's table is made, for the report.
std::string hierarchy_method(const plan& p, std::size_t sources, std::size_t targets) {
  if (std::holds_alternative<drivers::cuda_table>(p.run)) {
    return "RPHAST on the GPU: upward searches from " + std::to_string(sources) +
           " sources, sweeps over the upward closure of " + std::to_string(targets) + " targets";
  }
  if (std::holds_alternative<drivers::rphast_table>(p.run)) {
    return "RPHAST: upward searches from " + std::to_string(sources) +
           " sources, sweeps over the upward closure of " + std::to_string(targets) + " targets";
  }
  return "bucket searches from " + std::to_string(sources) + " sources and " +
         std::to_string(targets) + " targets";
}

/// What the block needs, settled before the input is read.
struct block_request {
  std::vector<written_id> sources; // empty: every vertex
  std::vector<written_id> targets; // empty: every vertex
  io::format out_format = io::format::npy;
  io::format second_format = io::format::npy; // --second-output
  batch_settings settings;
};

block_request validate(const distributed_solve_args& a, const subset_selection& s, bool map_output,
                       csv_labels_choice csv_labels) {
  if (under_mpi())
    throw invalid_argument_error(std::string(subsets_option) + " have no distributed mode");
  const auto refuse = [](bool given, const char* option, const char* why) {
    if (given) {
      throw invalid_argument_error(std::string(option) + " does not apply to " + subsets_option +
                                   ": " + why);
    }
  };
  refuse(!a.paths_out.empty(), "--paths",
         "the path matrix is n x n; use 'apsp paths' for the paths of chosen pairs");
  refuse(map_output, "--map-output", "the block is computed in memory, a batch of rows at a time");
  const bool checkpoints = !a.checkpoint_dir.empty() || !a.resume_dir.empty();
  const char* checkpoint_option = a.resume_dir.empty() ? "--checkpoint" : "--resume";
  refuse(checkpoints && !s.second_weight.empty(), checkpoint_option,
         "the table of two values per cell is made in memory");
  refuse(s.second_weight.empty() != s.second_out.empty(),
         s.second_weight.empty() ? "--second-output" : "--second-weight",
         "--second-weight COLUMN and --second-output FILE go together");
  refuse(!s.second_weight.empty() && s.hierarchy.has_value(), "--second-weight",
         "a prepared hierarchy keeps one weight");
  if (s.hierarchy) {
    refuse(a.solver.backend != "auto" && a.solver.backend != "cpu", "--backend",
           "the prepared hierarchy's table runs on the cpu");
    refuse(a.solver.algorithm != "auto", "--algorithm",
           "--hierarchy names the engine: the prepared contraction hierarchy");
  }
  block_request r;
  r.out_format = checked_distance_output(a.out, a.output_format, csv_labels);
  refuse(checkpoints && (a.out.empty() || r.out_format != io::format::npy), checkpoint_option,
         "a checkpointed table is written tile by tile into -o FILE.npy");
  if (!s.second_out.empty()) {
    r.second_format = checked_distance_output(s.second_out, "", csv_labels);
    if (r.second_format == io::format::course_binary) {
      throw invalid_argument_error("--second-output " + s.second_out +
                                   ": the sums are float64; write them as .npy or .csv");
    }
  }
  refuse_grid_outside_mpi(a.solver);
  r.settings = dijkstra_settings(a.solver, subsets_option, /*engine_options_apply=*/true);
  r.settings.progress = progress_wanted(a.quiet, a.progress);
  if (s.sources)
    r.sources = read_id_list(*s.sources, "--sources");
  if (s.targets)
    r.targets = read_id_list(*s.targets, "--targets");
  return r;
}

/// The vertices of a set as given, or every vertex.
std::vector<std::int64_t> resolve(const loaded_graph& in, const std::vector<written_id>& ids) {
  return ids.empty() ? every_vertex(in.file.g.num_vertices()) : find_vertices(in, ids);
}

/// The rows x cols block, allocated (out_of_memory_error when it cannot be).
io::distance_block allocate_block(const loaded_graph& in, dtype type, std::size_t rows,
                                  std::size_t cols) {
  io::distance_block b;
  b.rows = static_cast<std::int64_t>(rows);
  b.cols = static_cast<std::int64_t>(cols);
  const std::uint64_t bytes = static_cast<std::uint64_t>(rows) * cols * size_of(type);
  const std::uint64_t ram = host_memory_bytes();
  const std::string what = std::to_string(rows) + " x " + std::to_string(cols) + " block";
  if (ram != 0 && bytes > ram) {
    throw out_of_memory_error(in.path + ": cannot solve: the " + what + " needs " +
                              format_bytes(bytes) + " but this machine has " + format_bytes(ram));
  }
  try {
    visit_dtype(type, [&](auto zero) {
      b.values = std::vector<decltype(zero)>(static_cast<std::size_t>(rows) * cols);
    });
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error(in.path + ": out of host memory for the " + what);
  }
  return b;
}

/// Fills `block` (sources x targets) as the plan `p` says: from the contraction hierarchy's
/// table (drivers::ch_table), or from Dijkstra's rows (drivers::block_rows, batches of
/// sources_per_batch(n) searches, with `progress`); returns the plan that ran (Dijkstra's rows
/// where the hierarchy outgrew its budget). Errors name the file and its ids.
plan table_block(const loaded_graph& in, const std::vector<std::int64_t>& sources,
                 const std::vector<std::int64_t>& targets, plan p, solve_options options,
                 progress_style progress, io::distance_block& block) {
  if (auto* rows = std::get_if<drivers::block_rows>(&p.run))
    rows->batch = sources_per_batch(in.file.g.num_vertices());
  options.progress = make_progress(progress);
  const bool hierarchy = hierarchy_table(p);
  try {
    return solve_table_into(in.file.g, sources, targets, p, options, block.values);
  } catch (...) {
    rethrow_for_input(in, options,
                      hierarchy ? "building the contraction hierarchy's table of" : "solving");
  }
}

/// The hierarchy file of --hierarchy, loaded before the graph is read (a damaged file is refused
/// first, exit 3), its errors naming it.
hierarchy load_hierarchy(const std::string& path) {
  try {
    return hierarchy::load(path);
  } catch (const hierarchy_mismatch_error&) {
    throw; // names the file already
  } catch (const invalid_input_error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error(path + ": out of host memory while loading the hierarchy");
  }
}

/// Throws hierarchy_mismatch_error (exit 8), naming both files, unless the prepared hierarchy
/// `h` belongs to the graph read.
void check_prepared(const loaded_graph& in, const std::string& file, const hierarchy& h) {
  try {
    h.check(in.file.g);
  } catch (const hierarchy_mismatch_error& e) {
    throw hierarchy_mismatch_error(file + " and " + in.path + ": " + e.what());
  }
}

/// Rows a tile when the table from a prepared hierarchy does not fit the host memory budget
/// beside the sweeps' lanes (16 values a vertex a thread at most) and the closure's slot map;
/// none when it fits.
std::optional<std::int64_t> prepared_tile_rows(const hierarchy& h, const solve_options& o,
                                               std::size_t rows, std::size_t cols) {
  const std::uint64_t budget = o.host_memory_limit != 0 ? o.host_memory_limit : host_memory_bytes();
  const auto n = static_cast<std::uint64_t>(h.num_vertices());
  const auto threads =
      static_cast<std::uint64_t>(o.threads > 0 ? o.threads : omp_get_max_threads());
  const std::uint64_t working = n * (4 + 16 * size_of(h.type()) * threads);
  const std::uint64_t row_bytes = static_cast<std::uint64_t>(cols) * size_of(h.type());
  if (budget == 0 || row_bytes == 0 || working + rows * row_bytes <= budget)
    return std::nullopt;
  if (budget <= working + row_bytes) {
    throw out_of_memory_error("the prepared hierarchy's table needs more than the " +
                              format_bytes(budget) +
                              " of host memory it may use, even a row "
                              "at a time");
  }
  return static_cast<std::int64_t>((budget - working) / row_bytes);
}

/// Fills `block` (sources x targets) from the prepared hierarchy `h`, after checking that it
/// belongs to the graph read (exit 8 otherwise); returns the plan that ran.
plan prepared_block(const loaded_graph& in, const std::string& file, const hierarchy& h,
                    const std::vector<std::int64_t>& sources,
                    const std::vector<std::int64_t>& targets, int threads,
                    io::distance_block& block) {
  check_prepared(in, file, h);
  table_result r = h.table(sources, targets, threads);
  block.values = std::move(r.distances);
  return r.ran;
}

/// Fills `block` (sources x targets) from the solved matrix `d`.
void cut_block(const any_matrix& d, const std::vector<std::int64_t>& sources,
               const std::vector<std::int64_t>& targets, io::distance_block& block) {
  std::visit(
      [&](auto& out) {
        using T = typename std::decay_t<decltype(out)>::value_type;
        const dense_matrix<T>& m = std::get<dense_matrix<T>>(d);
        for (std::size_t i = 0; i < sources.size(); ++i) {
          const T* row = m.row(sources[i]);
          for (std::size_t j = 0; j < targets.size(); ++j)
            out[i * targets.size() + j] = row[targets[j]];
        }
      },
      block.values);
}

/// Pairs with s != t, and those of them with a finite distance.
struct block_counts {
  std::uint64_t pairs = 0;
  std::uint64_t reachable = 0;
};

block_counts count_pairs(const io::distance_block& block, const std::vector<std::int64_t>& sources,
                         const std::vector<std::int64_t>& targets) {
  block_counts c;
  std::visit(
      [&](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        for (std::size_t i = 0; i < sources.size(); ++i) {
          for (std::size_t j = 0; j < targets.size(); ++j) {
            if (sources[i] == targets[j])
              continue;
            ++c.pairs;
            if (v[i * targets.size() + j] < weight_traits<T>::infinity)
              ++c.reachable;
          }
        }
      },
      block.values);
  return c;
}

struct block_report {
  std::size_t sources = 0;
  std::size_t targets = 0;
  plan chosen;        // core's plan for the block (make_plan(g, options, plan_request::block))
  bool whole = false; // the block is cut from the whole matrix of `chosen`
  bool table = false; // the block is the contraction hierarchy's table (buckets or RPHAST)
  bool from_targets = false;
  std::string hierarchy_file; // --hierarchy: the prepared hierarchy's file
  std::string second_weight;  // --second-weight: the column summed along the paths
  std::string second_out;     // --second-output
  dtype type = dtype::int32;
  block_counts counts;
  std::int64_t resumed_tiles = 0; // --resume: tiles found written already
  double read = 0;
  double solve = 0;
  double write = 0;
};

std::string engine_text(const block_report& r) {
  if (r.whole) {
    return "the whole matrix by " + to_string(r.chosen.run) + ", then the block (" +
           r.chosen.algorithm_reason + ")";
  }
  if (!r.second_weight.empty()) {
    return "Dijkstra on (weight, " + r.second_weight + ") pairs from the " +
           std::to_string(r.sources) + " sources";
  }
  if (!r.hierarchy_file.empty()) {
    return "prepared contraction hierarchy " + r.hierarchy_file + " (" +
           hierarchy_method(r.chosen, r.sources, r.targets) + ")";
  }
  if (r.table)
    return "contraction hierarchy table (" + hierarchy_method(r.chosen, r.sources, r.targets) + ")";
  return r.from_targets
             ? "Dijkstra from the " + std::to_string(r.targets) + " targets on the reversed graph"
             : "Dijkstra from the " + std::to_string(r.sources) + " sources";
}

void print_report(const distributed_solve_args& a, const loaded_graph& in, const block_report& r) {
  const auto n = static_cast<long long>(in.file.g.num_vertices());
  const auto m = static_cast<long long>(in.file.g.num_edges());
  if (a.json) {
    nlohmann::ordered_json j;
    j["input"] = a.in.path;
    j["format"] = io::to_string(in.file.source_format);
    j["n"] = n;
    j["m"] = m;
    j["sources"] = r.sources;
    j["targets"] = r.targets;
    j["engine"] = block_engine(r.chosen);
    j["driver"] = to_string(r.chosen.run);
    j["engine_reason"] = r.chosen.algorithm_reason;
    if (r.chosen.tiled) { // made and written a tile of sources at a time
      j["tiles"] = r.chosen.rounds;
      j["tile_rows"] = r.chosen.block;
      j["resumed_tiles"] = r.resumed_tiles;
    }
    if (!r.hierarchy_file.empty())
      j["hierarchy"] = r.hierarchy_file;
    if (!r.second_weight.empty()) {
      j["second_weight"] = r.second_weight;
      j["second_output"] = r.second_out;
    }
    j["dtype"] = to_string(r.type);
    j["seconds"] = {{"read", r.read}, {"solve", r.solve}, {"write", r.write}};
    // The searches the engine ran: from the smaller set, or every vertex for the whole matrix.
    j["sources_per_second"] = sources_per_second(
        r.whole ? n : static_cast<std::int64_t>(r.from_targets ? r.targets : r.sources), r.solve);
    j["pairs"] = r.counts.pairs;
    j["reachable_pairs"] = r.counts.reachable;
    j["output"] = a.out.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(a.out);
    std::printf("%s\n", json_text(j, 2).c_str());
    return;
  }
  std::printf("input            %s (%s)\n", a.in.path.c_str(),
              std::string(io::to_string(in.file.source_format)).c_str());
  std::printf("vertices, edges  %lld, %lld\n", n, m);
  std::printf("block            %zu sources x %zu targets\n", r.sources, r.targets);
  std::printf("engine           %s%s\n", engine_text(r).c_str(), r.whole ? "" : " (cpu)");
  std::printf("dtype            %s\n", std::string(to_string(r.type)).c_str());
  std::printf("seconds          read %.3f, solve %.3f, write %.3f\n", r.read, r.solve, r.write);
  std::printf("reachable pairs  %llu of %llu\n",
              static_cast<unsigned long long>(r.counts.reachable),
              static_cast<unsigned long long>(r.counts.pairs));
  if (!a.out.empty())
    std::printf("distances        %s\n", a.out.c_str());
  if (!r.second_out.empty())
    std::printf("%-17s%s (sums along the same paths)\n", r.second_weight.c_str(),
                r.second_out.c_str());
}

/// Once the block is solved: writes it (-o) and prints the report; returns the exit code.
/// `second` (--second-output, or nullptr) is written beside it, the two renamed together.
int finish_block(const distributed_solve_args& a, const loaded_graph& in,
                 const block_request& request, csv_labels_choice csv_labels,
                 const std::vector<std::int64_t>& sources, const std::vector<std::int64_t>& targets,
                 const io::distance_block& block, block_report& report,
                 const io::distance_block* second = nullptr) {
  output_files outputs;
  trace("solve: solved");
  const stopwatch write_clock;
  const auto write = [&](const std::string& out, io::format f, const io::distance_block& b) {
    std::vector<std::string> row_ids;
    std::vector<std::string> col_ids;
    if (f == io::format::csv && csv_labels != csv_labels_choice::off) {
      for (const std::int64_t v : sources)
        row_ids.push_back(in.file.labels.label(v));
      for (const std::int64_t v : targets)
        col_ids.push_back(in.file.labels.label(v));
    }
    outputs.write(out,
                  [&](const auto& partial) { io::write_block(partial, b, f, row_ids, col_ids); });
  };
  if (!a.out.empty())
    write(a.out, request.out_format, block);
  if (second != nullptr)
    write(report.second_out, request.second_format, *second);
  if (!a.out.empty() || second != nullptr) {
    outputs.commit();
    report.write = write_clock.seconds();
    trace("solve: written");
  }
  if (a.json || !a.quiet) {
    report.counts = count_pairs(block, sources, targets);
    print_report(a, in, report);
  }
  return 0;
}

/// A table made and written in tiles (plan::tiled, or --checkpoint/--resume): into -o FILE.npy,
/// never held whole, by the planned engine or from `prepared` (--hierarchy, checked against the
/// graph already); returns the exit code.
int solve_in_tiles(const distributed_solve_args& a, const loaded_graph& in,
                   const block_request& request, const std::vector<std::int64_t>& sources,
                   const std::vector<std::int64_t>& targets, const solve_options& options,
                   block_report& report, const hierarchy* prepared = nullptr) {
  plan p = report.chosen;
  if (a.out.empty() || request.out_format != io::format::npy) {
    throw out_of_memory_error(in.path + ": the " + std::to_string(sources.size()) + " x " +
                              std::to_string(targets.size()) +
                              " table does not fit the host memory (" +
                              (p.reason.empty() ? "it is made in tiles" : p.reason) +
                              "): give -o FILE.npy to write it tile by tile");
  }
  if (!p.tiled) { // --checkpoint on a table that fits: tiles, so that checkpoints save some
    p.tiled = true;
    p.block = checkpoint_tile_rows(static_cast<std::int64_t>(sources.size()));
    p.rounds = (static_cast<std::int64_t>(sources.size()) + p.block - 1) / p.block;
  }
  if (auto* rows = std::get_if<drivers::block_rows>(&p.run))
    rows->from_targets = false; // a tile is rows of sources
  tiled_table_request r;
  r.out = a.out;
  r.checkpoint_dir = a.resume_dir.empty() ? a.checkpoint_dir : a.resume_dir;
  r.resume = !a.resume_dir.empty();
  r.checkpoint_every = a.checkpoint_every;
  r.progress = request.settings.progress;
  tiled_table_counts counts;
  const stopwatch solve_clock;
  const tile_maker make = [&](table_tile_sink& sink, const progress_callback& progress) {
    if (prepared != nullptr) {
      return prepared->table_tiles(sources, targets, options.threads, p.block, sink, progress);
    }
    solve_options o = options;
    o.progress = progress;
    return solve_table_tiles(in.file.g, sources, targets, p, o, sink);
  };
  try {
    report.chosen = solve_tiled_table(in.file.g, sources, targets, p, make, r, counts);
  } catch (const cancelled_error&) {
    throw;
  } catch (...) {
    rethrow_for_input(in, options, "solving");
  }
  report.solve = solve_clock.seconds();
  report.table = hierarchy_table(report.chosen);
  report.whole = false;
  report.from_targets = false;
  report.counts = {counts.pairs, counts.reachable};
  report.resumed_tiles = counts.resumed_tiles;
  if (a.json || !a.quiet)
    print_report(a, in, report);
  return 0;
}

} // namespace

std::string block_engine(const plan& p) {
  if (std::holds_alternative<drivers::ch_table>(p.run))
    return "contraction_hierarchy_table";
  if (std::holds_alternative<drivers::rphast_table>(p.run))
    return "rphast_table";
  if (std::holds_alternative<drivers::cuda_table>(p.run))
    return "cuda_rphast_table";
  const auto* rows = std::get_if<drivers::block_rows>(&p.run);
  return rows == nullptr      ? "whole_matrix"
         : rows->from_targets ? "dijkstra_from_targets"
                              : "dijkstra_from_sources";
}

void add_subset_options(CLI::App& cmd, subset_selection& s) {
  cmd.add_option(
      "--sources", s.sources,
      "only the rows of these vertices: ids as the file writes them, comma-separated "
      "(1,5,9), or @FILE (ids separated by whitespace or commas, '#' comments); solved as the "
      "planner's cost model says: a contraction hierarchy's table (road-like graphs, integer "
      "weights: RPHAST's restricted sweeps or its bucket searches, RPHAST on the GPU with "
      "--backend cuda), Dijkstra from the smaller set, or the whole matrix in memory (a dense "
      "graph, many sources, --algorithm fw, or --backend cuda where the GPU makes no table)");
  cmd.add_option("--targets", s.targets,
                 "only the columns of these vertices (same forms); alone, or when fewer than the "
                 "sources, Dijkstra runs from them on the reversed graph");
  cmd.add_option("--hierarchy", s.hierarchy,
                 "with --sources/--targets: the table from the contraction hierarchy that `apsp "
                 "prepare` saved in FILE, in its dtype, instead of building one; refused (exit 8) "
                 "when it belongs to another graph, to this one before it changed, or to another "
                 "version of the format, and (exit 3) when damaged");
  cmd.add_option("--second-weight", s.second_weight,
                 "with --sources/--targets: a second weight column of the CSV input (e.g. length "
                 "beside travel time); along the paths the weights choose (of equal ones, the "
                 "least sum), its sums go to --second-output (float64); integer --dtype");
  cmd.add_option("--second-output", s.second_out,
                 "with --second-weight: where the sums go (.npy float64, inf where no path; or "
                 ".csv)");
}

int solve_subsets(const distributed_solve_args& a, const subset_selection& s, bool map_output,
                  csv_labels_choice csv_labels) {
  block_request request = validate(a, s, map_output, csv_labels);
  if (const auto n = declared_vertices(a.in)) {
    // At the least one row of Dijkstra's and the block asked for (every vertex where a set is
    // not given).
    source_options least;
    least.type = request.settings.type;
    const auto count = [&](const std::vector<written_id>& ids) {
      return static_cast<std::uint64_t>(ids.empty() ? *n : static_cast<std::int64_t>(ids.size()));
    };
    // With -o FILE.npy a table larger than memory is written in tiles: only the rows count.
    const std::uint64_t block =
        !a.out.empty() && request.out_format == io::format::npy
            ? 0
            : count(request.sources) * count(request.targets) * size_of(least.type);
    refuse_declared_memory(a.in, *n, source_rows_host_bytes(*n, 0, 1, least) + block,
                           std::string("apsp solve ") + subsets_option);
  }
  trace("solve: arguments checked");
  const sigint_scope sigint;
  block_report report;
  std::optional<hierarchy> prepared;
  if (s.hierarchy)
    prepared.emplace(load_hierarchy(*s.hierarchy));
  input_options reading = keeping_no_matrix(a.in);
  reading.second_column = s.second_weight;
  const loaded_graph in = read_input(reading);
  report.read = in.read_seconds;
  throw_if_interrupted();
  solve_options resolved = to_solve_options(a.solver);
  resolve_auto_dtype(resolved, a.solver, in.file.g);
  if (prepared) {
    if (s.dtype_given && resolved.type != prepared->type()) {
      throw invalid_argument_error("--dtype " + a.solver.type + " does not match " + *s.hierarchy +
                                   ", prepared for " + std::string(to_string(prepared->type())) +
                                   " (apsp prepare --dtype)");
    }
    resolved.type = prepared->type();
  }
  request.settings.type = resolved.type;
  const std::vector<std::int64_t> sources = resolve(in, request.sources);
  const std::vector<std::int64_t> targets = resolve(in, request.targets);
  if (!a.out.empty() && request.out_format == io::format::csv &&
      sources.size() * targets.size() > std::uint64_t{100000000}) {
    throw invalid_argument_error("CSV output is limited to 10^8 distances (" +
                                 std::to_string(sources.size()) + " x " +
                                 std::to_string(targets.size()) + " asked); use .npy or .bin");
  }
  report.sources = sources.size();
  report.targets = targets.size();
  report.type = request.settings.type;
  if (!s.second_weight.empty()) {
    io::distance_block block =
        allocate_block(in, request.settings.type, sources.size(), targets.size());
    const stopwatch solve_clock;
    table_result r = [&] {
      try {
        return solve_table_along(in.file.g, in.file.second, sources, targets, resolved);
      } catch (...) {
        rethrow_for_input(in, resolved, "solving");
      }
    }();
    report.solve = solve_clock.seconds();
    report.chosen = r.ran;
    report.second_weight = s.second_weight;
    report.second_out = s.second_out;
    block.values = std::move(r.distances);
    const io::distance_block second{block.rows, block.cols, std::move(r.second)};
    return finish_block(a, in, request, csv_labels, sources, targets, block, report, &second);
  }
  if (prepared) {
    report.hierarchy_file = *s.hierarchy;
    const std::optional<std::int64_t> tile_rows =
        prepared_tile_rows(*prepared, resolved, sources.size(), targets.size());
    if (tile_rows || !a.checkpoint_dir.empty() || !a.resume_dir.empty()) {
      check_prepared(in, *s.hierarchy, *prepared);
      report.chosen.type = prepared->type();
      report.chosen.tiled = tile_rows.has_value();
      report.chosen.block = tile_rows.value_or(0);
      return solve_in_tiles(a, in, request, sources, targets, resolved, report, &*prepared);
    }
    io::distance_block block =
        allocate_block(in, request.settings.type, sources.size(), targets.size());
    const stopwatch solve_clock;
    report.chosen =
        prepared_block(in, *s.hierarchy, *prepared, sources, targets, resolved.threads, block);
    report.solve = solve_clock.seconds();
    report.table = true;
    report.hierarchy_file = *s.hierarchy;
    return finish_block(a, in, request, csv_labels, sources, targets, block, report);
  }
  // The core chooses: rows from the smaller set (the targets' on the reversed graph), or the
  // whole matrix (whose supernodal analysis, when auto weighs it, is a stage of the progress).
  solve_options planning = resolved;
  planning.progress = make_progress(request.settings.progress);
  report.chosen =
      make_plan(in.file.g, planning,
                plan_request::block(
                    request.sources.empty() ? -1 : static_cast<std::int64_t>(sources.size()),
                    request.targets.empty() ? -1 : static_cast<std::int64_t>(targets.size())));
  if (!a.checkpoint_dir.empty() || !a.resume_dir.empty() || report.chosen.tiled)
    return solve_in_tiles(a, in, request, sources, targets, resolved, report);
  io::distance_block block =
      allocate_block(in, request.settings.type, sources.size(), targets.size());
  const auto* rows = std::get_if<drivers::block_rows>(&report.chosen.run);
  report.table = hierarchy_table(report.chosen);
  report.whole = rows == nullptr && !report.table;
  report.from_targets = rows != nullptr && rows->from_targets;
  if (!report.whole && a.solver.block != 0)
    print_warning(report.table ? "--block is ignored: the contraction hierarchy's table takes no "
                                 "tile"
                               : "--block is ignored: Dijkstra's rows for --sources/--targets "
                                 "take no tile");
  const stopwatch solve_clock;
  if (report.whole) {
    const result whole = solve_input(in, report.chosen, resolved, request.settings.progress);
    cut_block(whole.distances(), sources, targets, block);
  } else {
    report.chosen = table_block(in, sources, targets, report.chosen, resolved,
                                request.settings.progress, block);
    report.table = hierarchy_table(report.chosen);
    if (const auto* ran = std::get_if<drivers::block_rows>(&report.chosen.run))
      report.from_targets = ran->from_targets;
  }
  report.solve = solve_clock.seconds();
  return finish_block(a, in, request, csv_labels, sources, targets, block, report);
}

} // namespace apsp::cli
