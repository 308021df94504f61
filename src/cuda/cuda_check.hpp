#pragma once
// Checking every CUDA runtime call: APSP_CUDA_TRY throws apsp errors naming the statement,
// file:line and device; APSP_CUDA_TRY_NOTHROW logs instead (for destructors);
// APSP_CUDA_CHECK_LAUNCH checks a kernel launch and, when the debug switch is on, synchronises
// so that an asynchronous fault is blamed on the kernel that caused it.

#include <cuda_runtime_api.h>

namespace apsp::cuda {

/// Throws out_of_memory_error for allocation failures, backend_unavailable_error when there is
/// no usable device, internal_error otherwise.
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* statement, const char* file,
                                   int line);
/// Prints one line to stderr; never throws.
void log_cuda_error(cudaError_t status, const char* statement, const char* file, int line) noexcept;

/// True when launches should be followed by a synchronisation: set APSP_CUDA_SYNC_LAUNCHES=1 in
/// the environment, or build with -DAPSP_CUDA_DEBUG_SYNC.
[[nodiscard]] bool sync_after_launch() noexcept;

} // namespace apsp::cuda

#define APSP_CUDA_TRY(statement)                                                                   \
  do {                                                                                             \
    const cudaError_t apsp_cuda_status_ = (statement);                                             \
    if (apsp_cuda_status_ != cudaSuccess) {                                                        \
      ::apsp::cuda::throw_cuda_error(apsp_cuda_status_, #statement, __FILE__, __LINE__);           \
    }                                                                                              \
  } while (0)

#define APSP_CUDA_TRY_NOTHROW(statement)                                                           \
  do {                                                                                             \
    const cudaError_t apsp_cuda_status_ = (statement);                                             \
    if (apsp_cuda_status_ != cudaSuccess) {                                                        \
      ::apsp::cuda::log_cuda_error(apsp_cuda_status_, #statement, __FILE__, __LINE__);             \
    }                                                                                              \
  } while (0)

/// After `kernel<<<...>>>(...)`: checks the launch, and the execution too in debug-sync mode.
#define APSP_CUDA_CHECK_LAUNCH(kernel_name, stream)                                                \
  do {                                                                                             \
    APSP_CUDA_TRY(cudaPeekAtLastError());                                                          \
    if (::apsp::cuda::sync_after_launch()) {                                                       \
      const cudaError_t apsp_cuda_status_ = cudaStreamSynchronize(stream);                         \
      if (apsp_cuda_status_ != cudaSuccess) {                                                      \
        ::apsp::cuda::throw_cuda_error(apsp_cuda_status_, kernel_name, __FILE__, __LINE__);        \
      }                                                                                            \
    }                                                                                              \
  } while (0)
