#pragma once
// Host-memory facts shared by the back ends' plans. Internal: not installed.

#include <cstdint>
#include <string>

namespace apsp::detail {

/// Physical memory of this machine in bytes (0 when the system does not say).
[[nodiscard]] std::uint64_t physical_memory_bytes() noexcept;

/// "1.50 GiB": sizes in plan reasons and device descriptions.
[[nodiscard]] std::string gib(std::uint64_t bytes);

}  // namespace apsp::detail
