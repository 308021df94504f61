#pragma once
// `apsp solve`'s --csv-labels / --no-csv-labels: whether a CSV distance matrix carries the
// input's vertex ids (a header row and a first column).

#include <filesystem>

#include <CLI/CLI.hpp>

#include "apsp/io.hpp"
#include "apsp/matrix.hpp"

namespace apsp::cli {

enum class csv_labels_choice { unset, on, off };

/// Adds --csv-labels and --no-csv-labels (each excluding the other) setting `choice`.
void add_csv_labels_options(CLI::App& cmd, csv_labels_choice& choice);
/// Refuses (invalid_argument_error, a usage error) a choice given for an output that is not CSV,
/// where it would mean nothing.
void check_csv_labels(csv_labels_choice choice, io::format out_format);
/// Writes the distance matrix: a CSV one with `labels` unless the choice is off.
void write_distances(const std::filesystem::path& p, const any_matrix& d, io::format f,
                     const io::vertex_labels& labels, csv_labels_choice choice);

} // namespace apsp::cli
