#include "core/host_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <variant>

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

} // namespace detail

std::uint64_t host_memory_bytes() noexcept {
  return detail::physical_memory_bytes();
}

namespace {

/// Who needs the host memory, in a plan's reason.
std::string host_user(const plan& p) {
  return std::visit(
      [](const auto& how) -> std::string {
        using D = std::decay_t<decltype(how)>;
        if constexpr (std::is_same_v<D, drivers::reference>)
          return "the reference back end";
        else if constexpr (std::is_same_v<D, drivers::cpu_blocked>)
          return "the cpu back end";
        else if constexpr (std::is_same_v<D, drivers::supernodal>)
          return "the supernodal Floyd-Warshall on the cpu";
        else if constexpr (std::is_same_v<D, drivers::johnson>)
          return "Johnson's algorithm on the cpu";
        else if constexpr (std::is_same_v<D, drivers::cuda_out_of_core>)
          return "the out-of-core solve, which keeps the matrices in host memory,";
        else if constexpr (std::is_same_v<D, drivers::distributed>)
          return "each MPI rank";
        else if constexpr (std::is_same_v<D, drivers::pair_search>)
          return "the pair's search on the cpu";
        else
          return "the cuda back end";
      },
      p.run);
}

/// fits and reason of `p` from its host_bytes (count_host_memory's last step).
void judge_host_memory(plan& p, const solve_options& o) {
  if (!p.driver_fits) { // the driver's own reason stands
    p.fits = false;
    return;
  }
  const std::uint64_t physical = detail::physical_memory_bytes();
  p.fits = physical == 0 || p.host_bytes <= physical;
  p.reason.clear();
  if (!p.fits) {
    p.reason = host_user(p) + " needs " + detail::gib(p.host_bytes) +
               " of host memory but this machine has " + detail::gib(physical);
    if (std::holds_alternative<drivers::cuda_out_of_core>(p.run) && o.distances_file.empty())
      p.reason += " (keep the distances in a memory-mapped file: --map-output)";
  }
}

} // namespace

void detail::count_host_memory_without_outputs(plan& p) {
  p.host_bytes = p.working_host_bytes;
  p.file_bytes = 0;
  judge_host_memory(p, solve_options{});
}

void count_host_memory(plan& p, const solve_options& o) {
  using detail::add_bytes;
  using detail::matrix_bytes;
  // Every driver's output matrices are the core's: allocated in RAM or mapped from the files.
  p.host_bytes = add_bytes(add_bytes(detail::distances_ram_bytes(p.n, o),
                                     detail::paths_ram_bytes(p.n, o)),
                           p.working_host_bytes);
  // Saturating: an absurd n plans as "does not fit", never as a small wrapped size.
  p.file_bytes = 0;
  if (!o.distances_file.empty())
    p.file_bytes = add_bytes(o.distances_file_offset, matrix_bytes(p.n, size_of(p.type)));
  if (p.paths && !o.paths_file.empty())
    p.file_bytes = add_bytes(
        p.file_bytes,
        add_bytes(o.paths_file_offset, matrix_bytes(p.n, sizeof(std::int32_t))));
  judge_host_memory(p, o);
}

} // namespace apsp
