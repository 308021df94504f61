// The devices of one process as a process grid: see device_group.hpp.

#include "cuda/device_group.hpp"

#include <cuda_runtime_api.h>

#include <condition_variable>
#include <cstring>
#include <mutex>

#include "apsp/error.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/resources.hpp"

namespace apsp::cuda {
namespace {

using apsp::detail::grid_comm;

/// A barrier of `members` threads that also ORs a word over them.
class meeting {
public:
  explicit meeting(int members) : members_(members) {}
  std::uint32_t arrive(std::uint32_t bits = 0) {
    std::unique_lock lock(m_);
    const std::uint64_t generation = generation_;
    gathered_ |= bits;
    if (++arrived_ == members_) {
      result_ = gathered_;
      gathered_ = 0;
      arrived_ = 0;
      ++generation_;
      woken_.notify_all();
      return result_;
    }
    // result_ stays until every member has arrived again, this one included.
    woken_.wait(lock, [&] { return generation_ != generation; });
    return result_;
  }

private:
  int members_;
  std::mutex m_;
  std::condition_variable woken_;
  int arrived_ = 0;
  std::uint64_t generation_ = 0;
  std::uint32_t gathered_ = 0;
  std::uint32_t result_ = 0;
};

/// A process row or column: what its root posts for a broadcast, and the receivers' copies.
struct line {
  explicit line(int members) : members(members), meet(members), done(members, nullptr) {}
  int members;
  meeting meet;
  const void* root_data = nullptr;
  int root_device = 0;
  cudaEvent_t root_ready = nullptr;
  std::vector<cudaEvent_t> done; ///< per member: its copy has finished
};

} // namespace

struct device_group::state {
  state(int rows, int cols) : all(rows * cols) {
    for (int r = 0; r < rows; ++r)
      row_lines.emplace_back(std::make_unique<line>(cols));
    for (int c = 0; c < cols; ++c)
      col_lines.emplace_back(std::make_unique<line>(rows));
  }
  meeting all;
  std::vector<std::unique_ptr<line>> row_lines;
  std::vector<std::unique_ptr<line>> col_lines;
  std::vector<std::unique_ptr<grid_comm>> comms;
};

namespace {

/// One process's communicator: its device, its events (made on its device) and its lines.
class member_comm final : public grid_comm {
public:
  /// Process (row, col) of `size` on `device`; its events are made on that device.
  member_comm(device_group::state& g, int device, int row, int col, int size)
      : g_(g), device_(device), row_(row), col_(col), size_(size) {
    const device_guard on(device_);
    for (auto* e : {&ready_row_, &ready_col_, &done_row_, &done_col_})
      *e = std::make_unique<event>(cudaEventDisableTiming);
  }

  void bcast_row(void* data, std::size_t bytes, int root_col) override {
    host_bcast(*g_.row_lines[static_cast<std::size_t>(row_)], col_, data, bytes, root_col);
  }
  void bcast_col(void* data, std::size_t bytes, int root_row) override {
    host_bcast(*g_.col_lines[static_cast<std::size_t>(col_)], row_, data, bytes, root_row);
  }
  std::uint32_t all_or(std::uint32_t bits) override {
    return g_.all.arrive(bits | (failure_ ? apsp::detail::stop_now : 0u));
  }
  [[nodiscard]] bool distributed() const noexcept override { return size_ > 1; }
  [[nodiscard]] bool device_row() const noexcept override { return true; }
  [[nodiscard]] bool device_col() const noexcept override { return true; }
  void device_bcast_row(void* data, std::size_t bytes, int root_col, void* stream) override {
    device_bcast(*g_.row_lines[static_cast<std::size_t>(row_)], col_, data, bytes, root_col,
                 static_cast<cudaStream_t>(stream), *ready_row_, *done_row_);
  }
  void device_bcast_col(void* data, std::size_t bytes, int root_row, void* stream) override {
    device_bcast(*g_.col_lines[static_cast<std::size_t>(col_)], row_, data, bytes, root_row,
                 static_cast<cudaStream_t>(stream), *ready_col_, *done_col_);
  }

  [[nodiscard]] std::exception_ptr failure() const { return failure_; }

private:
  template <class F> void guarded(F&& f) {
    try {
      f();
    } catch (...) {
      if (!failure_)
        failure_ = std::current_exception();
    }
  }

  /// Receivers copy from the root after its `ready`; the root's stream then waits for their
  /// copies (so it does not overwrite the data while they read it).
  void device_bcast(line& l, int me, void* data, std::size_t bytes, int root, cudaStream_t s,
                    event& ready, event& done) {
    if (l.members == 1)
      return;
    if (me == root) {
      guarded([&] { ready.record(s); });
      l.root_data = data;
      l.root_device = device_;
      l.root_ready = ready.get();
    }
    l.meet.arrive();
    if (me != root) {
      guarded([&] {
        APSP_CUDA_TRY(cudaStreamWaitEvent(s, l.root_ready, 0));
        APSP_CUDA_TRY(cudaMemcpyPeerAsync(data, device_, l.root_data, l.root_device, bytes, s));
        done.record(s);
      });
      l.done[static_cast<std::size_t>(me)] = done.get();
    }
    l.meet.arrive();
    if (me == root) {
      guarded([&] {
        for (int i = 0; i < l.members; ++i) {
          if (i != root)
            APSP_CUDA_TRY(cudaStreamWaitEvent(s, l.done[static_cast<std::size_t>(i)], 0));
        }
      });
    }
  }

  /// Host memory: the receivers copy from the root's buffer between two meetings.
  static void host_bcast(line& l, int me, void* data, std::size_t bytes, int root) {
    if (l.members == 1)
      return;
    if (me == root)
      l.root_data = data;
    l.meet.arrive();
    if (me != root)
      std::memcpy(data, l.root_data, bytes);
    l.meet.arrive();
  }

  device_group::state& g_;
  int device_;
  int row_;
  int col_;
  int size_;
  std::unique_ptr<event> ready_row_;
  std::unique_ptr<event> ready_col_;
  std::unique_ptr<event> done_row_;
  std::unique_ptr<event> done_col_;
  std::exception_ptr failure_;
};

} // namespace

device_group::device_group(int rows, int cols, const std::vector<int>& devices)
    : s_(std::make_unique<state>(rows, cols)) {
  APSP_EXPECTS(rows >= 1 && cols >= 1 && static_cast<std::size_t>(rows * cols) == devices.size(),
               internal_error, "a device group needs rows x cols devices");
  // Peer access where the hardware has it; cudaMemcpyPeerAsync stages through the host otherwise.
  for (int a : devices) {
    for (int b : devices) {
      if (a == b)
        continue;
      int can = 0;
      APSP_CUDA_TRY(cudaDeviceCanAccessPeer(&can, a, b));
      if (can != 0) {
        const device_guard on(a);
        const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
          APSP_CUDA_TRY(e);
        (void)cudaGetLastError(); // "already enabled" is not an error here
      }
    }
  }
  const int size = rows * cols;
  for (int i = 0; i < size; ++i) {
    s_->comms.push_back(std::make_unique<member_comm>(*s_, devices[static_cast<std::size_t>(i)],
                                                      i / cols, i % cols, size));
  }
}

device_group::~device_group() = default;

apsp::detail::grid_comm& device_group::comm(int i) {
  return *s_->comms[static_cast<std::size_t>(i)];
}

std::exception_ptr device_group::failure(int i) const {
  return static_cast<const member_comm&>(*s_->comms[static_cast<std::size_t>(i)]).failure();
}

} // namespace apsp::cuda
