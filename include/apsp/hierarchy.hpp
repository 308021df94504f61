#pragma once
/// @file hierarchy.hpp
/// A contraction hierarchy of one graph, built once and kept (in memory or in a file) for the
/// many distance tables a routing service asks of that graph. apsp::solve_table builds one for
/// every table and throws it away; a hierarchy built here answers each table with its bucket
/// searches only.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "apsp/graph.hpp"
#include "apsp/options.hpp"
#include "apsp/table.hpp"
#include "apsp/types.hpp"

namespace apsp {

/// What a hierarchy records of the graph it was built from: a hierarchy is used only with a
/// graph of the same fingerprint.
struct graph_fingerprint {
  std::int64_t vertices = 0;
  std::int64_t edges = 0;
  /// A 64-bit hash of every edge in order: its source, its target and the bits of its weight.
  std::uint64_t hash = 0;
  friend bool operator==(const graph_fingerprint&, const graph_fingerprint&) = default;
};

/// The fingerprint of `g` (O(m)).
[[nodiscard]] graph_fingerprint fingerprint_of(const graph& g);

/// A contraction hierarchy of a graph with integer weights (int32 or int64 arithmetic),
/// negative weights through Bellman-Ford potentials kept with it. Tables from it are exactly
/// Dijkstra's, as apsp::solve_table's.
class hierarchy {
public:
  /// The version of the file format that save() writes and load() reads.
  static constexpr std::uint32_t file_version = 1;

  /// Builds the hierarchy of `g` in options.type (int32 or int64; others throw
  /// invalid_argument_error) on options.threads threads. Throws what a solve of `g` throws
  /// (overflow_risk_error, invalid_input_error for non-integral weights, negative_cycle_error)
  /// and invalid_input_error when the graph has no small separators (the contraction outgrew
  /// its budget of shortcuts: use apsp::solve_table, which then runs Dijkstra).
  explicit hierarchy(const graph& g, const solve_options& options = {});
  ~hierarchy();
  hierarchy(hierarchy&&) noexcept;
  hierarchy& operator=(hierarchy&&) noexcept;

  /// Writes the hierarchy to `path` (a temporary beside it, renamed when complete); io_error
  /// or invalid_argument_error when it cannot be written.
  void save(const std::string& path) const;
  /// Reads a hierarchy that save() wrote. invalid_input_error for a file that is not one, is
  /// truncated or fails its checksum; hierarchy_mismatch_error for another format version.
  [[nodiscard]] static hierarchy load(const std::string& path);
  /// load(path), then check(g).
  [[nodiscard]] static hierarchy load(const std::string& path, const graph& g);

  /// Throws hierarchy_mismatch_error, saying what differs, unless `g` has the fingerprint of
  /// the graph this hierarchy was built from.
  void check(const graph& g) const;

  [[nodiscard]] const graph_fingerprint& fingerprint() const noexcept;
  [[nodiscard]] dtype type() const noexcept; ///< int32 or int64
  [[nodiscard]] std::int64_t num_vertices() const noexcept;
  [[nodiscard]] std::int64_t shortcuts() const noexcept; ///< arcs the contraction added
  [[nodiscard]] std::int32_t levels() const noexcept;

  /// The |sources| x |targets| table (ids 0..n-1, repeats allowed; invalid_argument_error for
  /// one outside) in type(), on `threads` threads (0: all): RPHAST's restricted sweeps
  /// (drivers::rphast_table) or the bucket searches (drivers::ch_table), as the cost model
  /// says; the plan that ran says which.
  [[nodiscard]] table_result table(std::span<const std::int64_t> sources,
                                   std::span<const std::int64_t> targets, int threads = 0) const;

  /// The same table made `tile_rows` sources at a time (> 0, else invalid_argument_error), each
  /// tile handed to `out` (table_tile_sink, as apsp::solve_table_tiles does; tiles it has are
  /// skipped), `progress` called before each tile made (false cancels: cancelled_error);
  /// returns the plan that ran (plan::tiled, plan::block = tile_rows).
  plan table_tiles(std::span<const std::int64_t> sources, std::span<const std::int64_t> targets,
                   int threads, std::int64_t tile_rows, table_tile_sink& out,
                   const progress_callback& progress = {}) const;

private:
  hierarchy() = default;
  struct state;
  std::unique_ptr<state> s_;
};

} // namespace apsp
