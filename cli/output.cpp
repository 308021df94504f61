#include "output.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <type_traits>
#include <variant>

#include "apsp/error.hpp"
#include "interrupt.hpp"
#include "solver.hpp"

namespace apsp::cli {
namespace {

io::format output_format(const std::string& path, const std::string& explicit_format,
                         const char* what) {
  if (!explicit_format.empty())
    return io::parse_format(explicit_format);
  const auto by_suffix = io::format_from_path(path);
  if (!by_suffix) {
    throw invalid_argument_error("cannot tell the " + std::string(what) + " format of '" + path +
                                 "' from its suffix; give --output-format");
  }
  return *by_suffix;
}

} // namespace

io::format matrix_output_format(const std::string& path, const std::string& explicit_format) {
  const io::format f = output_format(path, explicit_format, "output");
  if (f != io::format::npy && f != io::format::course_binary && f != io::format::csv) {
    throw invalid_argument_error("a distance matrix cannot be written as " +
                                 std::string(io::to_string(f)) + " ('" + path +
                                 "'); use .npy, .bin/.course or .csv");
  }
  return f;
}

io::format graph_output_format(const std::string& path, const std::string& explicit_format) {
  return output_format(path, explicit_format, "output");
}

namespace {

/// Why no file can be created in `dir` (empty when one can): a file is created there and removed
/// again. Asking is the only answer that holds for root (who passes permission bits but not a
/// read-only file system), ACLs and network file systems alike.
std::string cannot_create_in(const std::filesystem::path& dir) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::filesystem::path probe = dir / (".apsp-probe-" + std::to_string(::getpid()) + "-" +
                                               std::to_string(attempt));
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      ::close(fd);
      ::unlink(probe.c_str());
      return {};
    }
    if (errno != EEXIST)
      return std::strerror(errno);
  }
  return std::strerror(EEXIST);
}

} // namespace

void check_writable(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    throw invalid_argument_error("output '" + path + "' is a directory");
  }
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) {
    throw invalid_argument_error("cannot write '" + path + "': directory '" + dir.string() +
                                 "' does not exist");
  }
  if (const std::string why = cannot_create_in(dir); !why.empty()) {
    throw invalid_argument_error("cannot write '" + path + "': no file can be created in '" +
                                 dir.string() + "': " + why);
  }
}

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    throw io_error("cannot write " + path.string() + ": " + std::strerror(errno));
  std::size_t done = 0;
  int err = 0;
  while (done < text.size() && err == 0) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno != EINTR)
      err = errno;
    else if (w > 0)
      done += static_cast<std::size_t>(w);
  }
  if (::close(fd) != 0 && err == 0)
    err = errno;
  if (err == 0)
    return;
  if (err == ENOSPC || err == EDQUOT || err == EFBIG) {
    struct statvfs fs {};
    const bool known = ::statvfs(path.parent_path().empty() ? "." : path.parent_path().c_str(),
                                 &fs) == 0;
    throw out_of_memory_error(
        "cannot write " + path.string() + ": " + std::strerror(err) + " (" +
        format_bytes(text.size()) + " to write" +
        (known ? ", " + format_bytes(static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize) +
                     " free"
               : std::string()) +
        ")");
  }
  throw io_error("cannot write " + path.string() + ": " + std::strerror(err));
}

void check_checkpoint_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // The directory is created at the first save: its nearest existing ancestor must take it.
  fs::path existing = fs::absolute(fs::path(dir), ec).lexically_normal();
  while (!fs::exists(existing, ec) && existing.has_parent_path() &&
         existing.parent_path() != existing)
    existing = existing.parent_path();
  if (!fs::is_directory(existing, ec)) {
    throw invalid_argument_error("cannot save checkpoints in '" + dir + "': '" +
                                 existing.string() + "' is not a directory");
  }
  if (const std::string why = cannot_create_in(existing); !why.empty()) {
    throw invalid_argument_error("cannot save checkpoints in '" + dir +
                                 "': no file can be created in '" + existing.string() +
                                 "': " + why);
  }
}

void check_paths_output(const std::string& paths) {
  if (io::format_from_path(paths) != io::format::npy) {
    throw invalid_argument_error("--paths writes the path matrix as .npy, so its name must end "
                                 "in .npy, not '" +
                                 paths + "'");
  }
}

void check_distinct_outputs(const std::string& distances, const std::string& paths) {
  if (io::same_file(distances, paths)) {
    throw invalid_argument_error("-o '" + distances + "' and --paths '" + paths +
                                 "' name the same file; give the path matrix a file of its own");
  }
}

output_files::~output_files() {
  for (const auto& f : files_) {
    std::error_code ec;
    std::filesystem::remove(f.partial, ec);
  }
}

std::filesystem::path output_files::stage(const std::filesystem::path& target) {
  const std::string name = ".apsp-partial-" + std::to_string(::getpid()) + "-" +
                           std::to_string(files_.size()) + "." + target.filename().string();
  const std::filesystem::path partial = target.parent_path() / name;
  stage(target, partial);
  return partial;
}

void output_files::stage(const std::filesystem::path& target,
                         const std::filesystem::path& partial) {
  files_.push_back({target, partial});
}

void output_files::discard(const std::filesystem::path& partial) {
  std::error_code ec;
  std::filesystem::remove(partial, ec);
  std::erase_if(files_, [&](const staged& f) { return f.partial == partial; });
}

void prefill_file(const std::filesystem::path& path, std::uint64_t bytes,
                  const std::stop_token& stop) noexcept {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  // Never more than the file system has free: posix_fallocate would take every free block until
  // it failed (the solve's own reservation then names the shortfall).
  struct statvfs fs {};
  const bool room = ::fstatvfs(fd, &fs) != 0 ||
                    bytes <= static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  void* base = MAP_FAILED;
  if (bytes > 0 && room && ::posix_fallocate(fd, 0, static_cast<off_t>(bytes)) == 0)
    base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (base == MAP_FAILED)
    return;
  constexpr std::uint64_t piece = std::uint64_t{2} << 20;
  auto* p = static_cast<unsigned char*>(base);
  for (std::uint64_t at = 0; at < bytes && !stop.stop_requested(); at += piece)
    std::memset(p + at, 0, static_cast<std::size_t>(std::min(piece, bytes - at)));
  ::munmap(base, bytes);
}

std::string with_targets(std::string text, const output_renames& renames) {
  for (const auto& [partial, target] : renames) {
    const std::string to = target.string();
    for (const std::string& from : {partial.string(), partial.filename().string()}) {
      for (std::size_t at = text.find(from); !from.empty() && at != std::string::npos;
           at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    }
  }
  return text;
}

void rethrow_naming(const output_renames& renames) {
  const auto renamed = [&](const char* what) { return with_targets(what, renames); };
  try {
    throw;
  } catch (const io_error& e) {
    throw io_error(renamed(e.what()));
  } catch (const overflow_risk_error& e) {
    throw overflow_risk_error(renamed(e.what()));
  } catch (const invalid_input_error& e) {
    throw invalid_input_error(renamed(e.what()));
  } catch (const invalid_argument_error& e) {
    throw invalid_argument_error(renamed(e.what()));
  } catch (const out_of_memory_error& e) {
    throw out_of_memory_error(renamed(e.what()));
  }
}

void output_files::written() {
  test_pause_after_output(++written_);
}

void output_files::commit() {
  throw_if_interrupted();
  const signal_hold hold;
  while (!files_.empty()) {
    const staged f = files_.front();
    std::error_code ec;
    std::filesystem::rename(f.partial, f.target, ec);
    if (ec) {
      throw io_error("cannot write " + f.target.string() +
                     ": cannot rename the finished output onto it: " + ec.message());
    }
    files_.erase(files_.begin());
  }
}

namespace {

template <class T> std::string value_text(T v) {
  if constexpr (std::is_integral_v<T>) {
    if (v >= weight_traits<T>::infinity)
      return "inf";
    return std::to_string(v);
  } else {
    if (!std::isfinite(v))
      return v > 0 ? "inf" : (v < 0 ? "-inf" : "nan");
    if (std::trunc(v) == v && std::fabs(static_cast<double>(v)) <= 9007199254740992.0)
      return std::to_string(static_cast<std::int64_t>(v)); // "100000", not "1e+05"
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return {buf, r.ptr};
  }
}

template <class T> nlohmann::json value_json(T v) {
  if constexpr (std::is_integral_v<T>) {
    if (v >= weight_traits<T>::infinity)
      return nullptr;
    return static_cast<std::int64_t>(v);
  } else {
    if (!std::isfinite(v))
      return nullptr;
    // A float32 distance is shown as the shortest decimal that reads back as that float
    // (0.1, not 0.10000000149011612).
    return std::strtod(value_text(v).c_str(), nullptr);
  }
}

} // namespace

std::string distance_text(const any_matrix& d, std::int64_t i, std::int64_t j) {
  return std::visit([&](const auto& m) { return value_text(m(i, j)); }, d);
}

nlohmann::json distance_json(const any_matrix& d, std::int64_t i, std::int64_t j) {
  return std::visit([&](const auto& m) { return value_json(m(i, j)); }, d);
}

std::string distance_text(const any_rows& rows, std::size_t k) {
  return std::visit([&](const auto& r) { return value_text(r[k]); }, rows);
}

nlohmann::json distance_json(const any_rows& rows, std::size_t k) {
  return std::visit([&](const auto& r) { return value_json(r[k]); }, rows);
}

} // namespace apsp::cli
