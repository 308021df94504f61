#pragma once
// Reading the INPUT graph, option groups shared by several subcommands, and vertex ids.

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "apsp/io.hpp"
#include "apsp/options.hpp"
#include "option_values.hpp"

namespace apsp::cli {

/// INPUT and the options that say how to read it.
struct input_options {
  std::string path;
  std::string format; // empty: by suffix
  std::string weight_column = "weight";
  bool undirected = false; ///< --undirected: every edge also goes the other way
  /// Commands that keep no n x n matrix (metrics, solve --sources/--targets, paths) read edge
  /// formats up to io::max_edge_format_vertices instead of the matrix-sized default.
  bool no_matrix = false;
  /// solve --second-weight: a CSV column read into graph_file::second (empty: none).
  std::string second_column;
  /// --source-column, --target-column, --oneway-column (CSV; empty: the defaults).
  std::string source_column;
  std::string target_column;
  std::string oneway_column;
};

/// Adds the positional INPUT (required) and --format / --weight-column / --undirected.
void add_input_options(CLI::App& cmd, input_options& in);

struct loaded_graph {
  io::graph_file file;
  std::string path;
  double read_seconds = 0;
};

/// Reads INPUT. Every failure to read (missing file, malformed data) becomes an
/// invalid_input_error whose one-line message names the file.
/// Whether the suffix of `path` or its first bytes (the .npy and Matrix Market signatures) name
/// its format; invalid_input_error ("cannot open for reading") when it cannot be opened.
[[nodiscard]] bool format_is_evident(const std::string& path);
[[nodiscard]] loaded_graph read_input(const input_options& in);

/// `in`, read by a command that keeps no n x n matrix (input_options::no_matrix).
[[nodiscard]] inline input_options keeping_no_matrix(input_options in) {
  in.no_matrix = true;
  return in;
}

/// --backend, --algorithm, --dtype, --block, --threads.
struct solver_options {
  std::string backend = "auto";
  std::string algorithm = "auto";
  std::string type = "int32";
  std::int64_t block = 0;
  int threads = 0;
  std::string gpu_memory; ///< --gpu-memory: bytes with an optional K/M/G/T suffix; empty = no cap
  std::string host_memory; ///< --host-memory: the host memory budget (same form); empty = RAM
  std::string devices;    ///< --devices: "all" or a comma-separated list; empty = device 0
  std::string grid;       ///< --grid RxC: the MPI process grid (under mpirun); empty = choose
};
void add_solver_options(CLI::App& cmd, solver_options& s);

/// What the commands that read a graph, solve and write -o (solve, metrics) share: INPUT, the
/// solver options, -o, and how they report (--json, --quiet, --progress).
struct run_args {
  input_options in;
  solver_options solver;
  std::string out;
  bool json = false;
  bool quiet = false;
  bool progress = false;
};
/// -q/--quiet (`quiet_help` says what it silences) and --progress, which excludes it.
void add_progress_flags(CLI::App& cmd, bool& quiet, bool& progress, const char* quiet_help);
/// "apsp: warning: LINE" on stderr: an option the run will not honour; the run goes on.
void print_warning(const std::string& line);
/// Warns when --threads asks for more threads than the cores this process may use.
void warn_about_threads(const solver_options& s);
/// Throws invalid_argument_error when `--grid` (other than 1x1, one process's grid) was given to
/// a run that is not under mpirun, where it would mean nothing.
void refuse_grid_outside_mpi(const solver_options& s);
/// The library options for `s`. The CLI-only dtypes: `auto` = int32 with packed 16-bit
/// arithmetic when provably exact (narrow_mode::when_safe), `int16` = int32 computed in packed
/// 16-bit arithmetic or refused (narrow_mode::required).
[[nodiscard]] solve_options to_solve_options(const solver_options& s);
/// Once the graph is read: `--dtype auto` solves graphs with fractional weights in float32.
void resolve_auto_dtype(solve_options& o, const solver_options& s, const graph& g);
/// `--dtype int16` needs the cuda back end: backend_unavailable_error, before any reading,
/// when --backend names another.
void check_narrow_backend(const solve_options& o);

/// A number >= 0 (`whole`: a whole number up to 2^31-1), refused in words ("'-1' is not a whole
/// number >= 0 (0: all cores)") instead of CLI11's range up to the largest double.
[[nodiscard]] CLI::Validator non_negative(const std::string& zero_means, bool whole);

/// Option validators that reuse the library's own parsers (so their messages match).
/// dtype_name also accepts the CLI-only `auto` and `int16`.
[[nodiscard]] CLI::Validator dtype_name();
[[nodiscard]] CLI::Validator backend_name();
[[nodiscard]] CLI::Validator format_name();
[[nodiscard]] CLI::Validator algorithm_name();

/// `message` with "FILE: " in front unless it already names the file.
[[nodiscard]] std::string with_file(const std::string& message, const std::string& file);

/// True when every id is a canonical integer, so JSON can show ids as numbers.
[[nodiscard]] bool labels_are_integers(const io::vertex_labels& labels);
/// Whether JSON shows the input's ids as numbers: every id is an integer and the file is not a
/// CSV (whose vertices are names, even those that look like numbers).
[[nodiscard]] bool ids_are_numbers(const loaded_graph& in);
/// The file's id of internal vertex i, as a JSON number (when `as_number`) or string.
[[nodiscard]] nlohmann::json label_json(const io::vertex_labels& labels, std::int64_t i,
                                        bool as_number);
/// Internal index of the file id `id`; invalid_argument_error (a usage error) when absent.
[[nodiscard]] std::int64_t find_vertex(const loaded_graph& in, const std::string& id);

} // namespace apsp::cli
