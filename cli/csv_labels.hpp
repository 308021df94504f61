#pragma once
// `apsp solve`'s --csv-labels / --no-csv-labels: whether a CSV distance matrix carries the
// input's vertex ids (a header row and a first column).

#include <filesystem>
#include <string>

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
/// The checks of a distance-matrix output `-o out` before anything is read: its format
/// (matrix_output_format: --output-format, else the suffix), that it can be created, and the
/// --csv-labels choice against that format. Without -o: .npy, and --output-format or a
/// --csv-labels choice alone is refused (invalid_argument_error).
[[nodiscard]] io::format checked_distance_output(const std::string& out,
                                                 const std::string& output_format,
                                                 csv_labels_choice choice);
/// Writes the distance matrix: a CSV one with `labels` unless the choice is off.
void write_distances(const std::filesystem::path& p, const any_matrix& d, io::format f,
                     const io::vertex_labels& labels, csv_labels_choice choice);

} // namespace apsp::cli
