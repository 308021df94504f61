#pragma once
// One-line error messages for the readers and writers: every message names the file and the
// line (text) or byte offset (binary), so a user can open the file at the right place.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace apsp::io::detail {

/// The path as printed in messages (control characters replaced, so a message stays one line).
[[nodiscard]] std::string display_name(const std::filesystem::path& p);

/// A token from the file, quoted and shortened for a message.
[[nodiscard]] std::string quote_token(std::string_view token);

/// invalid_input_error "FILE: MESSAGE".
[[noreturn]] void fail_file(const std::filesystem::path& p, std::string_view message);
/// invalid_input_error "FILE: line N: MESSAGE" (N is 1-based).
[[noreturn]] void fail_line(const std::filesystem::path& p, std::int64_t line,
                            std::string_view message);
/// invalid_input_error "FILE: byte N: MESSAGE" (N is the 0-based offset of the bad field).
[[noreturn]] void fail_byte(const std::filesystem::path& p, std::int64_t offset,
                            std::string_view message);
/// invalid_argument_error "cannot write FILE: MESSAGE".
[[noreturn]] void fail_write(const std::filesystem::path& p, std::string_view message);
/// The same for a failure of the system underneath (disk full, file too large, a failed close
/// or rename): throws apsp::io_error.
[[noreturn]] void fail_write_os(const std::filesystem::path& p, std::string_view message);

} // namespace apsp::io::detail
