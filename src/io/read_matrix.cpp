// read_matrix: a distance matrix from .npy (any of the four dtypes) or the course binary output
// (n*n int32, n from the file size). The data is read straight into the matrix by parallel
// positioned reads, so a 1.6 GB matrix needs no second buffer and its pages are first touched
// by many threads.

#include <algorithm>
#include <cmath>
#include <string>

#include "apsp/io.hpp"
#include "io/diagnostics.hpp"
#include "io/file_bytes.hpp"
#include "io/limits.hpp"
#include "io/npy_header.hpp"
#include "io/readers.hpp"

namespace apsp::io {
namespace {

// Longer .npy headers are not produced by numpy for 2-D arrays.
constexpr std::size_t max_npy_header = std::size_t{1} << 20;

template <class T>
void read_rows(const detail::input_file& f, dense_matrix<T>& d, std::size_t offset) {
  const auto row_bytes = static_cast<std::size_t>(d.n()) * sizeof(T);
  const std::size_t rows_per_block =
      std::max<std::size_t>(1, (std::size_t{8} << 20) / std::max<std::size_t>(1, row_bytes));
  f.read_at_parallel(d.data(), static_cast<std::size_t>(d.n()) * row_bytes, offset,
                     rows_per_block * row_bytes);
}

template <class T>
any_matrix read_npy_data(const detail::input_file& f, const detail::npy_header& h) {
  dense_matrix<T> d(h.rows);
  read_rows(f, d, h.data_offset);
  if (h.fortran_order) {
    // Column-major on disk: transpose in place (rare; numpy writes C order by default).
    const std::int64_t n = d.n();
#pragma omp parallel for schedule(dynamic, 16)
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = i + 1; j < n; ++j)
        std::swap(d(i, j), d(j, i));
    }
  }
  return d;
}

any_matrix read_npy(const std::filesystem::path& p, const detail::input_file& f) {
  detail::byte_buffer head(std::min(f.size(), max_npy_header));
  f.read_at(head.data(), head.size(), 0);
  const detail::npy_header h = detail::parse_npy_header(head.view(), f.size(), p);
  return visit_dtype(h.type, [&](auto t) { return read_npy_data<decltype(t)>(f, h); });
}

any_matrix read_course(const std::filesystem::path& p, const detail::input_file& f) {
  const std::size_t bytes = f.size();
  if (bytes % 4 != 0) {
    detail::fail_byte(p, static_cast<std::int64_t>(bytes / 4 * 4),
                      "size " + std::to_string(bytes) + " is not a multiple of 4 (int32 entries)");
  }
  const std::size_t count = bytes / 4;
  auto n = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(count))));
  while (n > 0 && static_cast<std::size_t>(n) * static_cast<std::size_t>(n) > count)
    --n;
  while (static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(n + 1) <= count)
    ++n;
  if (static_cast<std::size_t>(n) * static_cast<std::size_t>(n) != count) {
    detail::fail_byte(p, static_cast<std::int64_t>(bytes),
                      "holds " + std::to_string(count) + " int32 values, not n*n for any n");
  }
  if (n > detail::max_vertices) {
    detail::fail_byte(p, 0,
                      "matrix size " + std::to_string(n) + " is too large (at most " +
                          std::to_string(detail::max_vertices) + ")");
  }
  dense_matrix<std::int32_t> d(n);
  read_rows(f, d, 0);
  return d;
}

} // namespace

any_matrix read_matrix(const std::filesystem::path& p, std::optional<format> fmt) {
  const detail::input_file f(p);
  if (!fmt)
    fmt = format_from_path(p);
  if (!fmt) {
    char magic[6] = {};
    if (f.size() >= sizeof magic)
      f.read_at(magic, sizeof magic, 0);
    if (detail::is_npy(std::string_view(magic, sizeof magic)))
      fmt = format::npy;
  }
  if (!fmt)
    detail::fail_unknown_format(p);
  if (*fmt == format::npy)
    return read_npy(p, f);
  if (*fmt == format::course_binary)
    return read_course(p, f);
  detail::fail_file(p, "cannot read a distance matrix in " + std::string(to_string(*fmt)) +
                           " format (only npy and course-binary)");
}

} // namespace apsp::io
