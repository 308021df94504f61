#pragma once
// Line and token scanning over an in-memory text, with strict number parsing (std::from_chars:
// no locale, no allocation, the whole token must be consumed).

#include <charconv>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string_view>

namespace apsp::io::detail {

/// Yields the lines of `text` without their "\n" or "\r\n", counting from 1.
class line_reader {
public:
  explicit line_reader(std::string_view text) : text_(text) {
    // A UTF-8 byte-order mark is not part of the first line's content.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF")
      pos_ = 3;
  }

  bool next(std::string_view& line) noexcept {
    if (pos_ >= text_.size())
      return false;
    const char* begin = text_.data() + pos_;
    const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', text_.size() - pos_));
    std::size_t len = nl ? static_cast<std::size_t>(nl - begin) : text_.size() - pos_;
    pos_ += len + (nl ? 1 : 0);
    if (len > 0 && begin[len - 1] == '\r')
      --len;
    line = {begin, len};
    ++line_;
    return true;
  }
  /// 1-based number of the line last returned (0 before the first).
  [[nodiscard]] std::int64_t line_number() const noexcept { return line_; }
  /// Bytes not yet returned.
  [[nodiscard]] std::size_t remaining() const noexcept { return text_.size() - pos_; }

private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::int64_t line_ = 0;
};

/// The lines of a text file's contents `text`; invalid_input_error at line 1 of `p` when it is
/// empty, saying what the format `expects` first ("a CSV header row").
[[nodiscard]] line_reader lines_of(const std::filesystem::path& p, std::string_view text,
                                   std::string_view expects);

/// Splits a line on spaces and tabs.
class token_scanner {
public:
  explicit token_scanner(std::string_view line) : rest_(line) {}

  bool next(std::string_view& token) noexcept {
    std::size_t i = 0;
    while (i < rest_.size() && is_blank(rest_[i]))
      ++i;
    if (i == rest_.size()) {
      rest_ = {};
      return false;
    }
    std::size_t j = i;
    while (j < rest_.size() && !is_blank(rest_[j]))
      ++j;
    token = rest_.substr(i, j - i);
    rest_ = rest_.substr(j);
    return true;
  }
  /// Number of tokens left (consumes nothing).
  [[nodiscard]] int count() const noexcept {
    token_scanner copy = *this;
    std::string_view t;
    int c = 0;
    while (copy.next(t))
      ++c;
    return c;
  }

private:
  static bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
  std::string_view rest_;
};

/// Parses a whole token as a base-10 integer (a leading '+' is allowed).
[[nodiscard]] inline bool parse_int(std::string_view token, std::int64_t& out) noexcept {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-')
    token.remove_prefix(1);
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, out);
  return ec == std::errc() && ptr == end && !token.empty();
}

/// First non-blank character of the line, or '\0'.
[[nodiscard]] inline char first_char(std::string_view line) noexcept {
  const auto i = line.find_first_not_of(" \t\v\f");
  return i == std::string_view::npos ? '\0' : line[i];
}

/// Reads the next line that has content into `line`: not blank, and not a comment (its first
/// non-blank character one of `comments`); false at the end of the text.
[[nodiscard]] inline bool next_content_line(line_reader& lines, std::string_view comments,
                                            std::string_view& line) noexcept {
  while (lines.next(line)) {
    const char c = first_char(line);
    if (c != '\0' && comments.find(c) == std::string_view::npos)
      return true;
  }
  return false;
}

/// Reads the line's next tokens into `out...`: true when it has that many and no more.
template <class... Tokens>
[[nodiscard]] bool next_exactly(token_scanner& tokens, Tokens&... out) noexcept {
  std::string_view extra;
  return (tokens.next(out) && ...) && !tokens.next(extra);
}

/// A weight: a finite number with |w| <= 2^53; otherwise invalid_input_error at `line`.
[[nodiscard]] double parse_weight(std::string_view token, const std::filesystem::path& p,
                                  std::int64_t line);

/// A vertex id in [base, base + n - 1]; returns it minus base. Otherwise invalid_input_error.
[[nodiscard]] std::int64_t parse_vertex(std::string_view token, std::int64_t n, std::int64_t base,
                                        const std::filesystem::path& p, std::int64_t line);

/// A header count (n, m, nnz): a non-negative integer, else invalid_input_error naming `what`.
[[nodiscard]] std::int64_t parse_count(std::string_view token, std::string_view what,
                                       const std::filesystem::path& p, std::int64_t line);

/// Refuses a vertex count the library cannot hold (n > 2^19, whose int32 matrix exceeds 1 TiB).
void check_vertex_count(std::int64_t n, std::int64_t limit, const std::filesystem::path& p,
                        std::int64_t line);

/// Refuses a declared record count that `remaining` bytes cannot hold when every record needs at
/// least `min_record_bytes` plus a newline.
void check_record_count(std::int64_t count, std::size_t remaining, std::size_t min_record_bytes,
                        std::string_view what, const std::filesystem::path& p, std::int64_t line);

} // namespace apsp::io::detail
