#pragma once
// One reader per format, over the file's bytes already in memory. read_graph/read_matrix pick
// one; each throws invalid_input_error naming `p` and the line or byte.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "apsp/io.hpp"

namespace apsp::io::detail {

// `limit`: the most vertices accepted (vertex_limit(read_options)).
[[nodiscard]] graph_file read_dimacs(const std::filesystem::path& p, std::string_view text,
                                     std::int64_t limit);
[[nodiscard]] graph_file read_mtx(const std::filesystem::path& p, std::string_view text,
                                  std::int64_t limit);
[[nodiscard]] graph_file read_edgelist(const std::filesystem::path& p, std::string_view text,
                                       std::int64_t limit);
/// Columns from `o`: weight_column, second_column, source_column, target_column, oneway_column.
[[nodiscard]] graph_file read_csv(const std::filesystem::path& p, std::string_view text,
                                  const read_options& o, std::int64_t limit);
[[nodiscard]] graph_file read_course_binary(const std::filesystem::path& p, std::string_view bytes,
                                            std::int64_t limit);
/// TransportationNetworks `_net.tntp`: `weight_column` names a link column ("weight": the
/// free-flow time), `second_column` (empty: none) another into graph_file::second.
[[nodiscard]] graph_file read_tntp(const std::filesystem::path& p, std::string_view text,
                                   const std::string& weight_column,
                                   const std::string& second_column, std::int64_t limit);
[[nodiscard]] graph_file read_npy_graph(const std::filesystem::path& p, std::string_view bytes);

/// What read_graph does once the file is in memory: text formats are gunzipped when the bytes
/// start with the gzip magic, then format f's reader runs. The fuzzers (fuzz/) call this with
/// the bytes of an input, so they run the same code as a file read.
[[nodiscard]] graph_file read_graph_bytes(const std::filesystem::path& p, std::string_view bytes,
                                          format f, const read_options& o);

/// peek_vertex_count on the first bytes of a file of `file_size` bytes in format f (the
/// fuzzers call it on whole inputs).
[[nodiscard]] std::optional<std::int64_t>
peek_vertex_count_bytes(std::string_view head, std::size_t file_size, format f) noexcept;

/// invalid_input_error: the format cannot be told from the name (or an unambiguous magic).
[[noreturn]] void fail_unknown_format(const std::filesystem::path& p);

} // namespace apsp::io::detail
