// io::npy_rows_file (apsp/block_io.hpp): an .npy table written a tile of rows at a time.

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "apsp/block_io.hpp"
#include "apsp/error.hpp"
#include "io/npy_header.hpp"

namespace apsp::io {
namespace {

[[noreturn]] void fail(const std::filesystem::path& p, const std::string& what, int err) {
  if (err == ENOSPC || err == EDQUOT)
    throw out_of_memory_error(p.string() + ": no space left to " + what);
  throw io_error(p.string() + ": cannot " + what + ": " + std::strerror(err));
}

} // namespace

npy_rows_file::npy_rows_file(const std::filesystem::path& p, dtype type, std::int64_t rows,
                             std::int64_t cols, bool reopen)
    : path_(p) {
  const std::string header = detail::make_npy_header(type, rows, cols);
  data_offset_ = header.size();
  row_bytes_ = static_cast<std::uint64_t>(cols) * size_of(type);
  const std::uint64_t total = data_offset_ + static_cast<std::uint64_t>(rows) * row_bytes_;
  fd_ =
      ::open(p.c_str(), reopen ? O_RDWR | O_CLOEXEC : O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0)
    fail(p, reopen ? "open the table left by the interrupted run" : "create the table", errno);
  if (reopen) {
    std::string head(header.size(), '\0');
    const ssize_t got = ::pread(fd_, head.data(), head.size(), 0);
    const off_t size = ::lseek(fd_, 0, SEEK_END);
    if (got != static_cast<ssize_t>(head.size()) || head != header ||
        size != static_cast<off_t>(total)) {
      ::close(fd_);
      fd_ = -1;
      throw invalid_input_error(p.string() + ": not the " + std::to_string(rows) + " x " +
                                std::to_string(cols) +
                                " table this run writes (another header "
                                "or size): start again without --resume");
    }
    return;
  }
  if (::pwrite(fd_, header.data(), header.size(), 0) != static_cast<ssize_t>(header.size()))
    fail(p, "write the header", errno);
  // The whole size at once: a disk too small fails now, not at the last tile.
  if (const int err = ::posix_fallocate(fd_, 0, static_cast<off_t>(total)); err != 0) {
    if (err != EOPNOTSUPP && err != EINVAL)
      fail(p, "reserve " + std::to_string(total) + " bytes", err);
    if (::ftruncate(fd_, static_cast<off_t>(total)) != 0)
      fail(p, "extend the table to " + std::to_string(total) + " bytes", errno);
  }
}

npy_rows_file::~npy_rows_file() {
  if (fd_ >= 0)
    ::close(fd_);
}

void npy_rows_file::write_rows(std::int64_t first, std::int64_t count, const void* values) {
  const auto* bytes = static_cast<const char*>(values);
  std::uint64_t left = static_cast<std::uint64_t>(count) * row_bytes_;
  auto at = static_cast<off_t>(data_offset_ + static_cast<std::uint64_t>(first) * row_bytes_);
  while (left > 0) {
    const ssize_t put = ::pwrite(fd_, bytes, left, at);
    if (put < 0) {
      if (errno == EINTR)
        continue;
      fail(path_, "write rows " + std::to_string(first) + ".." + std::to_string(first + count - 1),
           errno);
    }
    bytes += put;
    at += put;
    left -= static_cast<std::uint64_t>(put);
  }
}

void npy_rows_file::sync() {
  if (::fdatasync(fd_) != 0)
    fail(path_, "put the written rows on the disk", errno);
}

} // namespace apsp::io
