#pragma once
// grid_comm (core/round_schedule.hpp) over MPI: a process row and a process column
// communicator, host broadcasts through MPI and, for GPU ranks, device broadcasts through NCCL
// (nccl_lines.hpp) where every process row or column has distinct GPUs.

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "apsp/distributed.hpp"
#include "core/round_schedule.hpp"
#include "mpi/nccl_lines.hpp"

namespace apsp::distributed {

[[noreturn]] void mpi_failed(int code, const std::string& what);
void check_mpi(int code, const char* what);

/// What a communicator carried and how long its caller spent in it (host clock).
struct comm_stats {
  traffic pivots;  ///< bcast_row / bcast_col, start_pivot_row / start_pivot_col
  traffic panels;  ///< start_bcast_row / start_bcast_col
  traffic device;  ///< device_bcast_row / device_bcast_col (enqueued; their time is the GPU's)
  std::int64_t waits = 0;
  std::int64_t agreements = 0;
  double broadcast_seconds = 0; ///< in blocking broadcasts and waits for started ones
  double agreement_seconds = 0; ///< in all_or
};

class mpi_grid_comm final : public detail::grid_comm {
public:
  /// Collective over `world`: process (rank / cols, rank % cols).
  mpi_grid_comm(MPI_Comm world, int rows, int cols);
  ~mpi_grid_comm() override;
  mpi_grid_comm(const mpi_grid_comm&) = delete;
  mpi_grid_comm& operator=(const mpi_grid_comm&) = delete;

  /// GPU ranks (collective): NCCL communicators for the process rows and columns, when every
  /// one of them has distinct GPUs and NCCL was built in (APSP_NCCL=0 turns them off).
  /// `device` is this rank's GPU. Returns what it chose, e.g. "panels GPU to GPU (NCCL)".
  std::string use_device(int device);
  /// After use_device succeeded on every rank: the communicators connect on a thread of their
  /// own, so the tiles' setup runs meanwhile.
  void start_connect();
  /// Waits for use_device's connections and rethrows their failure; returns the seconds they
  /// took (0 without NCCL).
  double wait_device();

  void bcast_row(void* data, std::size_t bytes, int root_col) override;
  void bcast_col(void* data, std::size_t bytes, int root_row) override;
  void start_bcast_row(void* data, std::size_t bytes, int root_col) override;
  void start_bcast_col(void* data, std::size_t bytes, int root_row) override;
  void start_pivot_row(void* data, std::size_t bytes, int root_col) override;
  void start_pivot_col(void* data, std::size_t bytes, int root_row) override;
  [[nodiscard]] bool pivot_arrived() override;
  void wait_all() override;
  bool poll() override;
  std::uint32_t all_or(std::uint32_t bits) override;
  [[nodiscard]] bool distributed() const noexcept override { return size_ > 1; }
  [[nodiscard]] bool device_row() const noexcept override;
  [[nodiscard]] bool device_col() const noexcept override;
  void device_bcast_row(void* data, std::size_t bytes, int root_col, void* stream) override;
  void device_bcast_col(void* data, std::size_t bytes, int root_row, void* stream) override;

  [[nodiscard]] const comm_stats& stats() const noexcept { return stats_; }

private:
  void start(MPI_Comm c, void* data, std::size_t bytes, int root, std::vector<MPI_Request>& into);
  /// A broadcast along this process row (column) started into `into`, counted in `t`.
  void start_on_row(traffic& t, std::vector<MPI_Request>& into, void* data, std::size_t bytes,
                    int root_col);
  void start_on_col(traffic& t, std::vector<MPI_Request>& into, void* data, std::size_t bytes,
                    int root_row);
  /// Counts a broadcast of `bytes` among `members` from `root` (this one's index: `me`).
  static void count(traffic& t, std::size_t bytes, int members, int root, int me);

  int row_size_ = 1; ///< ranks in this process row (the grid's columns)
  int col_size_ = 1; ///< ranks in this process column (the grid's rows)
  int row_index_ = 0; ///< this rank's index in its row (its grid column)
  int col_index_ = 0; ///< ... in its column (its grid row)
  comm_stats stats_;

  int size_;
  MPI_Comm world_{};
  MPI_Comm row_{};
  MPI_Comm col_{};
  std::vector<MPI_Request> pending_;       // started panel broadcasts
  std::vector<MPI_Request> pivot_pending_; // started pivot broadcasts
  std::unique_ptr<nccl_lines> nccl_row_;
  std::unique_ptr<nccl_lines> nccl_col_;
  std::thread connecting_;
  std::exception_ptr connect_failure_;
  double connect_seconds_ = 0;
};

} // namespace apsp::distributed
