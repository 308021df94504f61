// place_ranks (apsp/distributed.hpp): the rule is core/cpu_placement.hpp's rank_cpus; here the
// ranks of a node tell each other what they are allowed, and each applies its share.

#include <mpi.h>
#include <omp.h>

#include "apsp/distributed.hpp"
#include "core/cpu_placement.hpp"
#include "cuda/rank_executor.hpp"
#include "mpi/rank_report.hpp"
#include "mpi/session_state.hpp"

namespace apsp::distributed {

placement place_ranks(const session& s, placement_mode mode, bool gpu) {
  auto& st = session_access::of(s);
  detail::rank_cpu_facts mine;
  mine.allowed = detail::allowed_cpus();
  if (gpu && mode == placement_mode::automatic) {
    const cuda::rank_device d = cuda::pick_rank_device(st.node_rank);
    if (d.available && !d.pci_bus_id.empty())
      mine.gpu_local = detail::pci_local_cpus(d.pci_bus_id);
  }
  const std::vector<std::string> texts = allgather_text(
      st.node, detail::format_cpu_list(mine.allowed) + ';' +
                   detail::format_cpu_list(mine.gpu_local));
  std::vector<detail::rank_cpu_facts> node;
  for (const std::string& t : texts) {
    const auto semi = t.find(';');
    detail::rank_cpu_facts f;
    f.allowed = detail::parse_cpu_list(t.substr(0, semi));
    if (semi != std::string::npos)
      f.gpu_local = detail::parse_cpu_list(t.substr(semi + 1));
    node.push_back(std::move(f));
  }
  placement out;
  out.cpus = detail::format_cpu_list(mine.allowed);
  out.cpu_count = static_cast<int>(mine.allowed.size());
  out.sharing = detail::ranks_sharing_cpus(node, st.node_rank);
  if (mode == placement_mode::off) {
    out.how = "CPUs " + out.cpus + " as the launcher set them (placement off)";
  } else {
    const detail::cpu_placement p = detail::rank_cpus(node, st.node_rank, detail::cpu_cores());
    out.how = p.how;
    if (p.changed) {
      const int stuck = detail::bind_process(p.cpus);
      out.cpus = detail::format_cpu_list(p.cpus);
      out.cpu_count = static_cast<int>(p.cpus.size());
      out.changed = true;
      out.sharing = 1; // the shares do not overlap
      if (stuck > 0)
        out.how += "; " + std::to_string(stuck) + " threads could not be moved";
      // OpenMP sized its default team from the CPUs the process started with.
      omp_set_num_threads(static_cast<int>(p.cpus.size()));
    }
  }
  st.placed = out;
  return out;
}

} // namespace apsp::distributed
