#include "core/mapped_matrix.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "apsp/error.hpp"
#include "core/host_memory.hpp"
#include "io/diagnostics.hpp"

namespace apsp::detail {

any_matrix map_matrix(dtype type, std::int64_t n, const std::filesystem::path& file,
                      std::uint64_t offset, const char* what) {
  const std::size_t elem = size_of(type);
  APSP_EXPECTS(offset % elem == 0, invalid_argument_error,
               std::string(what) + " file offset " + std::to_string(offset) +
                   " is not a multiple of the element size " + std::to_string(elem));
  const auto cells = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n);
  const std::uint64_t total = offset + cells * elem;
  // A file of exactly the right size is written over in place: the CLI prepares its output's
  // pages while a GPU's context starts (cli/solve_command.cpp), and truncating would drop them.
  // Every value is written by the solve. Any other file starts from nothing.
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  APSP_EXPECTS(fd >= 0, invalid_argument_error,
               file.string() + ": cannot create the " + what + " file: " + std::strerror(errno));
  const auto fail = [&](const std::string& what, int err) {
    ::close(fd);
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
    if (err == ENOSPC || err == EFBIG || err == ENOMEM) {
      throw out_of_memory_error(file.string() + ": " + what + ": " + std::strerror(err));
    }
    throw invalid_argument_error(file.string() + ": " + what + ": " + std::strerror(err));
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    fail("cannot inspect the file", errno);
  if (static_cast<std::uint64_t>(st.st_size) != total && ::ftruncate(fd, 0) != 0)
    fail("cannot truncate the file", errno);
  if (total == 0) {
    ::close(fd);
    return visit_dtype(type,
                       [](auto zero) -> any_matrix { return dense_matrix<decltype(zero)>(0); });
  }
  // A file larger than the free space is refused before it is reserved: posix_fallocate would
  // take every free block of the file system until it failed, and other programs writing there
  // meanwhile would fail too.
  const std::uint64_t had = static_cast<std::uint64_t>(st.st_size) == total ? total : 0;
  if (const std::uint64_t free = io::detail::free_bytes(fd); total - had > free) {
    fail("cannot reserve " + io::detail::size_text(total) + " for the " + what +
             " matrix: its file system has " + io::detail::size_text(free) + " free",
         ENOSPC);
  }
  // posix_fallocate returns the error instead of setting errno.
  if (const int err = ::posix_fallocate(fd, 0, static_cast<off_t>(total)); err != 0) {
    fail("cannot reserve " + io::detail::size_text(total) + " for the " + what + " matrix", err);
  }
  void* base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED)
    fail(std::string("cannot map the ") + what + " file", errno);
  ::close(fd); // the mapping keeps the file open
  std::shared_ptr<void> owner(base, [total](void* p) { ::munmap(p, total); });
  return visit_dtype(type, [&](auto zero) -> any_matrix {
    using T = decltype(zero);
    T* data = reinterpret_cast<T*>(static_cast<char*>(base) + offset);
    return dense_matrix<T>::adopt(n, data, owner);
  });
}

} // namespace apsp::detail
