// Linked into conformance_cuda_ooc: before main, caps the cuda back end at 1.5 MiB and forces
// its out-of-core path, so the whole conformance suite runs with 128-wide outer blocks.

#include <cstdlib>

namespace {
const bool forced = [] { return ::setenv("APSP_CUDA_FORCE_OUT_OF_CORE_BYTES", "1536K", 1) == 0; }();
} // namespace
