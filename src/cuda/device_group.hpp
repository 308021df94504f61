#pragma once
// The devices of one process as a process grid of GPU executors (rank_executor.hpp): each
// device is a "process" driven by a host thread of its own, and this is their grid_comm
// (core/round_schedule.hpp). Device broadcasts are peer copies on the receivers' streams (copy
// engines, over NVLink where the devices have it), ordered by events: the receivers wait for
// the root's data, and the root's stream waits for their copies before it goes on, as an NCCL
// broadcast would. Decisions (all_or) meet at a barrier of all threads. Host-only header.
//
// A thread that fails inside a broadcast keeps the failure (failure()) and still meets the
// others at every barrier, so no thread waits forever; all_or then reports stop_now everywhere.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

#include "core/round_schedule.hpp"

namespace apsp::cuda {

class device_group {
public:
  /// A rows x cols grid over `devices` (rows * cols of them, row-major; a device may appear
  /// twice: tests). Peer access is enabled between distinct devices where the hardware has it.
  device_group(int rows, int cols, const std::vector<int>& devices);
  ~device_group();
  device_group(const device_group&) = delete;
  device_group& operator=(const device_group&) = delete;

  /// The communicator of process i (row i / cols, column i % cols); used by one thread only.
  [[nodiscard]] apsp::detail::grid_comm& comm(int i);
  /// The first failure inside process i's broadcasts, or null.
  [[nodiscard]] std::exception_ptr failure(int i) const;

  struct state;

private:
  std::unique_ptr<state> s_;
};

} // namespace apsp::cuda
