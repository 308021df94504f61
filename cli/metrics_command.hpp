#pragma once
// `apsp metrics`, and `apsp solve --metrics`, which runs the same.

#include <string>

#include <CLI/CLI.hpp>

#include "input.hpp"
#include "solver.hpp"

namespace apsp::cli {

/// What `apsp metrics` was asked.
struct metrics_args : run_args {
  std::string plot; ///< --plot FILE.svg: the distance histogram as a picture
  std::string metrics = "all";
  int histogram_bins = 32;
  bool no_wf_improved = false;
};

/// --histogram-bins and --no-wf-improved (--metrics is each command's own: its default differs).
void add_metric_shape_options(CLI::App& cmd, metrics_args& a);

/// The metrics run: validate, read, compute (no n x n matrix kept where the engine allows),
/// write -o through a partial file, report; returns the exit code.
int run_metrics(const metrics_args& a);

} // namespace apsp::cli
