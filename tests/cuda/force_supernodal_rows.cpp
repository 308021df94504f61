// Linked into conformance_cuda_supernodal_rows: before main, caps the cuda back end at 4 MiB
// and forces the supernodal solver's by-rows driver (the tuning record's
// cuda_force_out_of_core_bytes), so every graph runs as a pivot strip and groups of rows.

#include <cstdint>

#include "core/tuning.hpp"

namespace {
const apsp::detail::scoped_tuning forced([](apsp::detail::tuning& t) {
  t.cuda_force_out_of_core_bytes = std::uint64_t{4} << 20;
});
} // namespace
