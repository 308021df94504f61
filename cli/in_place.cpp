#include "in_place.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "process_knobs.hpp"
#include "solver.hpp"

namespace apsp::cli {
namespace {

/// How many dirty page-cache bytes the kernel lets a process build up before it throttles its
/// writes: vm.dirty_bytes when set, else vm.dirty_ratio percent (20 by default) of `ram`.
std::uint64_t dirty_page_limit(std::uint64_t ram) {
  const auto read_number = [](const char* path) -> std::uint64_t {
    std::FILE* f = std::fopen(path, "r");
    if (f == nullptr)
      return 0;
    unsigned long long v = 0;
    const bool ok = std::fscanf(f, "%llu", &v) == 1;
    std::fclose(f);
    return ok ? v : 0;
  };
  if (const std::uint64_t bytes = read_number("/proc/sys/vm/dirty_bytes"); bytes > 0)
    return bytes;
  std::uint64_t ratio = read_number("/proc/sys/vm/dirty_ratio");
  if (ratio == 0 || ratio > 100)
    ratio = 20;
  return ram / 100 * ratio;
}

/// Completes an in-place output: the header goes into the bytes the solve left free.
void write_header(const std::filesystem::path& partial, const std::string& header,
                  const std::string& out) {
  if (header.empty())
    return;
  int err = 0; // the first failure's errno
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    err = errno;
  } else {
    if (::pwrite(fd, header.data(), header.size(), 0) != static_cast<ssize_t>(header.size()))
      err = errno != 0 ? errno : EIO;
    if (::close(fd) != 0 && err == 0)
      err = errno;
  }
  if (err != 0)
    throw internal_error("cannot write " + out + ": " + std::strerror(err));
}

} // namespace

std::uint64_t result_bytes(std::int64_t n, const solve_options& options) {
  const auto cells = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n);
  return cells * (size_of(options.type) + (options.paths ? sizeof(std::int32_t) : 0));
}

bool solve_pays_in_place(const plan& p, const solve_options& options) {
  const std::uint64_t ram = host_memory_bytes();
  const std::uint64_t file_bytes = result_bytes(p.n, options);
  return (ram != 0 && p.host_bytes > ram) ||
         (p.backend == backend_kind::cuda && !p.out_of_core && p.fits &&
          p.algorithm != algorithm_kind::supernodal) ||
         (p.algorithm == algorithm_kind::johnson && p.fits) ||
         (p.algorithm == algorithm_kind::supernodal && p.fits && ram != 0 &&
          file_bytes <= dirty_page_limit(ram));
}

in_place_output::in_place_output(const std::string& out_path, std::string header_bytes,
                                 std::uint64_t value_bytes, output_files& outputs)
    : out(out_path), partial(out_path + ".apsp-partial-" + std::to_string(::getpid())),
      header(std::move(header_bytes)), values(value_bytes) {
  outputs.stage(out, partial);
}

void in_place_output::finish(output_files& outputs) const {
  write_header(partial, header, out);
  outputs.written();
}

void announce_in_place(const in_place_output& f, std::int64_t n, const std::string& what) {
  constexpr std::uint64_t announced_from = 1'000'000'000;
  if (f.bytes() <= announced_from)
    return;
  std::error_code ec;
  const std::filesystem::path place = std::filesystem::absolute(f.partial, ec);
  std::fprintf(stderr,
               "apsp: note: the %lld x %lld %s (%s) is solved in place in %s (renamed to %s "
               "when done; --no-map-output keeps it in RAM)\n",
               static_cast<long long>(n), static_cast<long long>(n), what.c_str(),
               format_bytes(f.bytes()).c_str(), (ec ? f.partial : place).c_str(), f.out.c_str());
}

prefill_mode prefill_setting() {
  const auto prefill = knobs().output_prefill;
  if (!prefill)
    return prefill_mode::while_gpu_starts;
  return *prefill ? prefill_mode::always : prefill_mode::never;
}

} // namespace apsp::cli
