#pragma once
// The checks of the record count that a text format's header line declares (DIMACS arcs, Matrix
// Market entries), shared by their readers.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "io/diagnostics.hpp"

namespace apsp::io::detail {

/// The records a header line declares: `what` ("arcs") and the line that declares them
/// ("the 'p' line"), for the messages of a file with more or fewer of them.
struct declared_records {
  std::int64_t count = 0;
  std::string_view what;
  std::string_view declared_by;

  /// Refuses record `seen + 1` at `line` when the file already has them all.
  void check_room(std::int64_t seen, const std::filesystem::path& p, std::int64_t line) const {
    if (seen == count) {
      fail_line(p, line,
                "more " + std::string(what) + " than the " + std::to_string(count) + " " +
                    std::string(declared_by) + " declares");
    }
  }
  /// Refuses a file that ends (at `line`) after `seen` of them.
  void check_complete(std::int64_t seen, const std::filesystem::path& p, std::int64_t line) const {
    if (seen < count) {
      fail_line(p, line,
                "file ends after " + std::to_string(seen) + " of the " + std::to_string(count) +
                    " " + std::string(what) + " " + std::string(declared_by) + " declares");
    }
  }
};

} // namespace apsp::io::detail
