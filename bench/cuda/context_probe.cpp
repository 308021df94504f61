// Where a CUDA context's start and end go (issue: speed at every size, whole runs at small n).
// One process: cuInit, the primary context retained and made current, a first allocation and
// memset, then the end the caller picks. Each step is stamped in seconds from $PROBE_START (the
// caller's wall clock, e.g. bash's $EPOCHREALTIME, just before it started this process), so the
// process's own start is included; the caller times the whole process to see the end's cost.
// Driver settings under test go in the environment (CUDA_DEVICE_MAX_CONNECTIONS, ...).
//   PROBE_START=$EPOCHREALTIME apsp_context_probe [keep|release|reset] [runtime|driver] [MiB]
// keep: leave the context to the process exit; release: cuDevicePrimaryCtxRelease first;
// reset: cuDevicePrimaryCtxReset first. runtime: start through cudaFree(0) instead (what apsp
// does), so the runtime's module registration is included. MiB: the first allocation's size
// (64 by default), kept until the end, so that the end frees it. Not a test: a measurement.

#include <cuda.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

double wall() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double start_time() {
  const char* s = std::getenv("PROBE_START");
  return s != nullptr ? std::atof(s) : wall();
}

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    CUresult r_ = (x);                                                                             \
    if (r_ != CUDA_SUCCESS) {                                                                      \
      const char* m_ = nullptr;                                                                    \
      cuGetErrorString(r_, &m_);                                                                   \
      std::printf("%s: %s\n", #x, m_ != nullptr ? m_ : "?");                                       \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

} // namespace

int main(int argc, char** argv) {
  const double t0 = start_time();
  const double at_main = wall() - t0;
  const std::string end = argc > 1 ? argv[1] : "keep";
  const bool runtime = argc > 2 && std::strcmp(argv[2], "runtime") == 0;
  double at_init = 0;
  double at_ctx = 0;
  CUdevice dev = 0;
  if (runtime) {
    if (cudaFree(nullptr) != cudaSuccess) {
      std::printf("cudaFree(0) failed\n");
      return 1;
    }
    at_init = at_ctx = wall() - t0;
    CHECK(cuCtxGetDevice(&dev));
  } else {
    CHECK(cuInit(0));
    at_init = wall() - t0;
    CHECK(cuDeviceGet(&dev, 0));
    CUcontext ctx = nullptr;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    at_ctx = wall() - t0;
  }
  CUdeviceptr p = 0;
  const std::size_t words = (argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 64) << 18;
  CHECK(cuMemAlloc(&p, words * 4));
  CHECK(cuMemsetD32(p, 7u, words));
  CHECK(cuCtxSynchronize());
  const double at_alloc = wall() - t0;
  if (end == "release" && !runtime)
    CHECK(cuDevicePrimaryCtxRelease(dev));
  else if (end == "reset")
    CHECK(cuDevicePrimaryCtxReset(dev));
  const double at_end = wall() - t0;
  std::printf("probe main %.4f init %.4f context %.4f alloc %.4f end %.4f (%s%s) exit_at %.6f\n",
              at_main, at_init, at_ctx, at_alloc, at_end, end.c_str(), runtime ? ", runtime" : "",
              wall());
  std::fflush(stdout);
  ::_exit(0);
}
