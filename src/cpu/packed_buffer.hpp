#pragma once
// 64-byte aligned buffers for packed tiles, shared by the cpu back end's orchestration
// (blocked_fw.cpp) and the cuda back end's host tiles (src/cuda/host_tiles.cpp). Kept out of
// tile_ops.hpp: the per-ISA kernel files include that, and must not instantiate standard-library
// templates (tile_kernels.hpp says why).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "cpu/tile_ops.hpp"

namespace apsp::detail::cpu {

/// Kernels at a tile's edge may read a few elements past a packed buffer's last row.
inline constexpr std::ptrdiff_t packed_slack = packed_align;

struct free_deleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

/// A 64-byte aligned buffer for packed tiles.
template <class T> using packed_buffer = std::unique_ptr<T[], free_deleter>;

/// `count` elements set to `value`, 64-byte aligned; throws std::bad_alloc.
template <class T> packed_buffer<T> make_filled(std::int64_t count, T value) {
  const auto bytes = (static_cast<std::size_t>(count) * sizeof(T) + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, bytes);
  if (p == nullptr)
    throw std::bad_alloc();
  packed_buffer<T> b(static_cast<T*>(p));
  std::fill(b.get(), b.get() + count, value);
  return b;
}

} // namespace apsp::detail::cpu
