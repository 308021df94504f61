// Linked into conformance_cuda_ooc: before main, caps the cuda back end at 1.5 MiB and forces
// its out-of-core path (the tuning record's cuda_force_out_of_core_bytes), so the whole
// conformance suite runs with 128-wide outer blocks.

#include <cstdint>

#include "core/tuning.hpp"

namespace {
const apsp::detail::scoped_tuning forced([](apsp::detail::tuning& t) {
  t.cuda_force_out_of_core_bytes = std::uint64_t{1536} << 10;
});
} // namespace
