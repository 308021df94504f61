#pragma once
// RFC 4180 records: comma-separated fields, optional double quotes (a quoted field may hold
// commas, newlines and "" for a quote), "\n" or "\r\n" line ends.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace apsp::io::detail {

/// `s` as one CSV field: as it is, or in double quotes (inner quotes doubled) where it holds a
/// comma, a quote or a line break, is empty, or starts or ends with a space.
[[nodiscard]] std::string csv_field(std::string s);

class csv_records {
public:
  csv_records(std::string_view text, const std::filesystem::path& p);

  /// Reads the next non-blank record into `fields`; false at end of text.
  bool next(std::vector<std::string>& fields);
  /// 1-based line on which the last record began.
  [[nodiscard]] std::int64_t line() const noexcept { return record_line_; }

private:
  void read_quoted(std::string& field);
  std::string_view text_;
  const std::filesystem::path& path_;
  std::size_t pos_ = 0;
  std::int64_t line_ = 1;
  std::int64_t record_line_ = 0;
};

} // namespace apsp::io::detail
