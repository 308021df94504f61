#pragma once
// RAII owners for every CUDA resource the back end uses: device selection, device buffers,
// pinned host buffers, streams and events. Move-only; destructors never throw.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cuda/cuda_check.hpp"

namespace apsp::cuda {

/// Device memory left unplanned for the context, kernels and the allocator's slack.
inline constexpr std::uint64_t device_reserve_bytes = std::uint64_t{512} << 20;

/// Makes `device` current for its lifetime and restores the previous device afterwards.
class device_guard {
public:
  explicit device_guard(int device) {
    APSP_CUDA_TRY(cudaGetDevice(&previous_));
    APSP_CUDA_TRY(cudaSetDevice(device));
  }
  ~device_guard() { APSP_CUDA_TRY_NOTHROW(cudaSetDevice(previous_)); }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

private:
  int previous_ = 0;
};

/// Makes device `id` current when destroyed. As the last member of a per-device struct it is
/// destroyed first, so the members before it are released with their own device current.
struct current_on_teardown {
  int id = 0;
  ~current_on_teardown() { APSP_CUDA_TRY_NOTHROW(cudaSetDevice(id)); }
};

/// Uninitialised device memory for `count` elements of T.
template <class T> class device_buffer {
public:
  device_buffer() = default;
  explicit device_buffer(std::size_t count) : count_(count) {
    if (count > 0)
      APSP_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T)));
  }
  ~device_buffer() { reset(); }
  device_buffer(device_buffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  [[nodiscard]] T* data() const noexcept { return ptr_; }
  [[nodiscard]] std::size_t size() const noexcept { return count_; }

private:
  void reset() noexcept {
    if (ptr_ != nullptr)
      APSP_CUDA_TRY_NOTHROW(cudaFree(ptr_));
    ptr_ = nullptr;
    count_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

/// A device copy of `v`, made on stream `s`, which is synchronised before returning (so `v` may
/// go at once).
template <class E> device_buffer<E> upload_vector(const std::vector<E>& v, cudaStream_t s) {
  device_buffer<E> b(v.size());
  if (!v.empty()) {
    APSP_CUDA_TRY(
        cudaMemcpyAsync(b.data(), v.data(), v.size() * sizeof(E), cudaMemcpyHostToDevice, s));
    APSP_CUDA_TRY(cudaStreamSynchronize(s));
  }
  return b;
}

/// Page-locked host memory (so copies run asynchronously at full link speed).
template <class T> class pinned_buffer {
public:
  pinned_buffer() = default;
  explicit pinned_buffer(std::size_t count) : count_(count) {
    if (count > 0) {
      APSP_CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&ptr_), count * sizeof(T)));
    }
  }
  ~pinned_buffer() { reset(); }
  pinned_buffer(pinned_buffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  pinned_buffer& operator=(pinned_buffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;

  [[nodiscard]] T* data() const noexcept { return ptr_; }
  [[nodiscard]] std::size_t size() const noexcept { return count_; }

private:
  void reset() noexcept {
    if (ptr_ != nullptr)
      APSP_CUDA_TRY_NOTHROW(cudaFreeHost(ptr_));
    ptr_ = nullptr;
    count_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

/// A non-blocking stream (never the legacy default stream). The destructor waits for its work,
/// so buffers destroyed after it are no longer in use.
class stream {
public:
  stream() { APSP_CUDA_TRY(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  /// A stream of the device's highest priority: its kernels' blocks start before those of
  /// streams already queued, as soon as an SM is free.
  struct highest_priority_t {};
  static constexpr highest_priority_t highest_priority{};
  explicit stream(highest_priority_t) {
    int least = 0;
    int greatest = 0;
    APSP_CUDA_TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    APSP_CUDA_TRY(cudaStreamCreateWithPriority(&s_, cudaStreamNonBlocking, greatest));
  }
  ~stream() {
    if (s_ != nullptr) {
      APSP_CUDA_TRY_NOTHROW(cudaStreamSynchronize(s_));
      APSP_CUDA_TRY_NOTHROW(cudaStreamDestroy(s_));
    }
  }
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;

  [[nodiscard]] cudaStream_t get() const noexcept { return s_; }
  void synchronize() const { APSP_CUDA_TRY(cudaStreamSynchronize(s_)); }

private:
  cudaStream_t s_ = nullptr;
};

class event {
public:
  explicit event(unsigned flags = cudaEventDefault) {
    APSP_CUDA_TRY(cudaEventCreateWithFlags(&e_, flags));
  }
  ~event() {
    if (e_ != nullptr)
      APSP_CUDA_TRY_NOTHROW(cudaEventDestroy(e_));
  }
  event(const event&) = delete;
  event& operator=(const event&) = delete;

  [[nodiscard]] cudaEvent_t get() const noexcept { return e_; }
  void record(cudaStream_t s) const { APSP_CUDA_TRY(cudaEventRecord(e_, s)); }
  void synchronize() const { APSP_CUDA_TRY(cudaEventSynchronize(e_)); }
  /// Milliseconds from `start` to this event (both recorded and complete).
  [[nodiscard]] float ms_since(const event& start) const {
    float ms = 0;
    APSP_CUDA_TRY(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms;
  }

private:
  cudaEvent_t e_ = nullptr;
};

} // namespace apsp::cuda
