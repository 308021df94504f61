#include "core/host_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <limits>

#include "apsp/plan.hpp"

namespace apsp {
namespace detail {

std::uint64_t physical_memory_bytes() noexcept {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0)
    return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::uint64_t matrix_bytes(std::int64_t n, std::uint64_t elem) noexcept {
  const auto cells = static_cast<unsigned __int128>(n) * static_cast<unsigned __int128>(n);
  const unsigned __int128 bytes = cells * elem;
  constexpr auto most = std::numeric_limits<std::uint64_t>::max();
  return bytes > most ? most : static_cast<std::uint64_t>(bytes);
}

std::uint64_t add_bytes(std::uint64_t a, std::uint64_t b) noexcept {
  constexpr auto most = std::numeric_limits<std::uint64_t>::max();
  return a > most - b ? most : a + b;
}

std::uint64_t distances_ram_bytes(std::int64_t n, const solve_options& o) noexcept {
  if (!o.distances_file.empty())
    return 0;
  return matrix_bytes(n, size_of(o.type));
}

std::uint64_t paths_ram_bytes(std::int64_t n, const solve_options& o) noexcept {
  if (!o.paths || !o.paths_file.empty())
    return 0;
  return matrix_bytes(n, sizeof(std::int32_t));
}

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return buf;
}

void advise_huge_pages(void* p, std::size_t bytes) noexcept {
#ifdef MADV_HUGEPAGE
  constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + huge - 1) & ~(huge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(huge - 1);
  if (end > begin)
    (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

void check_host_fit(plan& p, const std::string& who) {
  const std::uint64_t physical = physical_memory_bytes();
  if (physical != 0 && p.host_bytes > physical) {
    p.fits = false;
    p.reason = who + " needs " + gib(p.host_bytes) + " of host memory but this machine has " +
               gib(physical);
  }
}

} // namespace detail

std::uint64_t host_memory_bytes() noexcept {
  return detail::physical_memory_bytes();
}

} // namespace apsp
