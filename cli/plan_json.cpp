#include "plan_json.hpp"

#include <string>

namespace apsp::cli {

nlohmann::ordered_json plan_json(const plan& p) {
  nlohmann::ordered_json j;
  j["backend"] = to_string(p.backend);
  j["device"] = p.device;
  j["driver"] = to_string(p.run);
  j["algorithm"] = to_string(p.algorithm);
  j["algorithm_reason"] = p.algorithm_reason;
  j["dtype"] = to_string(p.type);
  j["n"] = p.n;
  j["paths"] = p.paths;
  j["checkpointed"] = p.checkpointed;
  j["block"] = p.block;
  j["rounds"] = p.rounds;
  j["devices"] = p.devices;
  j["host_bytes"] = p.host_bytes;
  j["working_host_bytes"] = p.working_host_bytes;
  j["file_bytes"] = p.file_bytes;
  j["device_bytes"] = p.device_bytes;
  j["out_of_core"] = p.out_of_core;
  j["fits"] = p.fits;
  if (!p.fits)
    j["reason"] = p.reason;
  return j;
}

} // namespace apsp::cli
