#pragma once
// Vertex sets and vertex pairs named on the command line (`solve --sources/--targets`,
// `paths --pairs`): the ids as the input file writes them, with where each was written, so that
// an id the graph lacks is refused naming it and its place.

#include <cstdint>
#include <string>
#include <vector>

#include "input.hpp"

namespace apsp::cli {

/// One id as written, and where: "--sources" or "line 3 of s.txt".
struct written_id {
  std::string id;
  std::string where;
};

/// The ids of a --sources / --targets value: a comma-separated list ("1,5,9"), or "@FILE" with
/// ids separated by whitespace or commas and '#' starting a comment to the end of the line.
/// Throws invalid_argument_error (exit 2) for an empty list or entry and an unreadable FILE.
[[nodiscard]] std::vector<written_id> read_id_list(const std::string& value,
                                                   const std::string& option);

/// The pairs of a --pairs FILE: one "SRC DST" per line (separated by whitespace or a comma),
/// blank lines and '#' comments skipped. Throws invalid_argument_error naming the line for a
/// line without exactly two ids, and for a file that is unreadable or holds no pair.
[[nodiscard]] std::vector<std::pair<written_id, written_id>> read_pairs(const std::string& path);

/// Internal indices of `ids`, in order (repeats kept); invalid_argument_error naming the id and
/// where it was written when the graph has no such vertex.
[[nodiscard]] std::vector<std::int64_t> find_vertices(const loaded_graph& in,
                                                      const std::vector<written_id>& ids);

/// 0, 1, ..., n-1: every vertex, for a set that was not given.
[[nodiscard]] std::vector<std::int64_t> every_vertex(std::int64_t n);

} // namespace apsp::cli
