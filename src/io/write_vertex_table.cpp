// write_vertex_table: per-vertex values (apsp metrics -o) as CSV with the file's ids, or as an
// n x k float64 .npy array.

#include <string>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "io/atomic_output.hpp"
#include "io/csv_records.hpp"
#include "io/diagnostics.hpp"
#include "io/npy_header.hpp"
#include "io/text_output.hpp"

namespace apsp::io {

void write_vertex_table(const std::filesystem::path& p, const std::vector<std::string>& columns,
                        const std::vector<double>& values, const vertex_labels& labels,
                        format f) {
  const std::int64_t n = labels.size();
  const auto k = static_cast<std::int64_t>(columns.size());
  if (f != format::csv && f != format::npy) {
    throw invalid_argument_error("cannot write a table of vertex values as " +
                                 std::string(to_string(f)) + " (use csv or npy)");
  }
  if (static_cast<std::int64_t>(values.size()) != n * k) {
    throw invalid_argument_error("cannot write " + detail::display_name(p) + ": " +
                                 std::to_string(values.size()) + " values for " +
                                 std::to_string(n) + " vertices and " + std::to_string(k) +
                                 " columns");
  }
  detail::atomic_output out(p, f == format::csv && detail::wants_gzip(p));
  if (f == format::npy) {
    out.write(detail::make_npy_header(dtype::float64, n, k));
    out.write(values.data(), values.size() * sizeof(double));
    out.commit();
    return;
  }
  std::string header = "vertex";
  for (const std::string& c : columns)
    header += ',' + detail::csv_field(c);
  out.write(header + '\n');
  detail::write_chunked(out, n, 256, [&](std::string& text, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      text += detail::csv_field(labels.label(i));
      for (std::int64_t c = 0; c < k; ++c) {
        text += ',';
        detail::append_real(text, values[static_cast<std::size_t>(i * k + c)]);
      }
      text += '\n';
    }
  });
  out.commit();
}

} // namespace apsp::io
