// read_graph: choose the format (option, suffix, or an unambiguous magic), load
// the bytes, hand them to that format's reader.

#include <string>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "io/diagnostics.hpp"
#include "io/file_bytes.hpp"
#include "io/npy_header.hpp"
#include "io/readers.hpp"

namespace apsp::io {
namespace {

// Only signatures that cannot be mistaken: a text file could start with anything else.
std::optional<format> sniff(std::string_view bytes) {
  if (detail::is_npy(bytes))
    return format::npy;
  if (bytes.substr(0, 14) == "%%MatrixMarket")
    return format::mtx;
  return std::nullopt;
}

} // namespace

namespace detail {

void fail_unknown_format(const std::filesystem::path& p) {
  fail_file(p, "unknown format: the suffix is not one of .gr .mtx .txt .el .wel .edges .csv "
               ".csv.gz .bin .course .npy (name the format explicitly)");
}

} // namespace detail

graph_file read_graph(const std::filesystem::path& p, const read_options& o) {
  std::optional<format> f = o.fmt ? o.fmt : format_from_path(p);
  detail::byte_buffer bytes = detail::read_file(p);
  if (!f)
    f = sniff(bytes.view());
  if (!f)
    detail::fail_unknown_format(p);
  const bool text = *f != format::course_binary && *f != format::npy;
  if (text && detail::is_gzip(bytes.view()))
    bytes = detail::gunzip(bytes.view(), p);
  const std::string_view v = bytes.view();
  switch (*f) {
  case format::dimacs:
    return detail::read_dimacs(p, v);
  case format::mtx:
    return detail::read_mtx(p, v);
  case format::edgelist:
    return detail::read_edgelist(p, v);
  case format::csv:
    return detail::read_csv(p, v, o.weight_column);
  case format::course_binary:
    return detail::read_course_binary(p, v);
  case format::npy:
    return detail::read_npy_graph(p, v);
  }
  detail::fail_unknown_format(p);
}

} // namespace apsp::io
