#pragma once
// The NumPy .npy header: magic "\x93NUMPY", version, header length, then a Python dict literal
// {'descr': '<f8', 'fortran_order': False, 'shape': (n, n), } padded with spaces and '\n'.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "apsp/types.hpp"

namespace apsp::io::detail {

struct npy_header {
  dtype type = dtype::float64;
  bool fortran_order = false;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::size_t data_offset = 0; ///< where the array data begins
};

[[nodiscard]] bool is_npy(std::string_view bytes) noexcept;

/// Parses and checks the header of a square (unless `square` is false: a block's) 2-D
/// little-endian array of one of the four dtypes, and that a file of `file_size` bytes holds
/// exactly rows * cols elements after it. `bytes` is the start of the file (at least the whole
/// header).
[[nodiscard]] npy_header parse_npy_header(std::string_view bytes, std::size_t file_size,
                                          const std::filesystem::path& p, bool square = true);

/// A version 1.0 header for a C-order rows x cols array of `type`, padded to 64 bytes.
[[nodiscard]] std::string make_npy_header(dtype type, std::int64_t rows, std::int64_t cols);

} // namespace apsp::io::detail
