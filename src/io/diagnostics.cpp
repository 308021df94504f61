#include "io/diagnostics.hpp"

#include <sys/statvfs.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

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

bool disk_full(int err) noexcept {
  return err == ENOSPC || err == EDQUOT || err == EFBIG;
}

std::uint64_t free_bytes(int fd) noexcept {
  struct statvfs fs {};
  if (::fstatvfs(fd, &fs) != 0)
    return ~std::uint64_t{0};
  return static_cast<std::uint64_t>(fs.f_bavail) * static_cast<std::uint64_t>(fs.f_frsize);
}

std::string size_text(std::uint64_t bytes) {
  const std::string plain = std::to_string(bytes);
  std::string digits;
  for (std::size_t k = 0; k < plain.size(); ++k) {
    if (k > 0 && (plain.size() - k) % 3 == 0)
      digits += ',';
    digits += plain[k];
  }
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes);
  int u = -1;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  if (u < 0)
    return digits + (bytes == 1 ? " byte" : " bytes");
  char scaled[32];
  std::snprintf(scaled, sizeof scaled, " (%.1f %s)", v, units[u]);
  return digits + " bytes" + scaled;
}

void fail_write_errno(const std::filesystem::path& p, int err, int fd, std::uint64_t written,
                      std::string_view doing) {
  std::string message = (doing.empty() ? std::string() : std::string(doing) + ": ") +
                        std::strerror(err);
  if (!disk_full(err))
    fail_write_os(p, message);
  const std::uint64_t free = fd >= 0 ? free_bytes(fd) : ~std::uint64_t{0};
  message += " after writing " + size_text(written) + " of it";
  if (free != ~std::uint64_t{0})
    message += "; its file system has " + size_text(free) + " free";
  throw out_of_memory_error("cannot write " + display_name(p) + ": " + message);
}

} // namespace apsp::io::detail
