#pragma once
// NCCL communicators for the process rows or columns of GPU ranks (mpi_grid_comm.hpp): the
// unique id travels through MPI; connect() then makes the communicator and its links (no MPI
// there, so it may run on a thread beside the tiles' setup); broadcasts run on the caller's CUDA
// stream. Builds without
// CUDA or NCCL get a stand-in that is never available (nccl_unavailable.cpp).

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>

namespace apsp::distributed {

class nccl_lines {
public:
  virtual ~nccl_lines() = default;
  /// Collective over the line: the NCCL communicator and a first broadcast, which sets up its
  /// GPU-to-GPU links (NCCL makes them lazily), so the rounds do not pay for either.
  virtual void connect() = 0;
  /// Broadcast of device memory from `root` (a rank of the line) on `stream` (cudaStream_t).
  virtual void bcast(void* data, std::size_t bytes, int root, void* stream) = 0;
};

/// Whether NCCL was built in; if not, why.
[[nodiscard]] bool nccl_built(std::string& why);

/// Collective over `line` (a process row or column): the unique id of an NCCL communicator of
/// its ranks on `device`, which connect() then makes.
[[nodiscard]] std::unique_ptr<nccl_lines> make_nccl_lines(MPI_Comm line, int device);

} // namespace apsp::distributed
