// NCCL communicators for process rows and columns: see nccl_lines.hpp.

#include "mpi/nccl_lines.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <string>

#include "apsp/error.hpp"

namespace apsp::distributed {
namespace {

void check_nccl(ncclResult_t code, const char* what) {
  if (code != ncclSuccess)
    throw internal_error(std::string(what) + ": " + ncclGetErrorString(code));
}

class nccl_line final : public nccl_lines {
public:
  nccl_line(MPI_Comm line, int device) : device_(device) {
    MPI_Comm_rank(line, &rank_);
    MPI_Comm_size(line, &size_);
    // Every rank reaches the broadcast even when its own call failed, so none waits forever;
    // the failure is thrown after it.
    const ncclResult_t got = rank_ == 0 ? ncclGetUniqueId(&id_) : ncclSuccess;
    MPI_Bcast(&id_, sizeof id_, MPI_BYTE, 0, line);
    check_nccl(got, "ncclGetUniqueId");
  }

  void connect() override {
    if (cudaSetDevice(device_) != cudaSuccess)
      throw internal_error("cannot select CUDA device " + std::to_string(device_) + " for NCCL");
    check_nccl(ncclCommInitRank(&comm_, size_, id_, rank_), "ncclCommInitRank");
    // A broadcast of the size of a panel's first piece: NCCL sets up the links it uses now.
    constexpr std::size_t warm_bytes = std::size_t{8} << 20;
    void* buffer = nullptr;
    cudaStream_t s = nullptr;
    if (cudaMalloc(&buffer, warm_bytes) != cudaSuccess ||
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
      (void)cudaFree(buffer);
      throw internal_error("cannot allocate NCCL's first broadcast on CUDA device " +
                           std::to_string(device_));
    }
    const ncclResult_t sent = ncclBroadcast(buffer, buffer, warm_bytes, ncclChar, 0, comm_, s);
    const cudaError_t synced = cudaStreamSynchronize(s);
    (void)cudaStreamDestroy(s);
    (void)cudaFree(buffer);
    check_nccl(sent, "ncclBroadcast");
    if (synced != cudaSuccess)
      throw internal_error(std::string("NCCL's first broadcast: ") + cudaGetErrorString(synced));
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
  int device_;
  int rank_ = 0;
  int size_ = 0;
  ncclUniqueId id_{};
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
