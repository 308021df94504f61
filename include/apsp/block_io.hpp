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

/// `text` as one CSV field: as it is, or in double quotes (inner quotes doubled) where it holds
/// a comma, a quote or a line break, is empty, or starts or ends with a space.
[[nodiscard]] std::string csv_text_field(std::string text);

} // namespace apsp::io
