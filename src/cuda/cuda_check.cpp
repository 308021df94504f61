#include "cuda/cuda_check.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "apsp/error.hpp"
#include "core/tuning.hpp"

namespace apsp::cuda {
namespace {

std::string describe(cudaError_t status, const char* statement, const char* file, int line) {
  int device = -1;
  // Best effort: the device query itself may fail when the context is broken.
  if (cudaGetDevice(&device) != cudaSuccess)
    device = -1;
  return std::string("CUDA error ") + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) +
         ") in `" + statement + "` at " + file + ":" + std::to_string(line) + " on device " +
         std::to_string(device);
}

} // namespace

void throw_cuda_error(cudaError_t status, const char* statement, const char* file, int line) {
  std::string what = describe(status, statement, file, line);
  // Clear a non-sticky error so that later, unrelated calls do not report it again.
  (void)cudaGetLastError();
  switch (status) {
  case cudaErrorMemoryAllocation:
    throw out_of_memory_error(what);
  case cudaErrorNoDevice:
  case cudaErrorInsufficientDriver:
  case cudaErrorInvalidDevice:
    throw backend_unavailable_error(what);
  default:
    throw internal_error(what);
  }
}

void log_cuda_error(cudaError_t status, const char* statement, const char* file,
                    int line) noexcept {
  try {
    std::fprintf(stderr, "apsp: %s\n", describe(status, statement, file, line).c_str());
  } catch (...) {
    std::fprintf(stderr, "apsp: CUDA error %d at %s:%d\n", static_cast<int>(status), file, line);
  }
}

bool sync_after_launch() noexcept {
#ifdef APSP_CUDA_DEBUG_SYNC
  return true;
#else
  static const bool on = apsp::detail::current_tuning().cuda_sync_launches;
  return on;
#endif
}

} // namespace apsp::cuda
