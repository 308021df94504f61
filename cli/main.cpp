// The `apsp` command-line tool: parse, run one subcommand, map errors to exit codes.

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "distributed.hpp"
#include "exit_codes.hpp"
#include "interrupt.hpp"
#include "process_exit.hpp"
#include "timer.hpp"

namespace apsp::cli {
namespace {

constexpr const char* exit_code_table =
    "Exit codes:\n"
    "  0    success\n"
    "  1    internal error (a bug, or a failure of the system underneath, e.g. a write that\n"
    "       fails once under way: disk full)\n"
    "  2    usage error (unknown option, bad value such as --dtype int8, unknown vertex id, an\n"
    "       output that cannot be created: missing directory, no permission, read-only)\n"
    "  3    bad input (unreadable or malformed file, weights that overflow the --dtype)\n"
    "  4    negative cycle (the message names vertices on it, in the file's ids)\n"
    "  5    out of memory (the matrix does not fit in host or device memory; planned from\n"
    "       the vertex count a file's header declares, before its edges are read)\n"
    "  6    back end unavailable (e.g. --backend cuda without a GPU)\n"
    "  7    verification failed (apsp verify)\n"
    "  8    the contraction hierarchy file (solve --hierarchy) does not belong to the graph:\n"
    "       built from another graph, or from this one before it changed, or in another\n"
    "       version of the file format (a damaged or truncated file: 3)\n"
    "  129  cancelled by SIGHUP; no output file is left behind\n"
    "  130  cancelled by SIGINT (Ctrl-C); no output file is left behind\n"
    "  143  cancelled by SIGTERM (kill, timeout, a scheduler); no output file is left behind\n"
    "Every error is one line on stderr starting with 'apsp: error: '.\n\n"
    "Run 'apsp COMMAND --help' for the options and examples of each command.";

int fail(int code, std::string message) {
  close_progress_line();
  for (char& c : message) {
    if (c == '\n' || c == '\r')
      c = ' ';
  }
  if (prints_errors()) // under mpirun the first rank speaks for all
    std::fprintf(stderr, "apsp: error: %s\n", message.c_str());
  return code;
}

/// 128 + the signal that cancelled the command (130 for SIGINT, 143 for SIGTERM, 129 for
/// SIGHUP); 130 for a cancel without one.
int cancelled_exit_code() noexcept {
  const int sig = interrupt_signal();
  return sig != 0 ? 128 + sig : exit_cancelled;
}

int run_action(const command_action& action) {
  try {
    return action();
  } catch (const negative_cycle_error& e) {
    return fail(exit_negative_cycle, e.what());
  } catch (const cancelled_error& e) {
    return fail(cancelled_exit_code(), e.what());
  } catch (const out_of_memory_error& e) {
    return fail(exit_out_of_memory, e.what());
  } catch (const io_error& e) { // a failed write, a full disk
    return fail(exit_internal, e.what());
  } catch (const backend_unavailable_error& e) {
    return fail(exit_backend_unavailable, e.what());
  } catch (const hierarchy_mismatch_error& e) {
    return fail(exit_hierarchy_mismatch, e.what());
  } catch (const invalid_input_error& e) {
    return fail(exit_bad_input, e.what());
  } catch (const invalid_argument_error& e) {
    return fail(exit_usage, e.what());
  } catch (const std::bad_alloc&) {
    return fail(exit_out_of_memory, "out of memory");
  } catch (const std::exception& e) {
    return fail(exit_internal, e.what());
  }
}

} // namespace
} // namespace apsp::cli

int main(int argc, char** argv) {
  using namespace apsp::cli;
  trace("main: entered");
  remember_command_line(argc, argv);
  // A file-size limit (ulimit -f, a scheduler's RLIMIT_FSIZE) would otherwise kill the process
  // with SIGXFSZ mid-write, leaving partial files; ignored, the write fails with EFBIG and the
  // command cleans up and exits 1 (or 5 for an output it was to solve in).
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app("apsp: all-pairs shortest paths by blocked Floyd-Warshall on CPUs and GPUs.");
  app.name("apsp");
  app.set_version_flag("--version", std::string("apsp ") + apsp::version());
  app.require_subcommand(1);
  command_action action;
  add_solve_command(app, action);
  add_path_command(app, action);
  add_paths_command(app, action);
  add_info_command(app, action);
  add_convert_command(app, action);
  add_verify_command(app, action);
  add_metrics_command(app, action);
  add_prepare_command(app, action);
  // Set after the subcommands exist: CLI11 copies the parent's footer into each new one.
  app.footer(std::string("Examples:\n"
                         "  apsp info data/rome99.gr\n"
                         "  apsp solve data/rome99.gr -o dist.npy --paths via.npy\n"
                         "  apsp path data/rome99.gr 1 3353 --json\n"
                         "  apsp paths data/rome99.gr --pairs pairs.txt -o paths.jsonl\n"
                         "  apsp verify data/rome99.gr dist.npy\n"
                         "  apsp metrics data/rome99.gr -o metrics.csv\n"
                         "  apsp convert data/rome99.gr rome99.bin\n\n") +
             exit_code_table);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0)
      return app.exit(e); // --help, --version
    // A first word that names no command reads better as that than as "subcommand required".
    if (argc > 1 && argv[1][0] != '-') {
      std::string names;
      bool known = false;
      for (const CLI::App* c : app.get_subcommands({})) {
        names += (names.empty() ? "" : ", ") + c->get_name();
        known = known || c->check_name(argv[1]);
      }
      if (!known) {
        return fail(exit_usage, "unknown command '" + std::string(argv[1]) +
                                    "' (commands: " + names + "; see 'apsp --help')");
      }
    }
    return fail(exit_usage, std::string(e.what()) + " (see 'apsp --help')");
  }
  if (!action)
    return fail(exit_internal, "no command ran");
  trace("main: command starts");
  const int code = run_action(action);
  finish_mpi(); // under mpirun: every rank waits here until the first printed its error
  // Every output is complete (closed and renamed) here. Leaving without static destructors and
  // the CUDA runtime's teardown, and leaving the driver's teardown to a helper, takes the
  // context's teardown off a whole run on a GPU (process_exit.hpp).
  end_process(code);
}
