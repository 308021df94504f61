#include "io/atomic_output.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "io/diagnostics.hpp"

namespace apsp::io::detail {

struct atomic_output::gzip_state {
  z_stream zs{};
  std::vector<unsigned char> out = std::vector<unsigned char>(std::size_t{1} << 20);
  ~gzip_state() { deflateEnd(&zs); }
};

namespace {

std::atomic<unsigned> temp_counter{0};

} // namespace

bool wants_gzip(const std::filesystem::path& p) {
  // Any case, as the readers take the suffix (format_from_path).
  const std::string name = p.filename().string();
  return name.size() > 3 && name[name.size() - 3] == '.' && (name[name.size() - 2] | 0x20) == 'g' &&
         (name[name.size() - 1] | 0x20) == 'z';
}

atomic_output::atomic_output(const std::filesystem::path& target, bool gzip) : target_(target) {
  if (target.filename().empty())
    fail_write(target, "the path names no file");
  const std::filesystem::path dir = target.parent_path();
  // Same directory as the target, so rename() is atomic; dot-prefixed so it reads as scratch.
  for (int attempt = 0; fd_ < 0; ++attempt) {
    std::string name(1, '.');
    name += target.filename().string();
    name += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(temp_counter++);
    temp_ = dir / name;
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && (errno != EEXIST || attempt > 100)) {
      const int err = errno;
      const std::string why =
          std::string("cannot create a temporary file in its directory: ") + std::strerror(err);
      // A directory that is missing, not one, or not ours to write: the path is wrong.
      if (err == ENOENT || err == ENOTDIR || err == EACCES || err == EPERM || err == EROFS)
        fail_write(target, why);
      fail_write_errno(target, err, -1, 0, "cannot create a temporary file in its directory");
    }
  }
  if (gzip) {
    gz_ = std::make_unique<gzip_state>();
    // 15 + 16: gzip wrapper; level 6 is zlib's usual speed/size balance.
    if (deflateInit2(&gz_->zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      gz_.reset();
      ::close(fd_);
      ::unlink(temp_.c_str());
      fail_write_os(target, "cannot start gzip compression");
    }
  }
}

atomic_output::~atomic_output() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_.c_str());
  }
}

void atomic_output::write_raw(const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    // Moderate chunks let the kernel start writeback while later chunks are still copied in.
    const std::size_t chunk = std::min<std::size_t>(size, std::size_t{64} << 20);
    const ssize_t done = ::write(fd_, p, chunk);
    if (done < 0 && errno == EINTR)
      continue;
    if (done < 0)
      fail_write_errno(target_, errno, fd_, written_);
    p += done;
    size -= static_cast<std::size_t>(done);
    written_ += static_cast<std::uint64_t>(done);
  }
}

void atomic_output::deflate_chunk(const void* data, std::size_t size, bool finish) {
  z_stream& zs = gz_->zs;
  const auto* in = static_cast<const unsigned char*>(data);
  do {
    const std::size_t step = std::min<std::size_t>(size, std::size_t{1} << 30);
    zs.next_in = const_cast<unsigned char*>(in);
    zs.avail_in = static_cast<uInt>(step);
    const int flush = (finish && step == size) ? Z_FINISH : Z_NO_FLUSH;
    int rc = Z_OK;
    do {
      zs.next_out = gz_->out.data();
      zs.avail_out = static_cast<uInt>(gz_->out.size());
      rc = deflate(&zs, flush);
      if (rc == Z_STREAM_ERROR)
        fail_write_os(target_, "gzip compression failed");
      write_raw(gz_->out.data(), gz_->out.size() - zs.avail_out);
    } while (zs.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    in += step;
    size -= step;
  } while (size > 0);
}

void atomic_output::write(const void* data, std::size_t size) {
  if (size == 0)
    return;
  if (gz_) {
    deflate_chunk(data, size, false);
  } else {
    write_raw(data, size);
  }
}

void atomic_output::commit() {
  if (gz_)
    deflate_chunk(nullptr, 0, true);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(temp_.c_str());
    fail_write_errno(target_, err, -1, written_, "close failed");
  }
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp_.c_str());
    fail_write_os(target_,
                  std::string("cannot rename the temporary onto it: ") + std::strerror(err));
  }
}

} // namespace apsp::io::detail
