#pragma once
// `apsp solve --sources S --targets T`: the |S| x |T| block of the distance matrix, as the core
// plans it (make_plan with plan_request::block): by Dijkstra from the smaller of the two sets
// (the targets' on the reversed graph), or cut from the whole matrix where that is asked for or
// ends sooner.

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "apsp/plan.hpp"
#include "csv_labels.hpp"
#include "distributed.hpp"

namespace apsp::cli {

/// --sources and --targets as given (unset: every vertex).
struct subset_selection {
  std::optional<std::string> sources;
  std::optional<std::string> targets;
  /// --hierarchy FILE: the table from a hierarchy `apsp prepare` saved, checked against the graph.
  std::optional<std::string> hierarchy;
  /// --second-weight COLUMN and --second-output FILE: a second value per cell, the sum of that
  /// CSV column along the paths the weights choose (apsp::solve_table_along).
  std::string second_weight;
  std::string second_out;
  bool dtype_given = false; ///< --dtype was on the command line (it must then match the file's)
  [[nodiscard]] bool given() const noexcept { return sources || targets; }
};

/// The engine of a block's plan as `solve --json` and `info --json` name it: "whole_matrix",
/// "dijkstra_from_sources", "dijkstra_from_targets" or "contraction_hierarchy_table".
[[nodiscard]] std::string block_engine(const plan& p);

/// Adds --sources, --targets and --hierarchy to `apsp solve`.
void add_subset_options(CLI::App& cmd, subset_selection& s);

/// The solve of a block: `a` holds the rest of `apsp solve`'s options, of which --paths,
/// --map-output, --checkpoint and --resume are refused (exit 2) before the input is read.
/// Returns the exit code.
int solve_subsets(const distributed_solve_args& a, const subset_selection& s, bool map_output,
                  csv_labels_choice csv_labels);

} // namespace apsp::cli
