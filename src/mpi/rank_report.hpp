#pragma once
// The per-rank reports of a distributed solve (apsp/distributed.hpp rank_report): gathered on
// the first rank as text, since they hold strings of any length.

#include <mpi.h>

#include <string>
#include <vector>

#include "apsp/distributed.hpp"
#include "core/cpu_placement.hpp"

namespace apsp::distributed {

/// Every rank's `text` in rank order (collective over `comm`).
[[nodiscard]] std::vector<std::string> allgather_text(MPI_Comm comm, const std::string& text);

/// The busiest thread groups of a census (at most `keep`), as the report holds them.
[[nodiscard]] std::vector<thread_group> busiest(const std::vector<detail::thread_usage>& census,
                                                std::size_t keep);

/// Gathers every rank's report (collective over `world`): all of them on rank 0, in rank order,
/// with the slowest named; this rank's own elsewhere.
void collect_reports(MPI_Comm world, const rank_report& mine, summary& out);

} // namespace apsp::distributed
