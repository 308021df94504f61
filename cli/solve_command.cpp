// apsp solve: read a graph, solve all pairs, write the distances (and paths), report.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "apsp/solve.hpp"
#include "commands.hpp"
#include "csv_labels.hpp"
#include "declared_plan.hpp"
#include "distributed.hpp"
#include "gpu_process.hpp"
#include "in_place.hpp"
#include "input.hpp"
#include "interrupt.hpp"
#include "json_text.hpp"
#include "metrics_command.hpp"
#include "output.hpp"
#include "process_exit.hpp"
#include "process_knobs.hpp"
#include "solve_request.hpp"
#include "solve_summary.hpp"
#include "solver.hpp"
#include "stats.hpp"
#include "subset_solve.hpp"
#include "timer.hpp"

namespace apsp::cli {
namespace {

/// What `apsp solve` was asked; the distributed solve takes the shared part as it is.
struct solve_args : distributed_solve_args {
  bool map_output = false;
  bool no_map_output = false;
  csv_labels_choice csv_labels = csv_labels_choice::unset;
  subset_selection subsets;  ///< --sources/--targets: a block instead (subset_solve.hpp)
  std::string metrics;       ///< --metrics: the metrics instead (apsp metrics)
  metrics_args metric_shape; ///< its --histogram-bins and --no-wf-improved
};

/// `apsp solve --metrics LIST`: `apsp metrics` with the same input, solver and -o (a metrics
/// table), refusing what only a matrix has.
int solve_metrics(const solve_args& a) {
  const auto refuse = [](bool given, const char* option) {
    if (given) {
      throw invalid_argument_error(std::string(option) +
                                   " does not apply with --metrics, which keeps no matrix");
    }
  };
  refuse(!a.paths_out.empty(), "--paths");
  refuse(!a.output_format.empty(), "--output-format");
  refuse(!a.checkpoint_dir.empty(), "--checkpoint");
  refuse(!a.resume_dir.empty(), "--resume");
  refuse(a.map_output, "--map-output");
  refuse(a.no_map_output, "--no-map-output");
  refuse(a.subsets.given(), "--sources/--targets");
  refuse(a.subsets.hierarchy.has_value(), "--hierarchy");
  refuse(!a.subsets.second_weight.empty(), "--second-weight");
  refuse(a.csv_labels != csv_labels_choice::unset, "--csv-labels/--no-csv-labels");
  metrics_args m = a.metric_shape;
  static_cast<run_args&>(m) = a;
  m.metrics = a.metrics;
  return run_metrics(m);
}

/// CSV distance matrices are for small graphs (a text row per vertex); refused with exit 2.
void refuse_csv_above_limit(io::format out_format, const std::string& input, std::int64_t n) {
  if (out_format == io::format::csv && n > 10000) {
    throw invalid_argument_error("CSV output is limited to 10000 vertices (" + input + " has " +
                                 std::to_string(n) + "); use .npy or .bin");
  }
}

struct stage_seconds {
  double read = 0;
  double write = 0;
};

/// How one process ran, as the text summary's lines: its back end, algorithm and tile.
std::string one_process_lines(const plan& p, dtype type) {
  std::string lines =
      summary_line("back end", std::string(to_string(p.backend)) + " on " + p.device);
  lines += summary_line("algorithm", std::string(p.algorithm == algorithm_kind::johnson ? "Johnson"
                                                 : p.algorithm == algorithm_kind::supernodal
                                                     ? "supernodal Floyd-Warshall"
                                                     : "Floyd-Warshall") +
                                         " (" + p.algorithm_reason + ")");
  const char* unit = p.algorithm == algorithm_kind::johnson      ? "dtype, sources"
                     : p.algorithm == algorithm_kind::supernodal ? "dtype, widest"
                                                                 : "dtype, tile";
  lines += summary_line(unit, std::string(to_string(type)) +
                                  (p.narrow ? " (packed 16-bit arithmetic)" : "") + ", " +
                                  std::to_string(static_cast<long long>(p.block)) + " (" +
                                  std::to_string(static_cast<long long>(p.rounds)) + " rounds)");
  return lines;
}

/// The summary on stdout: JSON with --json, else text.
void print_summary(const solve_args& a, const loaded_graph& in, const result& r,
                   const distance_stats& st, const stage_seconds& t) {
  const plan& p = r.executed_plan();
  solve_summary s;
  s.input = a.in.path;
  s.format = in.file.source_format;
  s.n = r.n();
  s.m = in.file.g.num_edges();
  s.ran = &p;
  s.backend = to_string(p.backend);
  s.type = r.type();
  s.read_seconds = t.read;
  s.setup_seconds = r.timings().setup_seconds;
  s.solve_seconds = r.timings().solve_seconds;
  s.finish_seconds = r.timings().finish_seconds;
  s.write_seconds = t.write;
  s.reachable_pairs = st.reachable_pairs;
  s.distance_sum = sum_json(st);
  s.max_distance = st.integral ? nlohmann::ordered_json(static_cast<std::int64_t>(st.max))
                               : nlohmann::ordered_json(st.max);
  s.distance_sum_text = sum_text(st);
  s.max_distance_text =
      st.integral ? std::to_string(static_cast<long long>(st.max)) : std::to_string(st.max);
  s.distances_out = a.out;
  s.paths_out = a.paths_out;
  if (a.json)
    std::printf("%s\n", json_text(solve_summary_json(s), 2).c_str());
  else
    std::fputs(solve_summary_text(s, one_process_lines(p, r.type())).c_str(), stdout);
}

/// What `apsp solve` settled before reading: the output's format, the library options and the
/// vertex count the file declares (unknown_n when it declares none).
struct checked_request {
  io::format out_format = io::format::npy;
  solve_options options;
  std::int64_t declared = unknown_n;
};

/// Everything that can be refused without reading or solving, refused first.
checked_request validate(const solve_args& a) {
  checked_request c;
  c.out_format = checked_distance_output(a.out, a.output_format, a.csv_labels);
  check_paths_and_checkpoints(a);
  if (a.map_output && a.out.empty())
    throw invalid_argument_error("--map-output needs -o OUT");
  if (a.map_output && c.out_format == io::format::csv) {
    throw invalid_argument_error("--map-output solves in place in a .npy or course-binary "
                                 "output; '" +
                                 a.out + "' is CSV, written as text after the solve");
  }
  trace("solve: arguments checked");
  solve_options& options = c.options;
  options = solve_options_of(a);
  warn_about_threads(a.solver);
  // A type that the output cannot hold in place is known before the read (auto only after it).
  if (a.map_output && c.out_format == io::format::course_binary && options.type != dtype::int32)
    (void)io::raw_matrix_header(c.out_format, options.type, 1);
  refuse_grid_outside_mpi(a.solver);
  // The vertex count the file declares, for the GPU's set-up before the read.
  io::read_options peek;
  if (!a.in.format.empty())
    peek.fmt = io::parse_format(a.in.format);
  const std::optional<std::int64_t> header_n = io::peek_vertex_count(a.in.path, peek);
  c.declared = header_n.value_or(unknown_n);
  if (header_n) {
    refuse_csv_above_limit(c.out_format, a.in.path, *header_n); // before a long read
    const bool raw_output =
        c.out_format == io::format::npy ||
        (c.out_format == io::format::course_binary && options.type == dtype::int32);
    const bool mappable = !a.no_map_output && !a.out.empty() && raw_output;
    refuse_declared_matrix(a.in, *header_n, result_bytes(*header_n, options),
                           mappable ? a.out : std::string());
  }
  return c;
}

/// The files `apsp solve` writes: staged as partial files in `outputs` (renamed together at the
/// end, removed on failure) and, when the solve works inside them (in_place.hpp), the
/// distances' and paths' mapped files. The prefill writes into the partial files: declared
/// after `outputs`, it is joined before they are removed on the way out.
class solve_outputs {
public:
  solve_outputs(const solve_args& a, io::format out_format) : a_(a), out_format_(out_format) {}

  /// After the read, before the plan: whether the solve may work in its outputs (in RAM
  /// otherwise), and, while the GPU's context is still starting (`warm_up` not ready), their
  /// pages put in the page cache (prefill_file), dropped if the plan keeps the matrix in RAM
  /// after all: a GPU solve in core works in its output file, whose pages must enter the page
  /// cache before the download writes them (the solve faults them in beside its rounds).
  void prepare(std::int64_t n, const solve_options& options, std::future<void>& warm_up) {
    n_ = n;
    type_ = options.type;
    const bool raw_output =
        out_format_ == io::format::npy ||
        (out_format_ == io::format::course_binary && options.type == dtype::int32);
    mappable_ = !a_.no_map_output && !a_.out.empty() && raw_output && n > 0;
    const prefill_mode prefill_when = prefill_setting();
    if (mappable_ && (prefill_when == prefill_mode::always ||
                      (prefill_when == prefill_mode::while_gpu_starts &&
                       warm_up.wait_for(std::chrono::seconds(0)) != std::future_status::ready))) {
      make_in_place_files();
      prefill_ = start_prefill(distances_file_->partial, distances_file_->bytes(),
                               paths_file_ ? paths_file_->partial : std::filesystem::path(),
                               paths_file_ ? paths_file_->bytes() : 0);
      trace("solve: output prefill started");
    }
  }

  /// Once planned: whether the solve works in its output files (--map-output, or where it
  /// pays for `p`); if so, `options` name them and `p` counts them, else no partial file
  /// prepared for it stays.
  bool settle(plan& p, solve_options& options) {
    in_place_ = a_.map_output || (mappable_ && solve_pays_in_place(p, options));
    if (prefill_.joinable()) {
      prefill_.request_stop(); // what is not in the page cache yet, the solve's prefault does
      prefill_.join();
      trace("solve: output prefill joined");
    }
    if (!in_place_ && distances_file_) { // prepared for nothing: no partial file stays
      outputs_.discard(distances_file_->partial);
      distances_file_.reset();
      if (paths_file_) {
        outputs_.discard(paths_file_->partial);
        paths_file_.reset();
      }
    }
    if (in_place_) {
      if (a_.out.empty())
        throw invalid_argument_error("--map-output needs -o OUT");
      if (!distances_file_)
        make_in_place_files();
      options.distances_file = distances_file_->partial;
      options.distances_file_offset = distances_file_->header.size();
      if (paths_file_) {
        options.paths_file = paths_file_->partial;
        options.paths_file_offset = paths_file_->header.size();
      }
      count_host_memory(p, options); // the same plan, its outputs now in files
    }
    return in_place_;
  }

  /// In a catch block around the solve: the errors of a solve in place name the files the user
  /// named (OUT and PATHS), not the partial files it worked in, and its failure to map them
  /// says so; other errors go on unchanged.
  [[noreturn]] void rethrow_solve_error() const {
    try {
      throw;
    } catch (const out_of_memory_error& e) {
      if (!in_place_)
        throw;
      const std::string n = std::to_string(n_) + " x " + std::to_string(n_);
      throw out_of_memory_error(with_targets(
          a_.in.path + ": the " + n +
              (paths_file_ ? " distance and path matrices were to live in their output files"
                           : " distance matrix was to live in the output file") +
              " instead of memory, which failed: " + e.what(),
          in_place_renames()));
    } catch (...) {
      if (!in_place_)
        throw;
      rethrow_naming(in_place_renames());
    }
  }

  /// Writes the outputs that were not solved in place, then commits them all together (a
  /// signal during the writes removes the partial files instead); returns the seconds it took.
  double write(const loaded_graph& in, const result& r) {
    const stopwatch write_clock;
    // Every output goes to its partial file first; only when all are complete (and no signal
    // came) do they replace their targets, together.
    if (distances_file_) {
      distances_file_->finish(outputs_);
    } else if (!a_.out.empty()) {
      outputs_.write(a_.out, [&](const auto& partial) {
        write_distances(partial, r.distances(), out_format_, in.file.labels, a_.csv_labels);
      });
    }
    if (paths_file_) {
      paths_file_->finish(outputs_);
    } else if (!a_.paths_out.empty()) {
      outputs_.write(a_.paths_out, [&](const auto& partial) { io::write_via(partial, r.via()); });
    }
    outputs_.commit();
    return write_clock.seconds();
  }

private:
  void make_in_place_files() {
    const auto cells = static_cast<std::uint64_t>(n_) * static_cast<std::uint64_t>(n_);
    distances_file_.emplace(a_.out, io::raw_matrix_header(out_format_, type_, n_),
                            cells * size_of(type_), outputs_);
    if (!a_.map_output) // automatic: said before the file is made, when it is large
      announce_in_place(*distances_file_, n_, "distance matrix");
    // The path matrix (.npy) follows the distances into a mapped file of its own.
    if (!a_.paths_out.empty()) {
      paths_file_.emplace(a_.paths_out, io::raw_matrix_header(io::format::npy, dtype::int32, n_),
                          cells * sizeof(std::int32_t), outputs_);
      if (!a_.map_output)
        announce_in_place(*paths_file_, n_, "path matrix");
    }
  }

  [[nodiscard]] output_renames in_place_renames() const {
    output_renames renames{{distances_file_->partial, distances_file_->out}};
    if (paths_file_)
      renames.emplace_back(paths_file_->partial, paths_file_->out);
    return renames;
  }

  const solve_args& a_;
  io::format out_format_;
  std::int64_t n_ = 0;
  dtype type_ = dtype::int32;
  bool mappable_ = false;
  bool in_place_ = false;
  output_files outputs_;
  std::optional<in_place_output> distances_file_;
  std::optional<in_place_output> paths_file_;
  std::jthread prefill_;
};

int run(const solve_args& a) {
  if (!a.metrics.empty())
    return solve_metrics(a);
  if (!a.subsets.second_weight.empty() && !a.subsets.given()) {
    throw invalid_argument_error("--second-weight gives tables: it needs --sources and/or "
                                 "--targets");
  }
  if (a.subsets.hierarchy && !a.subsets.given()) {
    throw invalid_argument_error("--hierarchy gives tables: it needs --sources and/or --targets "
                                 "(apsp solve GRAPH --sources S --targets T --hierarchy FILE)");
  }
  if (a.subsets.given())
    return solve_subsets(a, a.subsets, a.map_output, a.csv_labels);
  if (under_mpi()) {
    if (a.map_output) {
      throw invalid_argument_error("--map-output does not apply under mpirun: the ranks write "
                                   "their blocks of the outputs with MPI-IO");
    }
    return solve_distributed(a);
  }
  // 1. validate (nothing read yet), and start the GPU while the input is read.
  checked_request request = validate(a);
  solve_options& options = request.options;
  narrow_cuda_queues(request.declared, options);
  refuse_unavailable_cuda(options);
  check_narrow_backend(options);
  trace("solve: back ends listed");
  auto warm_up = start_gpu_warm_up(options, request.declared);

  // Joined last, after the solve's data is freed (release_gpu_when_done).
  std::jthread releaser;
  // Destroyed just before the releaser is joined: stamps the end of the freeing (APSP_TRACE).
  const struct freed_stamp {
    freed_stamp() = default;
    freed_stamp(const freed_stamp&) = delete;
    freed_stamp& operator=(const freed_stamp&) = delete;
    ~freed_stamp() { trace("solve: data freed"); }
  } freed;
  const sigint_scope sigint;
  stage_seconds t;
  solve_outputs outputs(a, request.out_format);
  // 2. read.
  const progress_style shown = progress_wanted(a.quiet, a.progress);
  show_stage(shown, "reading " + a.in.path);
  const loaded_graph in = read_input(a.in);
  trace("solve: input read");
  t.read = in.read_seconds;
  throw_if_interrupted();
  resolve_auto_dtype(options, a.solver, in.file.g);
  refuse_csv_above_limit(request.out_format, a.in.path, in.file.g.num_vertices());
  const std::int64_t n = in.file.g.num_vertices();
  outputs.prepare(n, options, warm_up);
  // 3. plan, once (the GPU's context is up): in place or in RAM.
  warm_up.get();
  trace("solve: device warmed up");
  plan p = plan_showing_stages(in.file.g, options, shown);
  trace("solve: planned");
  (void)outputs.settle(p, options);
  // 4. solve.
  const result r = [&] {
    try {
      return solve_input(in, p, options, shown);
    } catch (...) {
      outputs.rethrow_solve_error();
    }
  }();
  trace("solve: solved");
  const bool detaches = exit_detaches();
  releaser = release_gpu_when_done(r, result_bytes(n, options), detaches);
  throw_if_interrupted();

  // 5. write, then report.
  if (!a.out.empty())
    show_stage(shown, "writing " + a.out);
  t.write = outputs.write(in, r);
  trace("solve: written");
  if (!options.checkpoint_dir.empty())
    remove_checkpoint(options.checkpoint_dir); // the output now holds everything it had

  // With neither, nothing is printed: the statistics' pass over the matrix is skipped too.
  if (a.json || !a.quiet) {
    const distance_stats st = compute_stats(r.distances());
    trace("solve: statistics");
    print_summary(a, in, r, st, t);
    trace("solve: summary printed"); // what follows until "command done": freeing the solve's data
  }
  // The helper that takes the exit's teardown also takes the freeing of the solve's data (the
  // output's mapping, the graph), time that grows with n and would otherwise be on the
  // command's time (measured: docs/dev/benchmark-log.md, 'Figures from code comments'). The
  // outputs are complete and renamed.
  if (detaches) {
    if (releaser.joinable()) // the GPU's memory is free when the command ends
      releaser.join();
    end_process(0);
  }
  return 0;
}

} // namespace

void add_solve_command(CLI::App& app, command_action& action) {
  auto args = std::make_shared<solve_args>();
  CLI::App* cmd = app.add_subcommand("solve", "solve all pairs and write the distance matrix");
  add_input_options(*cmd, args->in);
  cmd->add_option("-o,--output", args->out,
                  "distance matrix to write: .npy (its dtype), .bin/.course (course binary, "
                  "int32, unreachable = 1073741823) or .csv");
  cmd->add_option("--paths", args->paths_out,
                  "also write the path matrix as .npy (int32 via vertex, -1 = none)");
  cmd->add_option("--output-format", args->output_format,
                  "format of -o, overriding its suffix: npy, course-binary or csv")
      ->check(format_name());
  add_csv_labels_options(*cmd, args->csv_labels);
  add_subset_options(*cmd, args->subsets);
  cmd->add_option("--metrics", args->metrics,
                  "compute these metrics instead of writing the matrix, as `apsp metrics` does "
                  "(-o then names the metrics file: .csv, .json or .npy): out-eccentricity, "
                  "in-eccentricity, closeness, harmonic, reachable, diameter, radius, "
                  "average-path-length, global-efficiency, reachable-pairs, histogram, or all");
  add_metric_shape_options(*cmd, args->metric_shape);
  add_solver_options(*cmd, args->solver);
  const CLI::Option* dtype_option = cmd->get_option("--dtype");
  cmd->add_flag("--json", args->json, "print a JSON summary on stdout instead of the text one");
  add_progress_flags(*cmd, args->quiet, args->progress, "no progress line and no summary");
  cmd->add_flag("--map-output", args->map_output,
                "solve inside the output file (memory-mapped) instead of RAM, and the path matrix "
                "inside the --paths file; automatic when the distance matrix does not fit in RAM, "
                "the solve runs in GPU memory or by Johnson's algorithm, or by the supernodal "
                "Floyd-Warshall with outputs within the kernel's dirty-page limit (vm.dirty_ratio "
                "of RAM, 20 % by default) (.npy, or course-binary with int32)");
  cmd->add_flag("--no-map-output", args->no_map_output,
                "keep the distance (and path) matrix in RAM and write it at the end, even where "
                "--map-output would be automatic")
      ->excludes("--map-output");
  cmd->add_option("--checkpoint", args->checkpoint_dir,
                  "save the solve's state in DIR at a round boundary, every --checkpoint-every "
                  "seconds and when cancelled (SIGINT, SIGTERM, SIGHUP); removed after success "
                  "(cpu back end, cuda on one GPU or several, in core or out of core, and every "
                  "rank under mpirun). Checkpoints hold Floyd-Warshall rounds: auto runs it and "
                  "warns, with both estimates, where it would have chosen another engine. Exit "
                  "5 when one checkpoint does not fit the free space; a failed save is a "
                  "warning and the solve goes on. With --sources/--targets and -o FILE.npy: "
                  "the table is written in tiles and DIR lists those on the disk");
  cmd->add_option("--checkpoint-every", args->checkpoint_every,
                  "seconds between checkpoints (0: after every round)")
      ->check(non_negative("after every round", false))
      ->capture_default_str();
  cmd->add_option("--resume", args->resume_dir,
                  "continue from the checkpoint in DIR (same input and options); the output is "
                  "the same, byte for byte, as an uninterrupted solve. Keeps saving into DIR. "
                  "With --sources/--targets: only the table's tiles not on the disk yet");
  cmd->add_flag_callback(
      "--lookahead", [args] { args->lookahead = true; },
      "under mpirun: compute the next round's pivot and panels, and start their broadcasts, "
      "ahead of the bulk update (default, except for GPU ranks on one node whose panels all "
      "travel GPU to GPU, from n = 50,000 on, where it measured slower)");
  cmd->add_flag_callback(
      "--no-lookahead", [args] { args->lookahead = false; },
      "under mpirun: no look-ahead (see --lookahead)");
  cmd->add_option("--rank-cpus", args->rank_cpus,
                  "under mpirun: auto (ranks that the launcher left on the same CPUs take a share "
                  "each, nearest their GPU, for all their threads; a launcher's binding is kept) "
                  "or launcher (keep the launcher's placement as it is)")
      ->check(CLI::IsMember({"auto", "launcher"}))
      ->capture_default_str();
  cmd->footer(
      "A summary (n, m, back end, times, updates/s, reachable pairs and a checksum: the exact\n"
      "sum of the finite off-diagonal distances) goes to stdout unless --json or --quiet;\n"
      "--json adds sources_per_second and the plan. Progress is drawn on stderr when it is a\n"
      "terminal (with --progress, a line every 2 s otherwise), each stage named on its own\n"
      "line (reading, ordering the graph, building a hierarchy, writing); Ctrl-C, SIGTERM or\n"
      "SIGHUP cancels (exit 130, 143 or 129) and leaves no output file.\n\n"
      "Examples:\n"
      "  apsp solve data/rome99.gr\n"
      "  apsp solve data/rome99.gr -o dist.npy --paths via.npy\n"
      "  apsp solve graph.bin -o out.bin                  # course format in and out\n"
      "  apsp solve roads.gr --dtype float32 --backend cpu --threads 2 -o d.npy --json\n"
      "  apsp solve hops.csv --dtype auto               # packed 16-bit on cuda when exact\n"
      "  apsp solve DE.gr --algorithm johnson -o d.bin  # sparse: Dijkstra from every source\n"
      "  apsp solve DE.gr --algorithm supernodal -o d.bin  # road graph: nested dissection\n"
      "  apsp solve edges.csv.gz --weight-column weight -o d.csv\n"
      "  apsp solve roads.txt --undirected -o d.csv     # both ways; CSV with the ids\n"
      "  apsp solve DE.gr --metrics closeness -o c.csv  # no matrix: as apsp metrics\n"
      "  apsp prepare DE.gr -o DE.ch                    # a hierarchy kept for many tables\n"
      "  apsp solve DE.gr --sources @s.txt --targets @t.txt --hierarchy DE.ch -o t.npy");
  cmd->callback([args, dtype_option, &action] {
    args->subsets.dtype_given = dtype_option->count() > 0;
    action = [args] { return run(*args); };
  });
}

} // namespace apsp::cli
