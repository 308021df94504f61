#pragma once
// Host-memory facts shared by the back ends' plans. Internal: not installed.

#include <cstdint>
#include <string>

#include "apsp/options.hpp"

namespace apsp::detail {

/// Physical memory of this machine in bytes (0 when the system does not say).
[[nodiscard]] std::uint64_t physical_memory_bytes() noexcept;

/// Bytes of an n x n distance matrix of `o.type` that live in RAM: none when it is kept in a
/// memory-mapped file (solve_options::distances_file).
[[nodiscard]] std::uint64_t distances_ram_bytes(std::int64_t n, const solve_options& o) noexcept;
/// RAM of the path matrix: 0 without paths or with a memory-mapped file
/// (solve_options::paths_file).
[[nodiscard]] std::uint64_t paths_ram_bytes(std::int64_t n, const solve_options& o) noexcept;

/// "1.50 GiB": sizes in plan reasons and device descriptions.
[[nodiscard]] std::string gib(std::uint64_t bytes);

} // namespace apsp::detail
