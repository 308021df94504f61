#include "io/npy_header.hpp"

#include <charconv>
#include <cstring>
#include <vector>

#include "io/diagnostics.hpp"
#include "io/limits.hpp"

namespace apsp::io::detail {
namespace {

constexpr std::string_view npy_magic = "\x93NUMPY";

std::string_view descr_of(dtype t) {
  switch (t) {
  case dtype::int32:
    return "<i4";
  case dtype::float32:
    return "<f4";
  case dtype::int64:
    return "<i8";
  case dtype::float64:
    return "<f8";
  }
  return "<f8";
}

// A tiny reader for the dict literal numpy writes; offsets are file offsets for messages.
class dict_reader {
public:
  dict_reader(std::string_view text, std::size_t base, const std::filesystem::path& p)
      : text_(text), base_(base), p_(p) {}

  // Position just after "'key':" (with blanks skipped), or fails.
  std::size_t find_value(std::string_view key) {
    std::string quoted_key(1, '\'');
    quoted_key.append(key).push_back('\'');
    std::size_t at = text_.find(quoted_key);
    if (at == std::string_view::npos) {
      quoted_key.front() = quoted_key.back() = '"';
      at = text_.find(quoted_key);
    }
    if (at == std::string_view::npos)
      fail(0, "header has no '" + std::string(key) + "' entry");
    std::size_t i = skip(at + key.size() + 2);
    if (i >= text_.size() || text_[i] != ':')
      fail(i, "expected ':' after '" + std::string(key) + "'");
    return skip(i + 1);
  }
  std::string_view string_at(std::size_t i) {
    if (i >= text_.size() || (text_[i] != '\'' && text_[i] != '"'))
      fail(i, "expected a string");
    const std::size_t end = text_.find(text_[i], i + 1);
    if (end == std::string_view::npos)
      fail(i, "unterminated string");
    return text_.substr(i + 1, end - i - 1);
  }
  bool bool_at(std::size_t i) {
    if (text_.substr(i, 4) == "True")
      return true;
    if (text_.substr(i, 5) == "False")
      return false;
    fail(i, "expected True or False");
  }
  std::vector<std::int64_t> tuple_at(std::size_t i) {
    if (i >= text_.size() || text_[i] != '(')
      fail(i, "expected a shape tuple");
    std::vector<std::int64_t> dims;
    i = skip(i + 1);
    while (i < text_.size() && text_[i] != ')') {
      std::int64_t v = 0;
      auto [ptr, ec] = std::from_chars(text_.data() + i, text_.data() + text_.size(), v);
      if (ec != std::errc() || v < 0)
        fail(i, "bad dimension in shape");
      dims.push_back(v);
      i = skip(static_cast<std::size_t>(ptr - text_.data()));
      if (i < text_.size() && text_[i] == 'L')
        i = skip(i + 1); // Python 2 longs
      if (i < text_.size() && text_[i] == ',')
        i = skip(i + 1);
      else if (i < text_.size() && text_[i] != ')')
        fail(i, "bad shape tuple");
    }
    if (i >= text_.size())
      fail(i, "unterminated shape tuple");
    return dims;
  }

private:
  std::size_t skip(std::size_t i) const {
    while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t'))
      ++i;
    return i;
  }
  [[noreturn]] void fail(std::size_t i, const std::string& message) const {
    fail_byte(p_, static_cast<std::int64_t>(base_ + i), "npy header: " + message);
  }
  std::string_view text_;
  std::size_t base_;
  const std::filesystem::path& p_;
};

std::uint32_t read_le(std::string_view bytes, std::size_t at, std::size_t width) {
  std::uint32_t v = 0;
  for (std::size_t k = 0; k < width; ++k) {
    v |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + k])) << (8 * k);
  }
  return v;
}

} // namespace

bool is_npy(std::string_view bytes) noexcept {
  return bytes.substr(0, 6) == npy_magic;
}

npy_header parse_npy_header(std::string_view bytes, std::size_t file_size,
                            const std::filesystem::path& p, bool square) {
  if (bytes.empty())
    fail_byte(p, 0, "empty file (expected a .npy array)");
  if (!is_npy(bytes))
    fail_byte(p, 0, "not a .npy file (missing the \\x93NUMPY magic)");
  if (bytes.size() < 10)
    fail_byte(p, 6, "truncated .npy header");
  const int major = static_cast<unsigned char>(bytes[6]);
  if (major < 1 || major > 3)
    fail_byte(p, 6, "unsupported .npy version " + std::to_string(major));
  const std::size_t len_width = major == 1 ? 2 : 4;
  const std::size_t dict_at = 8 + len_width;
  if (bytes.size() < dict_at)
    fail_byte(p, 8, "truncated .npy header");
  const std::size_t dict_len = read_le(bytes, 8, len_width);
  if (file_size - dict_at < dict_len) {
    fail_byte(p, static_cast<std::int64_t>(file_size),
              "truncated .npy header (declares " + std::to_string(dict_len) + " bytes)");
  }
  if (bytes.size() - dict_at < dict_len) {
    fail_byte(p, 8, "npy header of " + std::to_string(dict_len) + " bytes is too long");
  }
  dict_reader dict(bytes.substr(dict_at, dict_len), dict_at, p);
  npy_header h;
  h.data_offset = dict_at + dict_len;

  const std::size_t descr_at = dict.find_value("descr");
  const std::string_view descr = dict.string_at(descr_at);
  const std::int64_t descr_byte = static_cast<std::int64_t>(dict_at + descr_at);
  if (descr == "<i4") {
    h.type = dtype::int32;
  } else if (descr == "<f4") {
    h.type = dtype::float32;
  } else if (descr == "<i8") {
    h.type = dtype::int64;
  } else if (descr == "<f8") {
    h.type = dtype::float64;
  } else {
    fail_byte(p, descr_byte,
              "dtype " + quote_token(descr) + " is not supported (expected <i4, <f4, <i8 or <f8)");
  }
  h.fortran_order = dict.bool_at(dict.find_value("fortran_order"));
  const std::size_t shape_at = dict.find_value("shape");
  const std::vector<std::int64_t> shape = dict.tuple_at(shape_at);
  const auto shape_byte = static_cast<std::int64_t>(dict_at + shape_at);
  if (shape.size() != 2) {
    fail_byte(p, shape_byte,
              "array has " + std::to_string(shape.size()) +
                  " dimension(s); expected a square 2-D matrix");
  }
  h.rows = shape[0];
  h.cols = shape[1];
  if (square && h.rows != h.cols) {
    fail_byte(p, shape_byte,
              "matrix is " + std::to_string(h.rows) + " x " + std::to_string(h.cols) +
                  "; expected a square matrix");
  }
  if (h.rows > max_vertices || h.cols > max_vertices) {
    fail_byte(p, shape_byte,
              "matrix size " + std::to_string(h.rows > h.cols ? h.rows : h.cols) +
                  " is too large (at most " +
                  std::to_string(max_vertices) + ")");
  }
  const std::size_t need =
      static_cast<std::size_t>(h.rows) * static_cast<std::size_t>(h.cols) * size_of(h.type);
  const std::size_t have = file_size - h.data_offset;
  if (have < need) {
    fail_byte(p, static_cast<std::int64_t>(file_size),
              "truncated array data (" + std::to_string(need) + " bytes expected after the " +
                  "header, " + std::to_string(have) + " present)");
  }
  if (have > need) {
    fail_byte(p, static_cast<std::int64_t>(h.data_offset + need),
              std::to_string(have - need) + " unexpected bytes after the array data");
  }
  return h;
}

std::string make_npy_header(dtype type, std::int64_t rows, std::int64_t cols) {
  std::string dict = "{'descr': '" + std::string(descr_of(type)) +
                     "', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                     std::to_string(cols) + "), }";
  // Magic (6) + version (2) + length (2) + dict + padding + '\n' is a multiple of 64, as numpy
  // writes it, so the data is aligned for memory mapping.
  std::size_t total = 10 + dict.size() + 1;
  const std::size_t padded = (total + 63) / 64 * 64;
  dict.append(padded - total, ' ');
  dict += '\n';
  std::string out(npy_magic);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>((dict.size() >> 8) & 0xff);
  out += dict;
  return out;
}

} // namespace apsp::io::detail
