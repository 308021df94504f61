// Stand-in for builds without CUDA or NCCL: GPU ranks exchange panels through host memory.

#include "mpi/nccl_lines.hpp"

#include "apsp/error.hpp"

namespace apsp::distributed {

bool nccl_built(std::string& why) {
  why = "this build of apsp has no NCCL";
  return false;
}

std::unique_ptr<nccl_lines> make_nccl_lines(MPI_Comm, int) {
  throw internal_error("this build of apsp has no NCCL");
}

} // namespace apsp::distributed
