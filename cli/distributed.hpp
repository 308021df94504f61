#pragma once
// `apsp solve` and `apsp info` as MPI ranks (mpirun -np P apsp ...): every rank reads the input,
// the library's distributed solver does the rest; the first rank prints.

#include <functional>
#include <optional>
#include <string>

#include "apsp/metrics.hpp"
#include "input.hpp"
#include "interrupt.hpp"

namespace apsp::cli {

/// Whether this process is one of several MPI ranks (read from the launcher's environment) and
/// the tool was built with MPI.
[[nodiscard]] bool under_mpi() noexcept;
/// Whether this process prints errors: all but the first of several MPI ranks stay quiet.
[[nodiscard]] bool prints_errors() noexcept;
/// Ends MPI if a command started it, after every rank got here (so the first rank's error line
/// is printed before any rank exits). Call once the command's output and errors are printed.
void finish_mpi() noexcept;
/// Parses "RxC" (e.g. 2x3) into rows and columns; invalid_argument_error otherwise.
void parse_grid(const std::string& text, int& rows, int& cols);

/// The options of `apsp solve` that a distributed solve uses (solve_command.cpp adds the rest).
struct distributed_solve_args : run_args {
  std::string paths_out;
  std::string output_format;
  std::optional<bool> lookahead; ///< unset: the library decides
  std::string rank_cpus = "auto"; ///< --rank-cpus: auto or launcher (distributed::place_ranks)
  std::string checkpoint_dir;
  double checkpoint_every = 600;
  std::string resume_dir;
};

/// Under mpirun with several ranks: throws invalid_argument_error (on every rank alike) for a
/// command that has no distributed mode, which would otherwise run once per rank.
void refuse_without_distributed_mode(const char* command);
/// The solve on all ranks; returns the exit code (errors are thrown alike on every rank).
int solve_distributed(const distributed_solve_args& a);
/// `apsp metrics` on all ranks: every rank reads the input, solves and reduces its own tiles
/// (apsp::distributed::compute_metrics); `report` (the outputs and the summary) runs on the
/// first rank, its failure reaching every rank. Returns the exit code.
int metrics_distributed(
    const input_options& in, const solver_options& solver, metrics_options m,
    progress_style progress,
    const std::function<void(const loaded_graph&, const graph_metrics&)>& report);
/// `apsp info` on all ranks: the grid and the per-rank plan; exit 5 when it does not fit.
int info_distributed(const input_options& in, const solver_options& solver, bool paths, bool json);

} // namespace apsp::cli
