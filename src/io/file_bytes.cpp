#include "io/file_bytes.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <string>

#include "io/diagnostics.hpp"

namespace apsp::io::detail {
namespace {

struct fd_guard {
  int fd;
  ~fd_guard() {
    if (fd >= 0)
      ::close(fd);
  }
};

// Decompressed text beyond this is refused rather than grown without bound (a "zip bomb").
constexpr std::size_t max_gunzip_bytes = std::size_t{1} << 40;

} // namespace

input_file::input_file(const std::filesystem::path& p) : path_(p) {
  fd_ = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0)
    fail_file(p, std::string("cannot open: ") + std::strerror(errno));
  fd_guard guard{fd_};
  struct stat st {};
  if (::fstat(fd_, &st) != 0)
    fail_file(p, std::string("cannot stat: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    fail_file(p, "is a directory, not a file");
  if (!S_ISREG(st.st_mode))
    fail_file(p, "is not a regular file");
  size_ = static_cast<std::size_t>(st.st_size);
  guard.fd = -1; // keep it open
}

input_file::~input_file() {
  if (fd_ >= 0)
    ::close(fd_);
}

void input_file::read_at(void* out, std::size_t count, std::size_t offset) const {
  char* dst = static_cast<char*>(out);
  while (count > 0) {
    // Linux caps one read at about 2 GiB; loop until everything is in.
    const std::size_t want = std::min<std::size_t>(count, std::size_t{1} << 30);
    const ssize_t got = ::pread(fd_, dst, want, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      fail_file(path_, std::string("read failed: ") + std::strerror(errno));
    if (got == 0) {
      fail_byte(path_, static_cast<std::int64_t>(offset), "file ended while being read");
    }
    dst += got;
    offset += static_cast<std::size_t>(got);
    count -= static_cast<std::size_t>(got);
  }
}

void input_file::read_at_parallel(void* out, std::size_t count, std::size_t offset,
                                  std::size_t chunk) const {
  char* dst = static_cast<char*>(out);
  if (count == 0)
    return;
  chunk = std::max<std::size_t>(chunk, 1);
  const auto chunks = static_cast<std::int64_t>((count + chunk - 1) / chunk);
  if (chunks <= 1) {
    read_at(dst, count, offset);
    return;
  }
  // Exceptions may not leave an OpenMP region: remember the first failure, rethrow after.
  std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::size_t at = static_cast<std::size_t>(c) * chunk;
    try {
      read_at(dst + at, std::min(chunk, count - at), offset + at);
    } catch (...) {
#pragma omp critical(apsp_read_at_parallel_failure)
      if (!failure)
        failure = std::current_exception();
    }
  }
  if (failure)
    std::rethrow_exception(failure);
}

void byte_release::operator()(char* p) const noexcept {
  if (mapped_bytes != 0) {
    ::munmap(p, mapped_bytes);
  } else {
    delete[] p;
  }
}

byte_buffer read_file(const std::filesystem::path& p) {
  const input_file f(p);
  // Large files are mapped rather than copied: from the page cache that skips zeroing and
  // copying a fresh buffer (a third of the course-binary read of a 40 M-edge graph). Where
  // mapping fails (a file system without mmap), they are read as below.
  constexpr std::size_t map_from = std::size_t{64} << 20;
  if (f.size() >= map_from) {
    void* m = ::mmap(nullptr, f.size(), PROT_READ, MAP_PRIVATE | MAP_POPULATE, f.fd(), 0);
    if (m != MAP_FAILED)
      return byte_buffer::mapped(static_cast<char*>(m), f.size());
  }
  byte_buffer buf(f.size());
  f.read_at_parallel(buf.data(), buf.size(), 0, std::size_t{64} << 20);
  return buf;
}

bool is_gzip(std::string_view bytes) noexcept {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

byte_buffer gunzip(std::string_view bytes, const std::filesystem::path& p) {
  z_stream zs{};
  // 16 + MAX_WBITS: expect a gzip wrapper (not raw zlib).
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
    fail_file(p, "cannot start gzip decompression");
  struct stream_guard {
    z_stream* zs;
    ~stream_guard() { inflateEnd(zs); }
  } guard{&zs};

  std::size_t capacity = std::max<std::size_t>(bytes.size() * 4, 1 << 16);
  byte_buffer out(capacity);
  std::size_t produced = 0;
  std::size_t consumed = 0;
  for (;;) {
    if (produced == capacity) {
      if (capacity >= max_gunzip_bytes)
        fail_byte(p, static_cast<std::int64_t>(consumed), "decompresses to more than 1 TiB");
      byte_buffer bigger(capacity * 2);
      std::memcpy(bigger.data(), out.data(), produced);
      out = std::move(bigger);
      capacity *= 2;
    }
    const std::size_t in_left = bytes.size() - consumed;
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + consumed));
    zs.avail_in =
        static_cast<uInt>(std::min<std::size_t>(in_left, std::numeric_limits<uInt>::max()));
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    zs.avail_out = static_cast<uInt>(
        std::min<std::size_t>(capacity - produced, std::numeric_limits<uInt>::max()));
    const uInt in_before = zs.avail_in;
    const uInt out_before = zs.avail_out;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    consumed += in_before - zs.avail_in;
    produced += out_before - zs.avail_out;
    if (rc == Z_STREAM_END) {
      // Concatenated members are one stream (gzip's own rule); stop at the end of input.
      if (consumed == bytes.size())
        break;
      if (!is_gzip(bytes.substr(consumed))) {
        fail_byte(p, static_cast<std::int64_t>(consumed), "unexpected data after the gzip stream");
      }
      if (inflateReset(&zs) != Z_OK)
        fail_file(p, "cannot restart gzip decompression");
      continue;
    }
    if (rc == Z_OK)
      continue;
    if (rc == Z_BUF_ERROR) {
      // No progress possible: either the output is full (grow it) or the input ran out.
      if (zs.avail_out == 0)
        continue;
      fail_byte(p, static_cast<std::int64_t>(consumed), "truncated gzip data");
    }
    fail_byte(p, static_cast<std::int64_t>(consumed),
              std::string("corrupt gzip data (") + (zs.msg ? zs.msg : "inflate failed") + ")");
  }
  out.shrink(produced);
  return out;
}

} // namespace apsp::io::detail
