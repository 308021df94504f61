// write_matrix / write_via: distance and path matrices as .npy, course binary or CSV.

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "apsp/block_io.hpp"
#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "io/atomic_output.hpp"
#include "io/csv_records.hpp"
#include "io/diagnostics.hpp"
#include "io/limits.hpp"
#include "io/npy_header.hpp"
#include "io/text_output.hpp"

namespace apsp::io {
namespace {

using detail::atomic_output;

constexpr std::int64_t max_csv_vertices = 10000;

template <class T> bool is_unreachable(T v) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return v == weight_traits<T>::infinity;
  } else {
    return v >= weight_traits<T>::infinity;
  }
}

/// A rows x cols row-major array of distances: an n x n matrix, or a block of its rows and
/// columns (write_block).
template <class T> struct values_view {
  const T* data = nullptr;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  [[nodiscard]] std::size_t size() const noexcept {
    return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  }
  [[nodiscard]] const T* row(std::int64_t i) const noexcept { return data + i * cols; }
};

template <class T> values_view<T> view_of(const dense_matrix<T>& d) {
  return {d.data(), d.n(), d.n()};
}

template <class T> void write_npy(atomic_output& out, const values_view<T>& d) {
  out.write(detail::make_npy_header(weight_traits<T>::type, d.rows, d.cols));
  out.write(d.data, d.size() * sizeof(T));
}

// The course tools' output: raw int32, unreachable = 2^30-1. Other types are converted a block of
// rows at a time; the first value that has no exact int32 course encoding aborts the write.
template <class T>
void write_course(atomic_output& out, const std::filesystem::path& p, const values_view<T>& d) {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    out.write(d.data, d.size() * sizeof(T));
  } else {
    const std::int64_t n = d.cols;
    const std::int64_t rows_per_block =
        std::max<std::int64_t>(1, (std::int64_t{1} << 22) / std::max<std::int64_t>(n, 1));
    std::vector<std::int32_t> buf(static_cast<std::size_t>(std::min(d.rows, rows_per_block) * n));
    for (std::int64_t r0 = 0; r0 < d.rows; r0 += rows_per_block) {
      const std::int64_t rows = std::min(rows_per_block, d.rows - r0);
      std::int64_t first_bad = rows * n;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
      for (std::int64_t k = 0; k < rows * n; ++k) {
        const T v = d.data[static_cast<std::size_t>(r0 * n + k)];
        std::int32_t out_v = detail::course_infinity;
        if (!is_unreachable(v)) {
          const auto x = static_cast<double>(v);
          if (std::trunc(x) == x && std::fabs(x) < detail::course_infinity) {
            out_v = static_cast<std::int32_t>(x);
          } else {
            first_bad = k < first_bad ? k : first_bad;
          }
        }
        buf[static_cast<std::size_t>(k)] = out_v;
      }
      if (first_bad < rows * n) {
        const std::int64_t i = r0 + first_bad / n;
        const std::int64_t j = first_bad % n;
        std::string value;
        detail::append_real(value, static_cast<double>(d.row(i)[j]));
        throw invalid_argument_error("cannot write " + detail::display_name(p) +
                                     " in course-binary format: d[" + std::to_string(i) + "][" +
                                     std::to_string(j) + "] (rows and columns from 0) = " + value +
                                     " is not an integer below 2^30-1 in magnitude (write npy "
                                     "instead)");
      }
      out.write(buf.data(), static_cast<std::size_t>(rows * n) * sizeof(std::int32_t));
    }
  }
}

void check_csv_size(const std::filesystem::path& p, std::int64_t n) {
  if (n > max_csv_vertices) {
    detail::fail_write(p, "CSV output is limited to n <= " + std::to_string(max_csv_vertices) +
                              " (n = " + std::to_string(n) + "); write npy instead");
  }
}

/// Ids as CSV fields, or none.
struct csv_ids {
  std::vector<std::string> rows;
  std::vector<std::string> cols;
  [[nodiscard]] bool empty() const noexcept { return rows.empty(); }
};

// One row per line; unreachable is written as "inf" (numpy.loadtxt and pandas read it as
// infinity). With ids: a header row of them after an empty cell, and each row's id first, as
// pandas.read_csv(..., index_col=0) reads a labelled matrix.
template <class T> void write_csv(atomic_output& out, const values_view<T>& d, const csv_ids& ids) {
  if (!ids.empty()) {
    std::string header;
    for (const std::string& id : ids.cols) {
      header += ',';
      header += id;
    }
    header += '\n';
    out.write(header);
  }
  detail::write_chunked(out, d.rows, 16, [&](std::string& text, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      const T* row = d.row(i);
      if (!ids.empty()) {
        text += ids.rows[static_cast<std::size_t>(i)];
        text += ',';
      }
      for (std::int64_t j = 0; j < d.cols; ++j) {
        if (j > 0)
          text += ',';
        const T v = row[j];
        if (is_unreachable(v)) {
          text += "inf";
        } else if constexpr (std::is_floating_point_v<T>) {
          if (std::isnan(v)) {
            text += "nan";
          } else {
            detail::append_real(text, v);
          }
        } else {
          detail::append_int(text, v);
        }
      }
      text += '\n';
    }
  });
}

void check_matrix_format(format f) {
  if (f != format::npy && f != format::course_binary && f != format::csv) {
    throw invalid_argument_error("cannot write a distance matrix as " + std::string(to_string(f)) +
                                 " (use npy, course-binary or csv)");
  }
}

template <class T>
void write_values(const std::filesystem::path& p, const values_view<T>& d, format f,
                  const csv_ids& ids) {
  atomic_output out(p, f == format::csv && detail::wants_gzip(p));
  if (f == format::npy)
    write_npy(out, d);
  if (f == format::course_binary)
    write_course(out, p, d);
  if (f == format::csv)
    write_csv(out, d, ids);
  out.commit();
}

void write_matrix_with(const std::filesystem::path& p, const any_matrix& m, format f,
                       const vertex_labels* labels) {
  check_matrix_format(f);
  std::visit(
      [&](const auto& d) {
        if (labels != nullptr && labels->size() != d.n()) {
          throw invalid_argument_error("cannot write " + detail::display_name(p) + ": " +
                                       std::to_string(labels->size()) + " vertex ids for a " +
                                       std::to_string(d.n()) + " x " + std::to_string(d.n()) +
                                       " matrix");
        }
        if (f == format::csv)
          check_csv_size(p, d.n());
        csv_ids ids;
        if (labels != nullptr && f == format::csv) {
          for (std::int64_t i = 0; i < d.n(); ++i)
            ids.rows.push_back(detail::csv_field(labels->label(i)));
          ids.cols = ids.rows;
        }
        write_values(p, view_of(d), f, ids);
      },
      m);
}

} // namespace

void write_matrix(const std::filesystem::path& p, const any_matrix& m, format f) {
  write_matrix_with(p, m, f, nullptr);
}

void write_matrix(const std::filesystem::path& p, const any_matrix& m, format f,
                  const vertex_labels& labels) {
  write_matrix_with(p, m, f, &labels);
}

void write_block(const std::filesystem::path& p, const distance_block& block, format f,
                 std::span<const std::string> row_ids, std::span<const std::string> col_ids) {
  check_matrix_format(f);
  const auto cells = static_cast<std::size_t>(block.rows) * static_cast<std::size_t>(block.cols);
  APSP_EXPECTS(block.rows >= 0 && block.cols >= 0 &&
                   std::visit([&](const auto& v) { return v.size() == cells; }, block.values),
               invalid_argument_error,
               "cannot write " + detail::display_name(p) + ": the block is not " +
                   std::to_string(block.rows) + " x " + std::to_string(block.cols));
  csv_ids ids;
  if (f == format::csv) {
    if (block.rows * block.cols > max_csv_vertices * max_csv_vertices) {
      detail::fail_write(p, "CSV output is limited to 10^8 distances (" +
                                std::to_string(block.rows) + " x " + std::to_string(block.cols) +
                                " asked); write npy instead");
    }
    APSP_EXPECTS(row_ids.empty() == col_ids.empty() &&
                     (row_ids.empty() || (static_cast<std::int64_t>(row_ids.size()) == block.rows &&
                                          static_cast<std::int64_t>(col_ids.size()) == block.cols)),
                 invalid_argument_error,
                 "cannot write " + detail::display_name(p) + ": the ids do not fit the block");
    for (const std::string& id : row_ids)
      ids.rows.push_back(detail::csv_field(id));
    for (const std::string& id : col_ids)
      ids.cols.push_back(detail::csv_field(id));
  }
  std::visit(
      [&](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        write_values(p, values_view<T>{v.data(), block.rows, block.cols}, f, ids);
      },
      block.values);
}

std::string csv_text_field(std::string text) {
  return detail::csv_field(std::move(text));
}

void write_via(const std::filesystem::path& p, const via_matrix& via) {
  atomic_output out(p, false);
  write_npy(out, view_of(via));
  out.commit();
}

std::string raw_matrix_header(format f, dtype type, std::int64_t n) {
  APSP_EXPECTS(n >= 0, invalid_argument_error,
               "a matrix of " + std::to_string(n) + " x " + std::to_string(n) + " is not a matrix");
  if (f == format::npy)
    return detail::make_npy_header(type, n, n);
  if (f == format::course_binary && type == dtype::int32)
    return {}; // the course distance file is the raw int32 matrix, unreachable = 2^30 - 1
  throw invalid_argument_error("cannot write a " + std::string(to_string(type)) +
                               " distance matrix in place as " + std::string(to_string(f)) +
                               " (use .npy, or course-binary with int32)");
}

} // namespace apsp::io
