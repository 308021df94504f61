#pragma once
/// @file block_io.hpp
/// Writing some rows and columns of a distance matrix (the distances from some sources to some
/// targets) in the formats of io::write_matrix. Host-only.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "apsp/io.hpp"
#include "apsp/sources.hpp"

namespace apsp::io {

/// rows x cols distances, row-major, in one of the four element types.
struct distance_block {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  any_rows values;
};

/// Writes a block as write_matrix writes a matrix: npy (shape rows x cols, its own dtype),
/// course_binary (rows*cols int32, no header, converted as write_matrix converts) or csv (at
/// most 10^8 values). In CSV, `row_ids` and `col_ids` (both, or neither) become the first field
/// of each row and a header row after an empty cell, quoted where RFC 4180 asks; the binary
/// formats have no place for them. Atomic. Throws invalid_argument_error when the sizes do not
/// fit.
void write_block(const std::filesystem::path& p, const distance_block& block, format f,
                 std::span<const std::string> row_ids = {},
                 std::span<const std::string> col_ids = {});

/// Reads a block that write_block wrote in npy (its shape must be rows x cols; any of the four
/// dtypes) or course_binary (rows * cols int32). Throws invalid_input_error naming the file
/// when its shape or size differs, invalid_argument_error for other formats.
[[nodiscard]] distance_block read_block(const std::filesystem::path& p, format f,
                                        std::int64_t rows, std::int64_t cols);

/// An .npy file of rows x cols values written a tile of rows at a time, for a table larger than
/// memory (apsp::solve_table_tiles): the header first, the file extended to its full size, then
/// each tile at its place. Closed by the destructor; the file stays.
class npy_rows_file {
public:
  /// Creates `p` (truncating any file there), or with `reopen` opens the one an interrupted run
  /// left, which must have the same header and size (invalid_input_error otherwise). io_error
  /// when it cannot be made (a full disk: out_of_memory_error naming the size).
  npy_rows_file(const std::filesystem::path& p, dtype type, std::int64_t rows, std::int64_t cols,
                bool reopen);
  ~npy_rows_file();
  npy_rows_file(const npy_rows_file&) = delete;
  npy_rows_file& operator=(const npy_rows_file&) = delete;
  /// Rows [first, first + count) (count x cols values of the type, row-major) at their place.
  void write_rows(std::int64_t first, std::int64_t count, const void* values);
  /// Puts what was written on the disk (fdatasync), before a checkpoint names it as written.
  void sync();

private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::uint64_t data_offset_ = 0;
  std::uint64_t row_bytes_ = 0;
};

/// `text` as one CSV field: as it is, or in double quotes (inner quotes doubled) where it holds
/// a comma, a quote or a line break, is empty, or starts or ends with a space.
[[nodiscard]] std::string csv_text_field(std::string text);

} // namespace apsp::io
