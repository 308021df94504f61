#include "csv_labels.hpp"

#include "apsp/error.hpp"
#include "output.hpp"

namespace apsp::cli {

void add_csv_labels_options(CLI::App& cmd, csv_labels_choice& choice) {
  CLI::Option* on = cmd.add_flag_callback(
      "--csv-labels", [&choice] { choice = csv_labels_choice::on; },
      "a .csv distance matrix starts with a header row of the input's vertex ids (after an "
      "empty cell) and each row with its vertex's id, so it reads without knowing their order "
      "(default)");
  CLI::Option* off = cmd.add_flag_callback(
      "--no-csv-labels", [&choice] { choice = csv_labels_choice::off; },
      "a .csv distance matrix holds the distances only: n rows of n values, in the order of "
      "the ids (see docs/formats.md)");
  on->excludes(off);
}

void check_csv_labels(csv_labels_choice choice, io::format out_format) {
  if (choice != csv_labels_choice::unset && out_format != io::format::csv) {
    throw invalid_argument_error(
        std::string(choice == csv_labels_choice::on ? "--csv-labels" : "--no-csv-labels") +
        " applies to a CSV distance matrix (-o NAME.csv) only");
  }
}

io::format checked_distance_output(const std::string& out, const std::string& output_format,
                                   csv_labels_choice choice) {
  io::format f = io::format::npy;
  if (!out.empty()) {
    f = matrix_output_format(out, output_format);
    check_writable(out);
  } else if (!output_format.empty()) {
    throw invalid_argument_error("--output-format needs -o OUT");
  }
  check_csv_labels(choice, f);
  return f;
}

void write_distances(const std::filesystem::path& p, const any_matrix& d, io::format f,
                     const io::vertex_labels& labels, csv_labels_choice choice) {
  if (f == io::format::csv && choice != csv_labels_choice::off) {
    io::write_matrix(p, d, f, labels);
  } else {
    io::write_matrix(p, d, f);
  }
}

} // namespace apsp::cli
