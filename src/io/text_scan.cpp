#include "io/text_scan.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "io/diagnostics.hpp"
#include "io/limits.hpp"

namespace apsp::io::detail {

line_reader lines_of(const std::filesystem::path& p, std::string_view text,
                     std::string_view expects) {
  if (text.empty())
    fail_line(p, 1, "empty file (expected " + std::string(expects) + ")");
  return line_reader(text);
}

double parse_weight(std::string_view token, const std::filesystem::path& p, std::int64_t line) {
  std::string_view digits = token;
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-')
    digits.remove_prefix(1);
  double w = 0;
  const char* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(digits.data(), end, w);
  if (ptr != end || digits.empty() || (ec != std::errc() && ec != std::errc::result_out_of_range)) {
    fail_line(p, line, "weight " + quote_token(token) + " is not a number");
  }
  // Out of range below: a magnitude under the smallest double (1e-400) is that tiny number's
  // nearest double, 0 or a subnormal, as strtod gives it; only overflow is refused below.
  if (ec == std::errc::result_out_of_range) {
    const std::string copy(digits); // strtod tells underflow (|v| < 1) from overflow (HUGE_VAL)
    if (const double v = std::strtod(copy.c_str(), nullptr); std::fabs(v) < 1) {
      w = v;
      ec = std::errc();
    }
  }
  if (std::isnan(w) || std::isinf(w) || ec == std::errc::result_out_of_range) {
    if (std::isnan(w))
      fail_line(p, line, "weight " + quote_token(token) + " is not a number (NaN)");
    // from_chars reports overflow without a value; a literal "inf" parses to infinity.
    if (ec == std::errc::result_out_of_range) {
      fail_line(p, line, "weight " + quote_token(token) + " is out of range (|w| > 2^53)");
    }
    fail_line(p, line, "weight " + quote_token(token) + " is infinite (weights must be finite)");
  }
  // A value just beyond 2^53 (9007199254740993, 9007199254740992.5) rounds to 2^53 as a double:
  // only a token that is 2^53 itself may give it (long double holds both apart).
  long double wide = 0;
  if (std::fabs(w) == max_abs_weight &&
      (std::from_chars(digits.data(), end, wide).ec != std::errc() ||
       std::fabs(wide) != static_cast<long double>(max_abs_weight))) {
    w = 2 * max_abs_weight;
  }
  if (!is_valid_weight(w)) {
    fail_line(p, line, "weight " + quote_token(token) + " is out of range (|w| > 2^53)");
  }
  return w;
}

std::int64_t parse_vertex(std::string_view token, std::int64_t n, std::int64_t base,
                          const std::filesystem::path& p, std::int64_t line) {
  std::int64_t v = 0;
  if (!parse_int(token, v))
    fail_line(p, line, "vertex id " + quote_token(token) + " is not an integer");
  if (v < base || v - base >= n) {
    fail_line(p, line,
              "vertex id " + std::to_string(v) + " is out of range " + std::to_string(base) + ".." +
                  std::to_string(base + n - 1));
  }
  return v - base;
}

std::int64_t parse_count(std::string_view token, std::string_view what,
                         const std::filesystem::path& p, std::int64_t line) {
  std::int64_t v = 0;
  if (!parse_int(token, v)) {
    fail_line(p, line, std::string(what) + " " + quote_token(token) + " is not an integer");
  }
  if (v < 0)
    fail_line(p, line, std::string(what) + " " + std::to_string(v) + " is negative");
  return v;
}

void check_vertex_count(std::int64_t n, std::int64_t limit, const std::filesystem::path& p,
                        std::int64_t line) {
  if (n > limit) {
    fail_line(p, line,
              "vertex count " + std::to_string(n) + " is too large (at most " +
                  std::to_string(limit) +
                  (limit == max_vertices ? ": an n x n int32 matrix must fit in 1 TiB)" : ")"));
  }
}

void check_record_count(std::int64_t count, std::size_t remaining, std::size_t min_record_bytes,
                        std::string_view what, const std::filesystem::path& p, std::int64_t line) {
  // `count` records need at least count * (min_record_bytes + 1) - 1 bytes.
  const auto capacity = (remaining + 1) / (min_record_bytes + 1);
  if (static_cast<std::uint64_t>(count) > capacity) {
    fail_line(p, line,
              "declares " + std::to_string(count) + " " + std::string(what) + " but the " +
                  std::to_string(remaining) + " bytes that follow can hold at most " +
                  std::to_string(capacity));
  }
}

} // namespace apsp::io::detail
