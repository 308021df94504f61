#include "plan_json.hpp"

#include <string>
#include <variant>

namespace apsp::cli {

std::string algorithm_name(const plan& p) {
  if (std::holds_alternative<drivers::phast_rows>(p.run) ||
      std::holds_alternative<drivers::cuda_phast>(p.run))
    return "phast";
  if (std::holds_alternative<drivers::ch_table>(p.run))
    return "ch-table";
  if (std::holds_alternative<drivers::pair_search>(p.run))
    return "bidirectional-dijkstra";
  if (std::holds_alternative<drivers::rphast_table>(p.run) ||
      std::holds_alternative<drivers::cuda_table>(p.run))
    return "rphast";
  return std::string(to_string(p.algorithm));
}

nlohmann::ordered_json plan_json(const plan& p) {
  nlohmann::ordered_json j;
  j["backend"] = to_string(p.backend);
  j["device"] = p.device;
  j["driver"] = to_string(p.run);
  j["algorithm"] = algorithm_name(p);
  j["algorithm_reason"] = p.algorithm_reason;
  j["dtype"] = to_string(p.type);
  j["n"] = p.n;
  j["paths"] = p.paths;
  if (p.tiled)
    j["tiled"] = true; // a table made and written a tile of `block` sources at a time
  j["checkpointed"] = p.checkpointed;
  if (p.checkpoint_displaced) {
    // What auto would have run without checkpoints (it saves none), and both estimates.
    const plan::displaced_engine& other = *p.checkpoint_displaced;
    j["checkpoint_displaced"] = {{"algorithm", to_string(other.algorithm)},
                                 {"backend", to_string(other.backend)},
                                 {"estimated_seconds", other.seconds},
                                 {"fw_estimated_seconds", other.fw_seconds}};
  }
  j["block"] = p.block;
  j["rounds"] = p.rounds;
  j["devices"] = p.devices;
  j["host_bytes"] = p.host_bytes;
  j["working_host_bytes"] = p.working_host_bytes;
  j["file_bytes"] = p.file_bytes;
  j["device_bytes"] = p.device_bytes;
  j["out_of_core"] = p.out_of_core;
  if (const auto* ranks = std::get_if<drivers::distributed>(&p.run)) {
    // Under mpirun the memory is per rank: host_bytes and device_bytes are the largest rank's.
    j["ranks"] = ranks->ranks;
    j["grid"] = std::to_string(ranks->grid_rows) + "x" + std::to_string(ranks->grid_cols);
    j["gpu"] = ranks->gpu;
    j["threads"] = ranks->threads;
    j["lookahead"] = ranks->lookahead ? nlohmann::ordered_json(*ranks->lookahead)
                                      : nlohmann::ordered_json("auto");
    j["rank_bytes"] = p.host_bytes;
    j["gpu_bytes"] = p.device_bytes;
    j["ranks_per_node"] = ranks->ranks_per_node;
    j["node_memory"] = ranks->node_memory;
  }
  j["fits"] = p.fits;
  if (!p.fits)
    j["reason"] = p.reason;
  return j;
}

} // namespace apsp::cli
