#pragma once
// What a distributed::session holds, for the files of src/mpi that need its communicators.

#include <mpi.h>

#include <optional>
#include <string>

#include "apsp/distributed.hpp"

namespace apsp::distributed {

struct session::state {
  bool initialised_here = false;
  MPI_Comm world{};
  MPI_Comm node{}; ///< the ranks of this node (MPI_COMM_TYPE_SHARED)
  int rank = 0;
  int size = 1;
  int node_rank = 0;
  int node_size = 1;
  std::optional<placement> placed; ///< what place_ranks did, once it ran
};

struct session_access {
  static session::state& of(const session& s) { return *s.s_; }
};

inline MPI_Comm world_of(const session& s) {
  return session_access::of(s).world;
}

} // namespace apsp::distributed
