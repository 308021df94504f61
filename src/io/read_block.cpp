// read_block: a block of distances (some rows and columns of a matrix, as write_block writes
// them) from .npy (shape rows x cols, any of the four dtypes) or course binary (rows * cols
// int32, the shape given).

#include <algorithm>
#include <string>
#include <vector>

#include "apsp/block_io.hpp"
#include "io/diagnostics.hpp"
#include "io/file_bytes.hpp"
#include "io/npy_header.hpp"

namespace apsp::io {
namespace {

// Longer .npy headers are not produced by numpy for 2-D arrays.
constexpr std::size_t max_npy_header = std::size_t{1} << 20;

template <class T>
any_rows read_values(const detail::input_file& f, std::size_t offset, std::int64_t rows,
                     std::int64_t cols, bool fortran_order) {
  const auto count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  std::vector<T> values(count);
  f.read_at_parallel(values.data(), count * sizeof(T), offset, std::size_t{8} << 20);
  if (fortran_order) { // column-major on disk (numpy's order='F'): row-major here
    std::vector<T> by_rows(count);
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j)
        by_rows[static_cast<std::size_t>(i * cols + j)] =
            values[static_cast<std::size_t>(j * rows + i)];
    values.swap(by_rows);
  }
  return values;
}

} // namespace

distance_block read_block(const std::filesystem::path& p, format f, std::int64_t rows,
                          std::int64_t cols) {
  const detail::input_file in(p);
  const std::string shape = std::to_string(rows) + " x " + std::to_string(cols);
  distance_block b;
  b.rows = rows;
  b.cols = cols;
  if (f == format::npy) {
    detail::byte_buffer head(std::min(in.size(), max_npy_header));
    in.read_at(head.data(), head.size(), 0);
    const detail::npy_header h = detail::parse_npy_header(head.view(), in.size(), p, false);
    if (h.rows != rows || h.cols != cols) {
      detail::fail_file(p, "holds a " + std::to_string(h.rows) + " x " + std::to_string(h.cols) +
                               " array, not the " + shape + " block asked for");
    }
    b.values = visit_dtype(h.type, [&](auto zero) {
      return read_values<decltype(zero)>(in, h.data_offset, rows, cols, h.fortran_order);
    });
    return b;
  }
  if (f == format::course_binary) {
    const auto want = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) * 4;
    if (in.size() != want) {
      detail::fail_file(p, "holds " + std::to_string(in.size()) + " bytes, not the " +
                               std::to_string(want) + " of a " + shape + " int32 block");
    }
    b.values = read_values<std::int32_t>(in, 0, rows, cols, false);
    return b;
  }
  detail::fail_file(p, "a block is read from npy or course-binary, not " +
                           std::string(to_string(f)));
}

} // namespace apsp::io
