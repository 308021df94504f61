#pragma once
// Output files and how numbers are printed.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apsp/io.hpp"
#include "apsp/matrix.hpp"
#include "apsp/types.hpp"

namespace apsp::cli {

/// The format for a distance-matrix output: --output-format when given, else the suffix
/// (.npy, .bin/.course, .csv). Throws invalid_argument_error (a usage error) otherwise.
[[nodiscard]] io::format matrix_output_format(const std::string& path,
                                              const std::string& explicit_format);
/// The format for a graph output (`convert`): --output-format or the suffix.
[[nodiscard]] io::format graph_output_format(const std::string& path,
                                             const std::string& explicit_format);

/// Fails early (invalid_argument_error) when `path` cannot be created: its directory is missing
/// or it names a directory. Run before a long solve, not after it.
void check_writable(const std::string& path);

/// Files written by one command. Unless commit() is called, the destructor removes them, so a
/// command that fails after its first write leaves nothing behind.
class output_files {
public:
  output_files() = default;
  output_files(const output_files&) = delete;
  output_files& operator=(const output_files&) = delete;
  ~output_files();
  void written(const std::filesystem::path& p) { paths_.push_back(p); }
  void commit() noexcept { paths_.clear(); }

private:
  std::vector<std::filesystem::path> paths_;
};

/// d(i, j) as text: integers exactly, floats in their shortest round-trip form, "inf" when
/// unreachable.
[[nodiscard]] std::string distance_text(const any_matrix& d, std::int64_t i, std::int64_t j);
/// d(i, j) as JSON: an integer, a number, or null when unreachable.
[[nodiscard]] nlohmann::json distance_json(const any_matrix& d, std::int64_t i, std::int64_t j);

} // namespace apsp::cli
