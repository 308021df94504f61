#pragma once
// Distance matrices kept in a memory-mapped file instead of RAM. Internal: not installed.

#include <cstdint>
#include <filesystem>

#include "apsp/matrix.hpp"
#include "apsp/types.hpp"

namespace apsp::detail {

/// Creates (or overwrites) `file` with `offset` bytes of zeros followed by room for an n x n
/// matrix of `type`, reserves its disk blocks (so a full disk fails here, not as a crash on
/// first touch; a file larger than the free space is refused before any block is taken), and
/// maps it shared: writes to the matrix are writes to the file.
/// Throws invalid_argument_error (bad offset, cannot create) or out_of_memory_error (no space).
/// `what` names the matrix in messages ("distance", "path").
[[nodiscard]] any_matrix map_matrix(dtype type, std::int64_t n, const std::filesystem::path& file,
                                    std::uint64_t offset, const char* what = "distance");

} // namespace apsp::detail
