// The vertex count a graph file declares before its data (see io.hpp): from its first bytes,
// without reading the rest, so that a caller can size its plans (the CLI: whether to start a
// GPU) while the file is still being read.

#include <algorithm>
#include <charconv>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "apsp/io.hpp"
#include "io/npy_header.hpp"
#include "io/readers.hpp"

namespace apsp::io {
namespace detail {
namespace {

/// How much of a file the peek reads: the header of every format that has one, and DIMACS or
/// Matrix Market comments up to that size.
constexpr std::size_t peek_bytes = std::size_t{64} << 10;

/// The whitespace-separated tokens of one line, at most `max` of them.
std::vector<std::string_view> tokens(std::string_view line, std::size_t max) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (out.size() < max) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
      ++i;
    if (i == line.size())
      break;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
      ++i;
    out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::optional<std::int64_t> count_of(std::string_view token) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec != std::errc() || end != token.data() + token.size() || v < 0)
    return std::nullopt;
  return v;
}

/// Calls f(line) for each complete line of `head` (the whole of the last one only when `head`
/// is the whole file) until f returns a value or gives up (returns false in `go_on`).
template <class F>
std::optional<std::int64_t> first_lines(std::string_view head, bool whole_file, F&& f) {
  std::size_t at = 0;
  while (at < head.size()) {
    const std::size_t end = head.find('\n', at);
    if (end == std::string_view::npos && !whole_file)
      return std::nullopt; // cut off by the peek
    const std::string_view line =
        head.substr(at, (end == std::string_view::npos ? head.size() : end) - at);
    bool go_on = true;
    if (auto n = f(line, go_on))
      return n;
    if (!go_on)
      return std::nullopt;
    if (end == std::string_view::npos)
      break;
    at = end + 1;
  }
  return std::nullopt;
}

/// DIMACS: comment lines ("c ...") and blank lines, then "p sp n m".
std::optional<std::int64_t> dimacs_count(std::string_view head, bool whole_file) {
  return first_lines(head, whole_file, [](std::string_view line, bool& go_on) {
    const auto t = tokens(line, 4);
    if (t.empty() || t[0] == "c")
      return std::optional<std::int64_t>{};
    go_on = false;
    if (t.size() < 4 || t[0] != "p" || t[1] != "sp")
      return std::optional<std::int64_t>{};
    return count_of(t[2]);
  });
}

/// Matrix Market: "%" lines (the banner and comments) and blank lines, then "rows cols entries".
std::optional<std::int64_t> mtx_count(std::string_view head, bool whole_file) {
  return first_lines(head, whole_file, [](std::string_view line, bool& go_on) {
    const auto t = tokens(line, 3);
    if (t.empty() || t[0].front() == '%')
      return std::optional<std::int64_t>{};
    go_on = false;
    if (t.size() < 3)
      return std::optional<std::int64_t>{};
    const auto rows = count_of(t[0]);
    const auto cols = count_of(t[1]);
    return rows && cols && *rows == *cols ? rows : std::optional<std::int64_t>{};
  });
}

} // namespace

std::optional<std::int64_t> peek_vertex_count_bytes(std::string_view head, std::size_t file_size,
                                                    format f) noexcept {
  try {
    const bool whole_file = head.size() >= file_size;
    if (head.size() >= 2 && head[0] == '\x1f' && head[1] == '\x8b')
      return std::nullopt; // gzip: the header is compressed
    switch (f) {
    case format::course_binary: {
      std::int32_t n = 0;
      if (head.size() < 2 * sizeof n)
        return std::nullopt;
      std::memcpy(&n, head.data(), sizeof n);
      return n >= 0 ? std::optional<std::int64_t>(n) : std::nullopt;
    }
    case format::npy:
      if (!is_npy(head))
        return std::nullopt;
      return parse_npy_header(head, file_size, "peek").rows;
    case format::dimacs:
      return dimacs_count(head, whole_file);
    case format::mtx:
      return mtx_count(head, whole_file);
    case format::edgelist:
    case format::csv:
    case format::tntp:
      return std::nullopt; // ids are counted only once every edge is read
    }
  } catch (...) {
    // Whatever the peek cannot tell, the reader will say properly.
  }
  return std::nullopt;
}

} // namespace detail

std::optional<std::int64_t> peek_vertex_count(const std::filesystem::path& p,
                                              const read_options& o) noexcept {
  try {
    const std::optional<format> f = o.fmt ? o.fmt : format_from_path(p);
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(p, ec);
    if (!f || ec)
      return std::nullopt;
    std::string head(static_cast<std::size_t>(std::min<std::uintmax_t>(size, detail::peek_bytes)),
                     '\0');
    std::ifstream in(p, std::ios::binary);
    if (!in.read(head.data(), static_cast<std::streamsize>(head.size())))
      return std::nullopt;
    return detail::peek_vertex_count_bytes(head, static_cast<std::size_t>(size), *f);
  } catch (...) {
    return std::nullopt;
  }
}

} // namespace apsp::io
