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
/// The same for a failure of the system underneath (a failed close or rename): throws
/// apsp::io_error; a full disk or a file too large (err ENOSPC, EDQUOT, EFBIG): throws
/// out_of_memory_error (exit 5, as for every output) naming the bytes `written` so far and what
/// `fd`'s file system has free.
[[noreturn]] void fail_write_os(const std::filesystem::path& p, std::string_view message);
[[noreturn]] void fail_write_errno(const std::filesystem::path& p, int err, int fd,
                                   std::uint64_t written, std::string_view doing = {});

/// Whether `err` says the file system is full (or the file too large for it).
[[nodiscard]] bool disk_full(int err) noexcept;
/// "2,662,400 bytes (2.5 MiB)": a size in bytes and in the largest binary unit below it.
[[nodiscard]] std::string size_text(std::uint64_t bytes);
/// Bytes free for this process on `fd`'s file system (all ones when it does not say).
[[nodiscard]] std::uint64_t free_bytes(int fd) noexcept;

} // namespace apsp::io::detail
