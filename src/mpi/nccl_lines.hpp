#pragma once
// NCCL communicators for the process rows or columns of GPU ranks (mpi_grid_comm.hpp): the
// unique id travels through MPI; broadcasts run on the caller's CUDA stream. Builds without
// CUDA or NCCL get a stand-in that is never available (nccl_unavailable.cpp).

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>

namespace apsp::distributed {

class nccl_lines {
public:
  virtual ~nccl_lines() = default;
  /// Broadcast of device memory from `root` (a rank of the line) on `stream` (cudaStream_t).
  virtual void bcast(void* data, std::size_t bytes, int root, void* stream) = 0;
};

/// Whether NCCL was built in; if not, why.
[[nodiscard]] bool nccl_built(std::string& why);

/// Collective over `line` (a process row or column): an NCCL communicator of its ranks, with
/// `device` current.
[[nodiscard]] std::unique_ptr<nccl_lines> make_nccl_lines(MPI_Comm line, int device);

} // namespace apsp::distributed
