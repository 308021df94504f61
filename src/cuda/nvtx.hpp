#pragma once
// Scoped NVTX ranges, so profiler timelines show the solve and its phases. Header-only NVTX 3
// from the toolkit; a no-op unless a profiler is attached.

#if defined(APSP_HAS_NVTX)
#include <nvtx3/nvToolsExt.h>
#endif

namespace apsp::cuda {

class nvtx_range {
public:
  explicit nvtx_range([[maybe_unused]] const char* name) noexcept {
#if defined(APSP_HAS_NVTX)
    nvtxRangePushA(name);
#endif
  }
  ~nvtx_range() {
#if defined(APSP_HAS_NVTX)
    nvtxRangePop();
#endif
  }
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;
};

} // namespace apsp::cuda
