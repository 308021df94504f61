#pragma once
/// @file io.hpp
/// Graph and matrix file formats. Host-only; independent of every back end.
/// Every reader throws invalid_input_error with a one-line message naming the file and the line
/// (text formats) or byte offset (binary formats). Every writer writes atomically: a temporary
/// file in the target's directory, then rename; on failure nothing is left behind.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apsp/graph.hpp"
#include "apsp/matrix.hpp"
#include "apsp/result.hpp"

namespace apsp::io {

enum class format { dimacs, mtx, edgelist, csv, course_binary, npy, tntp };

/// "dimacs", "mtx", "edgelist", "csv", "course-binary", "npy", "tntp".
[[nodiscard]] std::string_view to_string(format f) noexcept;
/// Parses the names above; throws invalid_argument_error listing the valid names otherwise.
[[nodiscard]] format parse_format(std::string_view name);
/// By suffix: .gr -> dimacs, .mtx -> mtx, .txt/.el/.wel/.edges -> edgelist, .csv/.csv.gz -> csv,
/// .bin/.course -> course_binary, .npy -> npy; nullopt when unknown. A trailing .gz on a text
/// format (.gr.gz, .mtx.gz, .txt.gz, ...) names the same format, gzip-compressed. Case-insensitive.
[[nodiscard]] std::optional<format> format_from_path(const std::filesystem::path& p);
/// The format a file's first bytes prove, whatever its name: the .npy magic or a Matrix Market
/// banner (the only signatures no other format can start with); nullopt otherwise.
[[nodiscard]] std::optional<format> format_from_signature(std::string_view first_bytes);
/// Whether two paths name one file: the same path spelled two ways (relative, "./", "..") or two
/// links to one file. Neither has to exist.
[[nodiscard]] bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

/// Maps internal vertex indices 0..n-1 to the ids the file used, and back.
/// Numeric files (.gr, .mtx: 1-based; course binary, .npy: 0-based) keep `names` empty and use
/// `base`; edge lists keep the original ids as strings, in sorted order (numeric ids sorted as
/// numbers, string ids sorted as byte strings).
class vertex_labels {
public:
  vertex_labels() = default;
  /// Ids base, base+1, ..., base+n-1.
  static vertex_labels numeric(std::int64_t n, std::int64_t base);
  /// names[i] is the id of internal vertex i. Any order is accepted (readers pass them sorted);
  /// throws invalid_argument_error on a duplicate name. integer_ids: the names are integers in
  /// canonical form (an edge list's ids), and find() also takes other spellings of them ("007",
  /// "+7" for "7"); otherwise (CSV) names are plain strings, found only as written.
  static vertex_labels named(std::vector<std::string> names, bool integer_ids = false);

  [[nodiscard]] std::int64_t size() const noexcept { return n_; }
  [[nodiscard]] bool is_numeric() const noexcept { return names_.empty(); }
  [[nodiscard]] std::int64_t base() const noexcept { return base_; }
  /// The file's id of internal vertex i.
  [[nodiscard]] std::string label(std::int64_t i) const;
  /// Internal index of the file id `id`; nullopt if there is no such vertex.
  [[nodiscard]] std::optional<std::int64_t> find(std::string_view id) const;

private:
  std::int64_t n_ = 0;
  std::int64_t base_ = 0;
  std::vector<std::string> names_; // index = internal id; file order (see above) when non-empty
  bool integer_ids_ = false;
  // Indices into names_ in byte-string order, for find(); empty when names_ already is.
  std::vector<std::int32_t> by_bytes_;
};

/// A graph as read from a file, with its ids.
struct graph_file {
  graph g;
  vertex_labels labels;
  format source_format = format::edgelist;
  /// read_options::second_column's value for each edge of g, in g's edge order (empty when no
  /// second column was asked for): a second weight (a length beside a travel time) that
  /// apsp::solve_table_along sums along the paths the first one chooses.
  std::vector<double> second;
};

struct read_options {
  /// Overrides the suffix.
  std::optional<format> fmt;
  /// CSV column holding weights (used when present; otherwise every weight is 1).
  std::string weight_column = "weight";
  /// CSV column holding a second weight per edge, into graph_file::second (empty: none). Other
  /// formats carry one weight per edge: asking them for a second throws invalid_input_error.
  std::string second_column;
  /// CSV endpoint columns by name; empty (both): `source` and `target` when the header has
  /// both, else `u` and `v` when it has both (OSMnx, pyrosm), else the first two columns.
  std::string source_column;
  std::string target_column;
  /// CSV column saying whether each row is one way (empty: none, every row is one arc source ->
  /// target). true/yes/1: source -> target only; false/no/0 or empty: both ways; -1/reverse:
  /// target -> source only (OpenStreetMap's oneway=-1). Anything else is an error.
  std::string oneway_column;
  /// Every edge u -> v (u != v) also goes v -> u with the same weight, in any format: the file
  /// is read as an undirected graph. A negative edge then makes a negative cycle u -> v -> u.
  bool undirected = false;
  /// The most vertices an edge format (DIMACS, Matrix Market, edge list, CSV, course binary)
  /// may declare or use; 0 = 2^19 = 524,288, the largest n whose n x n int32 distance matrix
  /// fits in 1 TiB. What keeps no n x n matrix (apsp metrics, solve --sources/--targets, paths)
  /// raises it, up to max_edge_format_vertices. .npy graphs are matrices and keep 2^19.
  std::int64_t max_vertices = 0;
};

/// The most vertices read_options::max_vertices may allow: vertex ids are int32.
inline constexpr std::int64_t max_edge_format_vertices = (std::int64_t{1} << 31) - 1;

/// Reads a graph. A .npy graph is a square matrix of weights in which +inf/NaN (float) or values
/// >= 2^30-1 (integer) mean "no edge"; the diagonal gives self-loops.
[[nodiscard]] graph_file read_graph(const std::filesystem::path& p, const read_options& o = {});

/// The vertex count the file declares before its data, read from its first 64 KiB only: the
/// `p sp n m` line of DIMACS, the size line of Matrix Market, the shape of .npy, the first
/// integer of the course binary format. nullopt where the format declares none (edge lists,
/// CSV), for gzip-compressed files, and whenever the first bytes do not say it plainly; never
/// throws. Where read_graph accepts the file and this returns a count, the two agree.
[[nodiscard]] std::optional<std::int64_t> peek_vertex_count(const std::filesystem::path& p,
                                                            const read_options& o = {}) noexcept;

/// Writes a graph (for `apsp convert`): dimacs, mtx, edgelist, csv, course_binary or npy.
void write_graph(const std::filesystem::path& p, const graph_file& g, format f);

/// Writes a distance matrix: npy (in its own dtype), course_binary (n*n int32, unreachable =
/// 1073741823; only for int32 distances or integral values that fit), or csv (n <= 10000).
void write_matrix(const std::filesystem::path& p, const any_matrix& m, format f);
/// The same, with the file's vertex ids in CSV: a header row (an empty cell, then the id of each
/// column) and each row's id in its first field, quoted as RFC 4180 asks where an id holds a
/// comma, a quote or a line break. The binary formats have no place for ids and are written as
/// above. Throws invalid_argument_error unless `labels` has one id per row.
void write_matrix(const std::filesystem::path& p, const any_matrix& m, format f,
                  const vertex_labels& labels);
/// For writing a distance matrix in place (solve_options::distances_file): the bytes that
/// write_matrix would put before the raw row-major values of an n x n matrix of `type` in
/// format f: the .npy header (its length is a multiple of 64), or nothing for course_binary
/// (int32 only). Throws invalid_argument_error for other formats and types.
[[nodiscard]] std::string raw_matrix_header(format f, dtype type, std::int64_t n);

/// Writes per-vertex values (`apsp metrics -o`): n = labels.size() rows of columns.size()
/// values, row-major in `values`. csv: a header row "vertex,COLUMN,..." and each row's vertex id
/// (quoted as RFC 4180 asks) before its values, in their shortest round-trip form; npy: an
/// n x k float64 array, without ids or names. Throws invalid_argument_error for another format
/// or when the sizes disagree.
void write_vertex_table(const std::filesystem::path& p, const std::vector<std::string>& columns,
                        const std::vector<double>& values, const vertex_labels& labels, format f);

/// Writes the via matrix as .npy (int32).
void write_via(const std::filesystem::path& p, const via_matrix& via);

/// Reads a distance matrix written by write_matrix (npy of any of the four dtypes, or
/// course_binary with n inferred from the file size).
[[nodiscard]] any_matrix read_matrix(const std::filesystem::path& p,
                                     std::optional<format> f = std::nullopt);

} // namespace apsp::io
