// NCCL communicators for process rows and columns: see nccl_lines.hpp.

#include "mpi/nccl_lines.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "apsp/error.hpp"

namespace apsp::distributed {
namespace {

void check_nccl(ncclResult_t code, const char* what) {
  if (code != ncclSuccess)
    throw internal_error(std::string(what) + ": " + ncclGetErrorString(code));
}

class nccl_line final : public nccl_lines {
public:
  nccl_line(MPI_Comm line, int device) {
    int rank = 0;
    int size = 0;
    MPI_Comm_rank(line, &rank);
    MPI_Comm_size(line, &size);
    ncclUniqueId id{};
    // Every rank reaches the broadcast even when its own call failed, so none waits forever;
    // the failure is thrown after it.
    const ncclResult_t got = rank == 0 ? ncclGetUniqueId(&id) : ncclSuccess;
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, line);
    check_nccl(got, "ncclGetUniqueId");
    int previous = 0;
    if (cudaGetDevice(&previous) != cudaSuccess || cudaSetDevice(device) != cudaSuccess)
      throw internal_error("cannot select CUDA device " + std::to_string(device) + " for NCCL");
    const ncclResult_t made = ncclCommInitRank(&comm_, size, id, rank);
    (void)cudaSetDevice(previous);
    check_nccl(made, "ncclCommInitRank");
  }
  ~nccl_line() override {
    if (comm_ != nullptr)
      (void)ncclCommDestroy(comm_);
  }
  nccl_line(const nccl_line&) = delete;
  nccl_line& operator=(const nccl_line&) = delete;

  void bcast(void* data, std::size_t bytes, int root, void* stream) override {
    check_nccl(ncclBroadcast(data, data, bytes, ncclChar, root, comm_,
                             static_cast<cudaStream_t>(stream)),
               "ncclBroadcast");
  }

private:
  ncclComm_t comm_ = nullptr;
};

} // namespace

bool nccl_built(std::string& why) {
  why.clear();
  return true;
}

std::unique_ptr<nccl_lines> make_nccl_lines(MPI_Comm line, int device) {
  return std::make_unique<nccl_line>(line, device);
}

} // namespace apsp::distributed
