#pragma once
// Host-memory facts shared by the back ends' plans. Internal: not installed.

#include <cstdint>
#include <string>

#include "apsp/options.hpp"
#include "apsp/plan.hpp"

namespace apsp::detail {

/// Physical memory of this machine in bytes (0 when the system does not say).
[[nodiscard]] std::uint64_t physical_memory_bytes() noexcept;

/// n * n * elem bytes, saturating at the largest std::uint64_t, so that a plan for an absurd n
/// still says it does not fit instead of wrapping round to a small number.
[[nodiscard]] std::uint64_t matrix_bytes(std::int64_t n, std::uint64_t elem) noexcept;
/// a + b, saturating likewise.
[[nodiscard]] std::uint64_t add_bytes(std::uint64_t a, std::uint64_t b) noexcept;
/// Bytes of an n x n distance matrix of `o.type` that live in RAM: none when it is kept in a
/// memory-mapped file (solve_options::distances_file).
[[nodiscard]] std::uint64_t distances_ram_bytes(std::int64_t n, const solve_options& o) noexcept;
/// RAM of the path matrix: 0 without paths or with a memory-mapped file
/// (solve_options::paths_file).
[[nodiscard]] std::uint64_t paths_ram_bytes(std::int64_t n, const solve_options& o) noexcept;

/// Asks the kernel to back [p, p + bytes) with transparent huge pages where its policy is
/// "madvise" (Debian's default): first touching a 10 GB matrix then takes about a tenth of the
/// page faults' time. Call before the memory is touched; a no-op where unsupported.
void advise_huge_pages(void* p, std::size_t bytes) noexcept;

/// count_host_memory for a plan whose matrices are reduced where they are solved (metrics on
/// the GPUs): no output matrix in RAM or in files, only the working memory.
void count_host_memory_without_outputs(plan& p);

/// "1.50 GiB": sizes in plan reasons and device descriptions.
[[nodiscard]] std::string gib(std::uint64_t bytes);

} // namespace apsp::detail
