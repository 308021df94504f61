#pragma once
// Atomic file output: bytes go to a temporary file beside the target, which is renamed over the
// target by commit(). If commit() is never reached (an exception, a failed write), the
// destructor removes the temporary and the target is untouched.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>

namespace apsp::io::detail {

class atomic_output {
public:
  /// Creates the temporary; with `gzip`, bytes are gzip-compressed on the way out.
  /// Throws invalid_argument_error ("cannot write FILE: ...") when it cannot be created.
  atomic_output(const std::filesystem::path& target, bool gzip);
  ~atomic_output();
  atomic_output(const atomic_output&) = delete;
  atomic_output& operator=(const atomic_output&) = delete;

  /// Large buffers go to the file in few system calls (no per-element I/O).
  void write(const void* data, std::size_t size);
  void write(std::string_view s) { write(s.data(), s.size()); }
  /// Finishes compression, closes, renames onto the target.
  void commit();

private:
  void write_raw(const void* data, std::size_t size);
  void deflate_chunk(const void* data, std::size_t size, bool finish);

  std::filesystem::path target_;
  std::filesystem::path temp_;
  int fd_ = -1;
  std::uint64_t written_ = 0; ///< bytes written to the temporary file so far
  struct gzip_state;
  std::unique_ptr<gzip_state> gz_;
};

/// Whether the target's name ends in ".gz" (text writers then compress).
[[nodiscard]] bool wants_gzip(const std::filesystem::path& p);

} // namespace apsp::io::detail
