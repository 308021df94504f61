#pragma once
// Host-side building blocks shared by the out-of-core and multi-GPU drivers: in-place pinning of
// the caller's matrices, rectangle copies between the host's n x n matrix and padded device
// buffers, and the solve of one pivot block with the in-core kernels (on run_rounds).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "apsp/types.hpp"
#include "core/round_schedule.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/fw_driver.hpp"
#include "cuda/gemm_driver.hpp"

namespace apsp::cuda {

/// Page-locks existing host memory for its lifetime, so asynchronous copies from and to it run
/// at full link speed without staging. When the OS refuses (limits, no device), the memory stays
/// pageable: copies are then slower and partly synchronous, but still correct.
class host_registration {
public:
  host_registration(void* p, std::size_t bytes) {
    if (p == nullptr || bytes == 0)
      return;
    if (cudaHostRegister(p, bytes, cudaHostRegisterPortable) == cudaSuccess) {
      ptr_ = p;
    } else {
      (void)cudaGetLastError(); // not sticky: clear it and fall back to pageable copies
    }
  }
  ~host_registration() {
    if (ptr_ != nullptr)
      APSP_CUDA_TRY_NOTHROW(cudaHostUnregister(ptr_));
  }
  host_registration(const host_registration&) = delete;
  host_registration& operator=(const host_registration&) = delete;
  [[nodiscard]] bool pinned() const noexcept { return ptr_ != nullptr; }

private:
  void* ptr_ = nullptr;
};

/// host[r0.., c0..] (row stride n) -> dev (row stride ld), rows x cols elements of T.
template <class T>
void upload_rect(T* dev, std::int64_t ld, const T* host, std::int64_t n, std::int64_t r0,
                 std::int64_t c0, std::int64_t rows, std::int64_t cols, cudaStream_t s) {
  if (rows <= 0 || cols <= 0)
    return;
  APSP_CUDA_TRY(cudaMemcpy2DAsync(dev, static_cast<std::size_t>(ld) * sizeof(T), host + r0 * n + c0,
                                  static_cast<std::size_t>(n) * sizeof(T),
                                  static_cast<std::size_t>(cols) * sizeof(T),
                                  static_cast<std::size_t>(rows), cudaMemcpyHostToDevice, s));
}

/// The inverse of upload_rect.
template <class T>
void download_rect(T* host, std::int64_t n, std::int64_t r0, std::int64_t c0, const T* dev,
                   std::int64_t ld, std::int64_t rows, std::int64_t cols, cudaStream_t s) {
  if (rows <= 0 || cols <= 0)
    return;
  APSP_CUDA_TRY(cudaMemcpy2DAsync(host + r0 * n + c0, static_cast<std::size_t>(n) * sizeof(T), dev,
                                  static_cast<std::size_t>(ld) * sizeof(T),
                                  static_cast<std::size_t>(cols) * sizeof(T),
                                  static_cast<std::size_t>(rows), cudaMemcpyDeviceToHost, s));
}

/// dst (stride ld_dst) <- src (stride ld_src), rows x cols, both on the current device.
template <class T>
void copy_rect_d2d(T* dst, std::int64_t ld_dst, const T* src, std::int64_t ld_src,
                   std::int64_t rows, std::int64_t cols, cudaStream_t s) {
  if (rows <= 0 || cols <= 0)
    return;
  APSP_CUDA_TRY(cudaMemcpy2DAsync(dst, static_cast<std::size_t>(ld_dst) * sizeof(T), src,
                                  static_cast<std::size_t>(ld_src) * sizeof(T),
                                  static_cast<std::size_t>(cols) * sizeof(T),
                                  static_cast<std::size_t>(rows), cudaMemcpyDeviceToDevice, s));
}

[[nodiscard]] constexpr std::int64_t round_up(std::int64_t x, std::int64_t m) {
  return (x + m - 1) / m * m;
}

/// The round executor (core/round_schedule.hpp) of enqueue_pivot_block: one stream holds the
/// whole pivot block, so each round is one enqueue_round (its phases 1, 2 and 3, launched as
/// the pivot step) with nothing to share and no look-ahead.
template <class T> class pivot_block_executor {
public:
  pivot_block_executor(const device_problem<T>& p, cudaStream_t s) : p_(p), s_(s) {}
  void pivot(std::int64_t r) { enqueue_round(p_, r, s_); }
  void share_pivot(std::int64_t) {}
  void panels(std::int64_t) {}
  void start_share(std::int64_t) {}
  void finish_share(std::int64_t) {}
  [[nodiscard]] std::uint32_t check(std::int64_t) const { return apsp::detail::go_on; }
  void update(std::int64_t, apsp::detail::update_part) {}
  [[nodiscard]] bool round_end(std::int64_t, std::uint32_t) const { return true; }

private:
  const device_problem<T>& p_;
  cudaStream_t s_;
};

/// Closes the bo x bo pivot block `piv` (stride bo, padding = infinity) in place with the
/// in-core kernels, running the first `rounds` tile rounds (the rest are padding). With paths,
/// `local_via` (bo x bo) is reset to no_via first and receives block-local pivot indices; the
/// caller merges them (enqueue_merge_via with the block's offset). `three_way`: see
/// device_problem::three_way.
template <class T>
void enqueue_pivot_block(T* piv, std::int32_t* local_via, std::int64_t bo, std::int64_t rounds,
                         bool clamp, bool three_way, cudaStream_t s) {
  device_problem<T> p;
  p.d = piv;
  p.via = local_via;
  p.ld = bo;
  p.clamp = clamp;
  p.three_way = three_way;
  if (local_via != nullptr) {
    APSP_CUDA_TRY(cudaMemsetAsync(local_via, 0xff,
                                  static_cast<std::size_t>(bo * bo) * sizeof(std::int32_t), s));
  }
  pivot_block_executor<T> e(p, s);
  apsp::detail::run_rounds(e, 0, rounds, /*lookahead=*/false);
}

/// Sets up every kernel variant a blocked solve on the current device needs.
template <class T> void configure_block_kernels(std::int64_t bo, bool clamp, bool paths) {
  device_problem<T> p;
  p.ld = bo;
  p.clamp = clamp;
  // configure_kernels picks the variant from p.via; any non-null marker selects paths.
  static std::int32_t marker = 0;
  p.via = paths ? &marker : nullptr;
  configure_kernels(p);
  configure_gemm<T>(clamp, paths);
}

} // namespace apsp::cuda
