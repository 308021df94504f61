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

#include "core/round_schedule.hpp"
#include "mpi/nccl_lines.hpp"

namespace apsp::distributed {

[[noreturn]] void mpi_failed(int code, const std::string& what);
void check_mpi(int code, const char* what);

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
  void wait_all() override;
  void poll() override;
  std::uint32_t all_or(std::uint32_t bits) override;
  [[nodiscard]] bool distributed() const noexcept override { return size_ > 1; }
  [[nodiscard]] bool device_row() const noexcept override;
  [[nodiscard]] bool device_col() const noexcept override;
  void device_bcast_row(void* data, std::size_t bytes, int root_col, void* stream) override;
  void device_bcast_col(void* data, std::size_t bytes, int root_row, void* stream) override;

private:
  void start(MPI_Comm c, void* data, std::size_t bytes, int root);

  int size_;
  MPI_Comm world_{};
  MPI_Comm row_{};
  MPI_Comm col_{};
  std::vector<MPI_Request> pending_;
  std::unique_ptr<nccl_lines> nccl_row_;
  std::unique_ptr<nccl_lines> nccl_col_;
  std::thread connecting_;
  std::exception_ptr connect_failure_;
  double connect_seconds_ = 0;
};

} // namespace apsp::distributed
