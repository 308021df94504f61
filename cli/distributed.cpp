#include "distributed.hpp"

#include <cstdio>
#include <cstdlib>
#include <optional>

#include <nlohmann/json.hpp>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "checkpoint_checks.hpp"
#include "exit_codes.hpp"
#include "interrupt.hpp"
#include "json_text.hpp"
#include "output.hpp"
#include "plan_json.hpp"
#include "solve_request.hpp"
#include "solve_summary.hpp"
#include "solver.hpp"

#if APSP_CLI_HAS_MPI
#include "apsp/distributed.hpp"
#endif

namespace apsp::cli {

bool under_mpi() noexcept {
#if APSP_CLI_HAS_MPI
  return distributed::launched_size() > 1;
#else
  return false;
#endif
}

bool prints_errors() noexcept {
  if (!under_mpi())
    return true;
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"}) {
    if (const char* v = std::getenv(name))
      return std::atoi(v) == 0;
  }
  return true;
}

void refuse_without_distributed_mode(const char* command) {
  if (under_mpi()) {
    throw invalid_argument_error("apsp " + std::string(command) +
                                 " has no distributed mode; run it without mpirun (one process)");
  }
}

void parse_grid(const std::string& text, int& rows, int& cols) {
  int r = 0;
  int c = 0;
  char x = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &r, &x, &c, &extra) != 3 || (x != 'x' && x != 'X') ||
      r < 1 || c < 1) {
    throw invalid_argument_error("--grid takes ROWSxCOLS, e.g. 2x2, not '" + text + "'");
  }
  rows = r;
  cols = c;
}

#if APSP_CLI_HAS_MPI
namespace {

std::optional<distributed::session> started;

/// MPI for the rest of the process, started by the first command that needs it.
const distributed::session& mpi_session() {
  if (!started)
    started.emplace();
  return *started;
}

/// A negative cycle found by the ranks names vertices on cycles; one process also names one
/// cycle in order with its weight. On the first rank (the one that prints) Johnson's
/// potentials on the edges find it, as in one process (their Bellman-Ford stops at the cycle).
negative_cycle_error with_cycle(const negative_cycle_error& e, const graph& g, bool look) {
  if (!look || !e.cycle().empty())
    return e;
  solve_options o;
  o.backend = backend_kind::cpu;
  o.algorithm = algorithm_kind::johnson;
  o.type = dtype::float64;
  try {
    (void)solve(g, o);
  } catch (const negative_cycle_error& found) {
    if (!found.cycle().empty()) {
      return negative_cycle_error(e.what(), e.vertices(), found.cycle(), found.cycle_weight());
    }
  } catch (const error&) {
  }
  return e;
}

/// After a cancel every rank reports the signal that reached some rank (the lowest such rank's),
/// with its exit code, whichever rank it reached.
void agree_on_signal(const distributed::session& s) {
  try {
    s.agree([] {
      if (interrupt_signal() != 0)
        throw cancelled_error(std::to_string(interrupt_signal()));
    });
  } catch (const cancelled_error& e) {
    adopt_signal(std::atoi(e.what()));
  }
}

distributed::options grid_options(const solver_options& solver) {
  const algorithm_kind algorithm = parse_algorithm(solver.algorithm);
  if (algorithm == algorithm_kind::johnson || algorithm == algorithm_kind::supernodal) {
    throw invalid_argument_error("--algorithm " + std::string(to_string(algorithm)) +
                                 " runs in one process (the cpu back end); under mpirun the "
                                 "ranks run Floyd-Warshall");
  }
  distributed::options d;
  if (!solver.grid.empty())
    parse_grid(solver.grid, d.grid_rows, d.grid_cols);
  return d;
}

/// The distributed plan in the text summary's lines (`apsp info` and `apsp solve` under mpirun).
std::string plan_text(const plan& p) {
  const auto& ranks = std::get<drivers::distributed>(p.run);
  char grid[96];
  std::snprintf(grid, sizeof grid, "%d ranks, grid %dx%d, ", ranks.ranks, ranks.grid_rows,
                ranks.grid_cols);
  std::string text = summary_line("distributed", grid + p.device);
  text += summary_line("driver", to_string(p.run));
  text += summary_line("tiles", std::to_string(static_cast<long long>(p.block)) + " (" +
                                    std::to_string(static_cast<long long>(p.rounds)) + " rounds)");
  text +=
      summary_line("memory per rank",
                   format_bytes(p.host_bytes) + " (up to " + std::to_string(ranks.ranks_per_node) +
                       " ranks per node, node memory " + format_bytes(ranks.node_memory) + ")" +
                       (p.fits ? "" : ": does not fit"));
  if (ranks.gpu)
    text += summary_line("GPU memory/rank", format_bytes(p.device_bytes));
  return text;
}

nlohmann::ordered_json traffic_json(const distributed::traffic& t) {
  return {{"sent_messages", t.sent_messages},
          {"sent_bytes", t.sent_bytes},
          {"received_messages", t.received_messages},
          {"received_bytes", t.received_bytes}};
}

/// Every rank's report: where it ran, where its time went, what it sent, its busiest threads.
nlohmann::ordered_json rank_reports_json(const std::vector<distributed::rank_report>& ranks) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const distributed::rank_report& r : ranks) {
    nlohmann::ordered_json j;
    j["rank"] = r.rank;
    j["host"] = r.host;
    j["cpus"] = r.cpus;
    j["placement"] = r.placement;
    j["computes_on"] = r.computes_on;
    j["seconds"] = {{"rounds", r.rounds_seconds},
                    {"compute", r.compute_seconds},
                    {"communication", r.communication_seconds},
                    {"wait", r.wait_seconds},
                    {"download", r.download_seconds}};
    j["traffic"] = {{"pivots", traffic_json(r.pivots)},
                    {"panels", traffic_json(r.panels)},
                    {"device", traffic_json(r.device)},
                    {"waits", r.waits},
                    {"agreements", r.agreements}};
    nlohmann::ordered_json threads = nlohmann::ordered_json::array();
    for (const distributed::thread_group& t : r.threads) {
      threads.push_back({{"name", t.name},
                         {"threads", t.threads},
                         {"cpu_seconds", t.cpu_seconds},
                         {"voluntary_switches", t.voluntary_switches},
                         {"involuntary_switches", t.involuntary_switches},
                         {"migrations", t.migrations}});
    }
    j["busiest_threads"] = threads;
    all.push_back(j);
  }
  return all;
}

} // namespace

void finish_mpi() noexcept {
  if (started) {
    started->barrier();
    started.reset();
  }
}

int info_distributed(const input_options& in_opts, const solver_options& solver, bool paths,
                     bool json) {
  const distributed::session& s = mpi_session();
  std::optional<loaded_graph> in;
  s.agree([&] { in.emplace(read_input(in_opts)); });
  solve_options o = to_solve_options(solver);
  o.paths = paths;
  resolve_auto_dtype(o, solver, in->file.g); // --dtype auto: the type the solve would take
  plan p;
  s.agree(
      [&] { p = distributed::make_plan(s, in->file.g.num_vertices(), o, grid_options(solver)); });
  if (s.rank() == 0) {
    if (json) {
      nlohmann::ordered_json j;
      j["file"] = in->path;
      j["n"] = in->file.g.num_vertices();
      j["m"] = in->file.g.num_edges();
      j["dtype"] = to_string(o.type);
      j["paths"] = paths;
      j["plan"] = plan_json(p);
      j["distributed"] = j["plan"]; // the same object, under the name it had before the plan
      std::printf("%s\n", json_text(j, 2).c_str());
    } else {
      std::printf("file             %s (%s)\n", in->path.c_str(),
                  std::string(io::to_string(in->file.source_format)).c_str());
      std::printf("vertices, edges  %lld, %lld\n",
                  static_cast<long long>(in->file.g.num_vertices()),
                  static_cast<long long>(in->file.g.num_edges()));
      std::printf("plans for        %s%s\n", std::string(to_string(o.type)).c_str(),
                  paths ? " with paths" : "");
      std::fputs(plan_text(p).c_str(), stdout);
    }
  }
  if (!p.fits) {
    throw out_of_memory_error(in->path + ": the distributed solve does not fit: " + p.reason);
  }
  return 0;
}

int metrics_distributed(
    const input_options& in_opts, const solver_options& solver, metrics_options m,
    progress_style progress,
    const std::function<void(const loaded_graph&, const graph_metrics&)>& report) {
  const distributed::session& s = mpi_session();
  (void)distributed::place_ranks(s, distributed::placement_mode::automatic,
                                 solver.backend != "cpu");
  std::optional<loaded_graph> in;
  solve_options o;
  distributed::options d;
  s.agree([&] {
    o = to_solve_options(solver);
    d = grid_options(solver);
    in.emplace(read_input(keeping_no_matrix(in_opts)));
    resolve_auto_dtype(o, solver, in->file.g);
    if (o.narrow == narrow_mode::when_safe)
      o.narrow = narrow_mode::off; // ranks compute in plain int32
  });
  m.progress = make_progress(s.rank() == 0 ? progress : progress_style::none);
  graph_metrics r;
  try {
    r = distributed::compute_metrics(s, in->file.g, o, m, d);
  } catch (const negative_cycle_error& e) {
    rethrow_in_file_ids(with_cycle(e, in->file.g, s.rank() == 0), *in);
  } catch (const cancelled_error&) {
    agree_on_signal(s);
    rethrow_for_input(*in, o, "computing the metrics of");
  } catch (...) {
    rethrow_for_input(*in, o, "computing the metrics of");
  }
  s.agree([&] {
    if (s.rank() == 0)
      report(*in, r);
  });
  return 0;
}

int solve_distributed(const distributed_solve_args& a) {
  const distributed::session& s = mpi_session();
  // Before anything starts threads of its own (the reading's, CUDA's, NCCL's): those that
  // exist already are moved too, but later ones inherit the placement.
  const distributed::placement placed =
      distributed::place_ranks(s,
                               a.rank_cpus == "launcher" ? distributed::placement_mode::off
                                                         : distributed::placement_mode::automatic,
                               a.solver.backend != "cpu");
  if (s.rank() == 0 && progress_wanted(a.quiet, a.progress) != progress_style::none)
    std::fprintf(stderr, "apsp: rank 0 of %d runs on %s (every rank's in --json)\n", s.size(),
                 placed.how.c_str());
  io::format out_format = io::format::npy;
  std::optional<loaded_graph> in;
  solve_options o;
  distributed::options d;
  const interrupt_scope signals;
  s.agree([&] {
    if (!a.out.empty()) {
      out_format = matrix_output_format(a.out, a.output_format);
      APSP_EXPECTS(out_format != io::format::csv, invalid_argument_error,
                   "under mpirun the distances are written with MPI-IO as .npy or course binary "
                   "(int32), not " +
                       a.out);
      check_writable(a.out);
    } else if (!a.output_format.empty()) {
      throw invalid_argument_error("--output-format needs -o OUT");
    }
    check_paths_and_checkpoints(a);
    o = solve_options_of(a);
    d = grid_options(a.solver);
    d.lookahead = a.lookahead;
    d.distances_file = a.out;
    d.distances_format = out_format;
    d.paths_file = a.paths_out;
    in.emplace(read_input(a.in));
    resolve_auto_dtype(o, a.solver, in->file.g);
    if (out_format == io::format::course_binary && o.type != dtype::int32) {
      throw invalid_argument_error(
          "under mpirun course-binary output holds int32 distances only (every rank writes its "
          "blocks of the file as they are); write " +
          std::string(to_string(o.type)) + " distances as .npy");
    }
    if (o.narrow == narrow_mode::when_safe)
      o.narrow = narrow_mode::off; // ranks compute in plain int32
  });
  // One checkpoint's size against the free space of its directory's file system, as one
  // process checks it, before any rank allocates: the first rank checks (the ranks share the
  // directory), every rank exits 5 with its message.
  if (!o.checkpoint_dir.empty()) {
    s.agree([&] {
      const plan planned = distributed::make_plan(s, in->file.g.num_vertices(), o, d);
      if (s.rank() == 0)
        check_checkpoint_space(planned, o);
    });
  }
  // Progress lines from the first rank; every rank stops on its own signals.
  o.progress =
      make_progress(s.rank() == 0 ? progress_wanted(a.quiet, a.progress) : progress_style::none);
  // Every output is complete in its partial file here; a signal that came during the writes
  // still cancels (the test hook pauses here, as one process pauses after its last write).
  const int outputs = (a.out.empty() ? 0 : 1) + (a.paths_out.empty() ? 0 : 1);
  d.commit_outputs = [outputs] {
    test_pause_after_output(outputs);
    return !interrupted();
  };
  distributed::summary r;
  try {
    r = distributed::solve(s, in->file.g, o, d);
  } catch (const negative_cycle_error& e) {
    rethrow_in_file_ids(with_cycle(e, in->file.g, s.rank() == 0), *in);
  } catch (const cancelled_error&) {
    agree_on_signal(s);
    throw cancelled_error(interrupted_text() + " while solving " + in->path + " on " +
                          std::to_string(s.size()) + " ranks; no output was written" +
                          (o.checkpoint_dir.empty()
                               ? std::string()
                               : "; resume with --resume " + o.checkpoint_dir.string()));
  } catch (const overflow_risk_error& e) {
    throw overflow_risk_error(with_file(e.what(), in->path));
  } catch (const invalid_input_error& e) {
    throw invalid_input_error(with_file(e.what(), in->path));
  }
  if (!o.checkpoint_dir.empty() && s.rank() == 0)
    remove_checkpoint(o.checkpoint_dir);
  if (s.rank() != 0 || a.quiet)
    return 0;
  const auto& p = r.plan;
  solve_summary common;
  common.input = a.in.path;
  common.format = in->file.source_format;
  common.n = p.n;
  common.m = in->file.g.num_edges();
  common.ran = &p;
  common.backend = "distributed";
  common.type = o.type;
  common.read_seconds = in->read_seconds;
  common.setup_seconds = r.setup_seconds;
  common.solve_seconds = r.solve_seconds;
  common.finish_seconds = r.finish_seconds;
  common.write_seconds = r.write_seconds;
  common.reachable_pairs = r.reachable_pairs;
  common.distance_sum = r.integral ? nlohmann::ordered_json::parse(r.distance_sum)
                                   : nlohmann::ordered_json(std::stod(r.distance_sum));
  common.max_distance = r.integral
                            ? nlohmann::ordered_json(static_cast<std::int64_t>(r.max_distance))
                            : nlohmann::ordered_json(r.max_distance);
  common.distance_sum_text = r.distance_sum;
  common.max_distance_text = r.integral ? std::to_string(static_cast<long long>(r.max_distance))
                                        : std::to_string(r.max_distance);
  common.distances_out = a.out;
  common.paths_out = a.paths_out;
  if (a.json) {
    // The ranks' own keys, after the common ones.
    nlohmann::ordered_json ranks;
    if (!r.exchange.empty())
      ranks["exchange"] = r.exchange;
    ranks["ranks"] = s.size();
    ranks["grid"] = plan_json(p)["grid"];
    ranks["lookahead"] = r.lookahead;
    if (!r.exchange.empty())
      ranks["connect_seconds"] = r.connect_seconds;
    ranks["rank_bytes"] = p.host_bytes;
    ranks["slowest_rank"] = r.slowest_rank;
    ranks["rank_reports"] = rank_reports_json(r.ranks);
    std::printf("%s\n", json_text(solve_summary_json(common, ranks), 2).c_str());
    return 0;
  }
  // How the ranks ran, and each rank's times, in the text summary's lines.
  std::string how = plan_text(p);
  if (!r.exchange.empty()) {
    char exchange[160];
    std::snprintf(exchange, sizeof exchange, " (connected in %.3f s, during setup)",
                  r.connect_seconds);
    how += summary_line("exchange", r.exchange + exchange);
  }
  how += summary_line("look-ahead", r.lookahead ? "on" : "off");
  how += summary_line("dtype", std::string(to_string(o.type)));
  std::string per_rank;
  for (const distributed::rank_report& k : r.ranks) {
    char line[400];
    std::snprintf(line, sizeof line,
                  "rank %-11d compute %.3f s, communication %.3f s, wait %.3f s on %s, CPUs %s%s\n",
                  k.rank, k.compute_seconds, k.communication_seconds, k.wait_seconds,
                  k.computes_on.c_str(), k.cpus.c_str(),
                  k.rank == r.slowest_rank && r.ranks.size() > 1 ? " (slowest)" : "");
    per_rank += line;
  }
  std::fputs(solve_summary_text(common, how, per_rank).c_str(), stdout);
  return 0;
}

#else

void finish_mpi() noexcept {}

int solve_distributed(const distributed_solve_args&) {
  throw backend_unavailable_error("this apsp was built without MPI");
}
int info_distributed(const input_options&, const solver_options&, bool, bool) {
  throw backend_unavailable_error("this apsp was built without MPI");
}
int metrics_distributed(const input_options&, const solver_options&, metrics_options,
                        progress_style,
                        const std::function<void(const loaded_graph&, const graph_metrics&)>&) {
  throw backend_unavailable_error("this apsp was built without MPI");
}

#endif

} // namespace apsp::cli
