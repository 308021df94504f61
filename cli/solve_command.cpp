// apsp solve: read a graph, solve all pairs, write the distances (and paths), report.

#include <sys/resource.h>

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
#include "plan_json.hpp"
#include "process_exit.hpp"
#include "process_knobs.hpp"
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
  subset_selection subsets; ///< --sources/--targets: a block instead (subset_solve.hpp)
  std::string metrics;      ///< --metrics: the metrics instead (apsp metrics)
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
  refuse(a.csv_labels != csv_labels_choice::unset, "--csv-labels/--no-csv-labels");
  metrics_args m = a.metric_shape;
  m.in = a.in;
  m.solver = a.solver;
  m.out = a.out;
  m.metrics = a.metrics;
  m.json = a.json;
  m.quiet = a.quiet;
  m.progress = a.progress;
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

/// Largest resident set of this process so far (Linux reports KiB).
std::uint64_t peak_memory_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

double updates_per_second(const result& r) {
  const double n = static_cast<double>(r.n());
  const double s = r.timings().solve_seconds;
  return s > 0 ? n * n * n / s : 0.0;
}

void print_json(const solve_args& a, const loaded_graph& in, const result& r,
                const distance_stats& st, const stage_seconds& t) {
  const plan& p = r.executed_plan();
  nlohmann::ordered_json j;
  j["input"] = a.in.path;
  j["format"] = io::to_string(in.file.source_format);
  j["n"] = r.n();
  j["m"] = in.file.g.num_edges();
  j["backend"] = to_string(p.backend);
  j["device"] = p.device;
  j["driver"] = to_string(p.run);
  j["algorithm"] = to_string(p.algorithm);
  j["algorithm_reason"] = p.algorithm_reason;
  j["dtype"] = to_string(r.type());
  j["narrow"] = p.narrow;
  j["block"] = p.block;
  j["rounds"] = p.rounds;
  j["plan"] = plan_json(p); // as `apsp info --json` shows the plan it would run
  j["seconds"] = {{"read", t.read},
                  {"setup", r.timings().setup_seconds},
                  {"solve", r.timings().solve_seconds},
                  {"finish", r.timings().finish_seconds},
                  {"write", t.write}};
  j["updates_per_second"] = updates_per_second(r);
  j["peak_memory_bytes"] = peak_memory_bytes();
  j["reachable_pairs"] = st.reachable_pairs;
  j["distance_sum"] = sum_json(st);
  j["max_distance"] = st.integral ? nlohmann::ordered_json(static_cast<std::int64_t>(st.max))
                                  : nlohmann::ordered_json(st.max);
  const auto path_or_null = [](const std::string& p) {
    return p.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(p);
  };
  j["outputs"] = {{"distances", path_or_null(a.out)}, {"paths", path_or_null(a.paths_out)}};
  std::printf("%s\n", json_text(j, 2).c_str());
}

void print_summary(const solve_args& a, const loaded_graph& in, const result& r,
                   const distance_stats& st, const stage_seconds& t) {
  const plan& p = r.executed_plan();
  const auto n = static_cast<long long>(r.n());
  std::printf("input            %s (%s)\n", a.in.path.c_str(),
              std::string(io::to_string(in.file.source_format)).c_str());
  std::printf("vertices, edges  %lld, %lld\n", n, static_cast<long long>(in.file.g.num_edges()));
  std::printf("back end         %s on %s\n", std::string(to_string(p.backend)).c_str(),
              p.device.c_str());
  std::printf("algorithm        %s (%s)\n",
              p.algorithm == algorithm_kind::johnson      ? "Johnson"
              : p.algorithm == algorithm_kind::supernodal ? "supernodal Floyd-Warshall"
                                                          : "Floyd-Warshall",
              p.algorithm_reason.c_str());
  std::printf("dtype, %s %s%s, %lld (%lld rounds)\n",
              p.algorithm == algorithm_kind::johnson      ? "sources  "
              : p.algorithm == algorithm_kind::supernodal ? "widest   "
                                                          : "tile     ",
              std::string(to_string(r.type())).c_str(),
              p.narrow ? " (packed 16-bit arithmetic)" : "", static_cast<long long>(p.block),
              static_cast<long long>(p.rounds));
  const auto& tm = r.timings();
  std::printf("seconds          read %.3f, setup %.3f, solve %.3f, finish %.3f, write %.3f\n",
              t.read, tm.setup_seconds, tm.solve_seconds, tm.finish_seconds, t.write);
  std::printf("updates/s        %.3g\n", updates_per_second(r));
  std::printf("reachable pairs  %llu of %lld\n",
              static_cast<unsigned long long>(st.reachable_pairs), n > 0 ? n * (n - 1) : 0);
  std::printf("checksum         sum %s, max %s\n", sum_text(st).c_str(),
              st.integral ? std::to_string(static_cast<long long>(st.max)).c_str()
                          : std::to_string(st.max).c_str());
  if (!a.out.empty())
    std::printf("distances        %s\n", a.out.c_str());
  if (!a.paths_out.empty())
    std::printf("paths            %s\n", a.paths_out.c_str());
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
  if (!a.paths_out.empty()) {
    check_paths_output(a.paths_out);
    check_writable(a.paths_out);
    if (!a.out.empty())
      check_distinct_outputs(a.out, a.paths_out);
  }
  // Checkpoints are saved into --checkpoint DIR, or into the --resume DIR.
  if (!a.checkpoint_dir.empty() || !a.resume_dir.empty())
    check_checkpoint_dir(a.checkpoint_dir.empty() ? a.resume_dir : a.checkpoint_dir);
  if (a.map_output && a.out.empty())
    throw invalid_argument_error("--map-output needs -o OUT");
  if (a.map_output && c.out_format == io::format::csv) {
    throw invalid_argument_error("--map-output solves in place in a .npy or course-binary "
                                 "output; '" +
                                 a.out + "' is CSV, written as text after the solve");
  }
  trace("solve: arguments checked");
  solve_options& options = c.options;
  options = to_solve_options(a.solver);
  warn_about_threads(a.solver);
  options.paths = !a.paths_out.empty();
  // A type that the output cannot hold in place is known before the read (auto only after it).
  if (a.map_output && c.out_format == io::format::course_binary && options.type != dtype::int32)
    (void)io::raw_matrix_header(c.out_format, options.type, 1);
  refuse_grid_outside_mpi(a.solver);
  // --resume DIR keeps saving into DIR unless --checkpoint names another directory.
  options.checkpoint_dir = a.checkpoint_dir.empty() ? a.resume_dir : a.checkpoint_dir;
  options.checkpoint_every_seconds = a.checkpoint_every;
  options.resume_dir = a.resume_dir;
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

/// Writes the outputs that were not solved in place, then commits them all together (a signal
/// during the writes removes the partial files instead); returns the seconds it took.
double write_outputs(const solve_args& a, const loaded_graph& in, const result& r,
                     io::format out_format, output_files& outputs,
                     std::optional<in_place_output>& distances_file,
                     std::optional<in_place_output>& paths_file) {
  const stopwatch write_clock;
  // Every output goes to its partial file first; only when all are complete (and no signal
  // came) do they replace their targets, together.
  if (distances_file) {
    distances_file->finish(outputs);
  } else if (!a.out.empty()) {
    outputs.write(a.out, [&](const auto& partial) {
      write_distances(partial, r.distances(), out_format, in.file.labels, a.csv_labels);
    });
  }
  if (paths_file) {
    paths_file->finish(outputs);
  } else if (!a.paths_out.empty()) {
    outputs.write(a.paths_out, [&](const auto& partial) { io::write_via(partial, r.via()); });
  }
  outputs.commit();
  return write_clock.seconds();
}

int run(const solve_args& a) {
  if (!a.metrics.empty())
    return solve_metrics(a);
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
  const io::format out_format = request.out_format;
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
  output_files outputs;
  std::optional<in_place_output> distances_file;
  std::optional<in_place_output> paths_file;
  // Writes into the partial files of `outputs`: declared after it, so joined before it removes
  // them on the way out.
  std::jthread prefill;
  // 2. read.
  const loaded_graph in = read_input(a.in);
  trace("solve: input read");
  t.read = in.read_seconds;
  throw_if_interrupted();
  resolve_auto_dtype(options, a.solver, in.file.g);
  refuse_csv_above_limit(out_format, a.in.path, in.file.g.num_vertices());
  // Where the solve works, in RAM or in its output files: in_place.hpp.
  const std::int64_t n = in.file.g.num_vertices();
  const bool raw_output = out_format == io::format::npy ||
                          (out_format == io::format::course_binary && options.type == dtype::int32);
  const bool mappable = !a.no_map_output && !a.out.empty() && raw_output && n > 0;
  const auto cells = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n);
  const auto make_in_place_outputs = [&] {
    distances_file.emplace(a.out, io::raw_matrix_header(out_format, options.type, n),
                           cells * size_of(options.type), outputs);
    if (!a.map_output) // automatic: said before the file is made, when it is large
      announce_in_place(*distances_file, n, "distance matrix");
    // The path matrix (.npy) follows the distances into a mapped file of its own.
    if (!a.paths_out.empty()) {
      paths_file.emplace(a.paths_out, io::raw_matrix_header(io::format::npy, dtype::int32, n),
                         cells * sizeof(std::int32_t), outputs);
      if (!a.map_output)
        announce_in_place(*paths_file, n, "path matrix");
    }
  };
  // A GPU solve in core works in its output file, whose pages must enter the page cache before
  // the download writes them (the solve faults them in beside its rounds). While the GPU's
  // context is still starting (the warm-up has not returned), they are put there now
  // (prefill_file), and dropped if the plan keeps the matrix in RAM after all.
  const prefill_mode prefill_when = prefill_setting();
  if (mappable && (prefill_when == prefill_mode::always ||
                   (prefill_when == prefill_mode::while_gpu_starts &&
                    warm_up.wait_for(std::chrono::seconds(0)) != std::future_status::ready))) {
    make_in_place_outputs();
    prefill = start_prefill(distances_file->partial, distances_file->bytes(),
                            paths_file ? paths_file->partial : std::filesystem::path(),
                            paths_file ? paths_file->bytes() : 0);
    trace("solve: output prefill started");
  }
  // 3. plan, once (the GPU's context is up): in place or in RAM.
  warm_up.get();
  trace("solve: device warmed up");
  plan p = make_plan(in.file.g, options);
  trace("solve: planned");
  const bool in_place = a.map_output || (mappable && solve_pays_in_place(p, options));
  if (prefill.joinable()) {
    prefill.request_stop(); // what is not in the page cache yet, the solve's prefault does
    prefill.join();
    trace("solve: output prefill joined");
  }
  if (!in_place && distances_file) { // prepared for nothing: no partial file stays
    outputs.discard(distances_file->partial);
    distances_file.reset();
    if (paths_file) {
      outputs.discard(paths_file->partial);
      paths_file.reset();
    }
  }
  if (in_place) {
    if (a.out.empty())
      throw invalid_argument_error("--map-output needs -o OUT");
    if (!distances_file)
      make_in_place_outputs();
    options.distances_file = distances_file->partial;
    options.distances_file_offset = distances_file->header.size();
    if (paths_file) {
      options.paths_file = paths_file->partial;
      options.paths_file_offset = paths_file->header.size();
    }
    count_host_memory(p, options); // the same plan, its outputs now in files
  }
  // The errors of a solve in place name the hidden files it worked in.
  const auto in_place_renames = [&] {
    output_renames renames{{distances_file->partial, distances_file->out}};
    if (paths_file)
      renames.emplace_back(paths_file->partial, paths_file->out);
    return renames;
  };
  // 4. solve.
  const result r = [&] {
    try {
      return solve_input(in, p, options, progress_wanted(a.quiet, a.progress));
    } catch (const out_of_memory_error& e) {
      if (!in_place)
        throw;
      throw out_of_memory_error(with_targets(a.in.path + ": the " + std::to_string(n) + " x " +
                                                 std::to_string(n) +
                                                 " distance matrix was to live in the output file "
                                                 "instead of memory, which failed: " +
                                                 e.what(),
                                             in_place_renames()));
    } catch (...) {
      if (!in_place)
        throw;
      rethrow_naming(in_place_renames()); // the user named OUT (and PATHS), not the partials
    }
  }();
  trace("solve: solved");
  const bool detaches = exit_detaches();
  releaser = release_gpu_when_done(r, result_bytes(n, options), detaches);
  throw_if_interrupted();

  // 5. write, then report.
  t.write = write_outputs(a, in, r, out_format, outputs, distances_file, paths_file);
  trace("solve: written");
  if (!options.checkpoint_dir.empty())
    remove_checkpoint(options.checkpoint_dir); // the output now holds everything it had

  // With neither, nothing is printed: the statistics' pass over the matrix is skipped too.
  if (a.json || !a.quiet) {
    const distance_stats st = compute_stats(r.distances());
    trace("solve: statistics");
    if (a.json)
      print_json(a, in, r, st, t);
    else
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
  cmd->add_flag("--json", args->json, "print a JSON summary on stdout instead of the text one");
  cmd->add_flag("-q,--quiet", args->quiet, "no progress line and no summary");
  cmd->add_flag("--progress", args->progress,
                "show progress even when stderr is not a terminal (a line every 2 s, for logs)")
      ->excludes("--quiet");
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
                  "rank under mpirun)");
  cmd->add_option("--checkpoint-every", args->checkpoint_every,
                  "seconds between checkpoints (0: after every round)")
      ->check(non_negative("after every round", false))
      ->capture_default_str();
  cmd->add_option("--resume", args->resume_dir,
                  "continue from the checkpoint in DIR (same input and options); the output is "
                  "the same, byte for byte, as an uninterrupted solve. Keeps saving into DIR");
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
      "sum of the finite off-diagonal distances) goes to stdout unless --json or --quiet.\n"
      "Progress is drawn on stderr when it is a terminal (with --progress, a line every 2 s\n"
      "otherwise); Ctrl-C, SIGTERM or SIGHUP cancels (exit 130, 143 or 129) and leaves no\n"
      "output file.\n\n"
      "Examples:\n"
      "  apsp solve rome99.gr\n"
      "  apsp solve rome99.gr -o dist.npy --paths via.npy\n"
      "  apsp solve graph.bin -o out.bin                  # course format in and out\n"
      "  apsp solve roads.gr --dtype float32 --backend cpu --threads 2 -o d.npy --json\n"
      "  apsp solve hops.csv --dtype auto               # packed 16-bit on cuda when exact\n"
      "  apsp solve DE.gr --algorithm johnson -o d.bin  # sparse: Dijkstra from every source\n"
      "  apsp solve DE.gr --algorithm supernodal -o d.bin  # road graph: nested dissection\n"
      "  apsp solve edges.csv.gz --weight-column weight -o d.csv\n"
      "  apsp solve roads.txt --undirected -o d.csv     # both ways; CSV with the ids\n"
      "  apsp solve DE.gr --metrics closeness -o c.csv  # no matrix: as apsp metrics");
  cmd->callback([args, &action] { action = [args] { return run(*args); }; });
}

} // namespace apsp::cli
