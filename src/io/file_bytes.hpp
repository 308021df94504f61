#pragma once
// Whole-file input: one bulk read into an uninitialised buffer, gunzipped when the bytes start
// with the gzip magic. Parsers then work on memory (std::from_chars), never on streams.

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string_view>

namespace apsp::io::detail {

/// Frees a byte_buffer's bytes: delete[], or munmap for a mapping of mapped_bytes.
struct byte_release {
  std::size_t mapped_bytes; // 0: new[]
  void operator()(char* p) const noexcept;
};

class byte_buffer {
public:
  byte_buffer() : data_(nullptr, byte_release{0}) {}
  explicit byte_buffer(std::size_t size)
      : data_(size == 0 ? nullptr : new char[size], byte_release{0}), size_(size) {}
  /// Takes over a read-only private mapping of `size` bytes (munmap'ed when destroyed): data()
  /// must then not be written through.
  [[nodiscard]] static byte_buffer mapped(char* p, std::size_t size) noexcept {
    byte_buffer b;
    b.data_ = std::unique_ptr<char[], byte_release>(p, byte_release{size});
    b.size_ = size;
    return b;
  }

  [[nodiscard]] char* data() noexcept { return data_.get(); }
  [[nodiscard]] const char* data() const noexcept { return data_.get(); }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::string_view view() const noexcept { return {data_.get(), size_}; }
  /// Keeps the first `size` bytes (no reallocation).
  void shrink(std::size_t size) noexcept { size_ = size < size_ ? size : size_; }

private:
  std::unique_ptr<char[], byte_release> data_;
  std::size_t size_ = 0;
};

/// An open file for positioned reads (large matrices are read straight into their storage).
class input_file {
public:
  /// Throws invalid_input_error naming the file when it cannot be opened or is not a file.
  explicit input_file(const std::filesystem::path& p);
  ~input_file();
  input_file(const input_file&) = delete;
  input_file& operator=(const input_file&) = delete;

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] int fd() const noexcept { return fd_; }
  /// Reads exactly `count` bytes at `offset` (thread-safe); throws invalid_input_error.
  void read_at(void* out, std::size_t count, std::size_t offset) const;
  /// read_at in pieces of `chunk` bytes on several threads: from the page cache the cost of a
  /// large read is mostly faulting in and copying the destination's fresh pages, which one
  /// thread does at a few GB/s. Throws the first failure.
  void read_at_parallel(void* out, std::size_t count, std::size_t offset, std::size_t chunk) const;

private:
  const std::filesystem::path& path_;
  int fd_ = -1;
  std::size_t size_ = 0;
};

/// The file's bytes. Throws invalid_input_error naming the file when it cannot be opened/read.
[[nodiscard]] byte_buffer read_file(const std::filesystem::path& p);

[[nodiscard]] bool is_gzip(std::string_view bytes) noexcept;

/// Decompresses every gzip member of `bytes`; throws invalid_input_error (with the compressed
/// byte offset) on corrupt or truncated data.
[[nodiscard]] byte_buffer gunzip(std::string_view bytes, const std::filesystem::path& p);

} // namespace apsp::io::detail
