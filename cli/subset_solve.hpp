#pragma once
// `apsp solve --sources S --targets T`: the |S| x |T| block of the distance matrix, by Dijkstra
// from the smaller of the two sets (the targets' on the reversed graph), never the n x n matrix.

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "csv_labels.hpp"
#include "distributed.hpp"

namespace apsp::cli {

/// --sources and --targets as given (unset: every vertex).
struct subset_selection {
  std::optional<std::string> sources;
  std::optional<std::string> targets;
  [[nodiscard]] bool given() const noexcept { return sources || targets; }
};

/// Adds --sources and --targets to `apsp solve`.
void add_subset_options(CLI::App& cmd, subset_selection& s);

/// The solve of a block: `a` holds the rest of `apsp solve`'s options, of which --paths,
/// --map-output, --checkpoint and --resume are refused (exit 2) before the input is read.
/// Returns the exit code.
int solve_subsets(const distributed_solve_args& a, const subset_selection& s, bool map_output,
                  csv_labels_choice csv_labels);

} // namespace apsp::cli
