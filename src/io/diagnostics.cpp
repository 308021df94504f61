#include "io/diagnostics.hpp"

#include "apsp/error.hpp"

namespace apsp::io::detail {
namespace {

// Keeps messages on one line whatever bytes a file or path contains.
std::string printable(std::string_view s, std::size_t max_chars) {
  std::string out;
  for (char c : s.substr(0, max_chars)) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  if (s.size() > max_chars)
    out += "...";
  return out;
}

} // namespace

std::string display_name(const std::filesystem::path& p) {
  return printable(p.string(), 4096);
}

std::string quote_token(std::string_view token) {
  std::string out(1, '\'');
  out += printable(token, 40);
  out += '\'';
  return out;
}

void fail_file(const std::filesystem::path& p, std::string_view message) {
  throw invalid_input_error(display_name(p) + ": " + std::string(message));
}

void fail_line(const std::filesystem::path& p, std::int64_t line, std::string_view message) {
  throw invalid_input_error(display_name(p) + ": line " + std::to_string(line < 1 ? 1 : line) +
                            ": " + std::string(message));
}

void fail_byte(const std::filesystem::path& p, std::int64_t offset, std::string_view message) {
  throw invalid_input_error(display_name(p) + ": byte " + std::to_string(offset) + ": " +
                            std::string(message));
}

void fail_write(const std::filesystem::path& p, std::string_view message) {
  throw invalid_argument_error("cannot write " + display_name(p) + ": " + std::string(message));
}

void fail_write_os(const std::filesystem::path& p, std::string_view message) {
  throw io_error("cannot write " + display_name(p) + ": " + std::string(message));
}

} // namespace apsp::io::detail
