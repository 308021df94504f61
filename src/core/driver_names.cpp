// to_string(driver) (apsp/plan.hpp): the words for each driver a plan can run.

#include <string>
#include <type_traits>

#include "apsp/plan.hpp"

namespace apsp {
namespace {

std::string threads(int t) {
  return std::to_string(t) + (t == 1 ? " thread" : " threads");
}

std::string batch(std::int64_t b) {
  return std::to_string(b) + (b == 1 ? " source a batch" : " sources a batch");
}

std::string device_list(const std::vector<int>& devices) {
  std::string out;
  for (int d : devices)
    out += (out.empty() ? "" : ",") + std::to_string(d);
  return out;
}

} // namespace

std::string to_string(const driver& d) {
  return std::visit(
      [](const auto& x) -> std::string {
        using D = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<D, drivers::none>)
          return "none";
        else if constexpr (std::is_same_v<D, drivers::reference>)
          return "reference";
        else if constexpr (std::is_same_v<D, drivers::cpu_blocked>)
          return "cpu blocked, " + threads(x.threads);
        else if constexpr (std::is_same_v<D, drivers::supernodal>)
          return "supernodal, " + threads(x.threads);
        else if constexpr (std::is_same_v<D, drivers::cuda_supernodal>)
          return x.devices.empty() ? "cuda supernodal, device " + std::to_string(x.device)
                                   : "cuda supernodal by rows, devices " + device_list(x.devices);
        else if constexpr (std::is_same_v<D, drivers::johnson>)
          return "johnson, " + threads(x.threads);
        else if constexpr (std::is_same_v<D, drivers::cuda_in_core>)
          return "cuda in core, device " + std::to_string(x.device);
        else if constexpr (std::is_same_v<D, drivers::cuda_packed16>)
          return "cuda packed 16-bit, device " + std::to_string(x.device);
        else if constexpr (std::is_same_v<D, drivers::cuda_split>)
          return "cuda split, devices " + device_list(x.devices);
        else if constexpr (std::is_same_v<D, drivers::cuda_out_of_core>)
          return std::string("cuda out of core, ") +
                 (x.devices.size() == 1 ? "device " : "devices ") + device_list(x.devices) +
                 (x.tagged_paths ? ", tagged paths" : "");
        else if constexpr (std::is_same_v<D, drivers::johnson_rows>)
          return "johnson rows, " + threads(x.threads) + ", " + batch(x.batch);
        else if constexpr (std::is_same_v<D, drivers::phast_rows>)
          return "phast rows (contraction hierarchy), " + threads(x.threads) + ", " +
                 batch(x.batch);
        else if constexpr (std::is_same_v<D, drivers::block_rows>)
          return std::string(x.from_targets ? "dijkstra from the targets (reversed graph), "
                                            : "dijkstra from the sources, ") +
                 threads(x.threads);
        else if constexpr (std::is_same_v<D, drivers::ch_table>)
          return "contraction hierarchy table (buckets), " + threads(x.threads);
        else if constexpr (std::is_same_v<D, drivers::cuda_phast>)
          return "cuda phast sweeps (contraction hierarchy), device " + std::to_string(x.device) +
                 ", " + std::to_string(x.lanes) + " sources a sweep, upward searches on " +
                 threads(x.threads);
        else if constexpr (std::is_same_v<D, drivers::pair_search>)
          return std::string("bidirectional dijkstra, 1 thread") +
                 (x.potentials ? ", bellman-ford potentials first" : "");
        else if constexpr (std::is_same_v<D, drivers::cuda_table>)
          return "cuda rphast table, device " + std::to_string(x.device) + ", " +
                 std::to_string(x.lanes) + " sources a sweep, upward searches on " +
                 threads(x.threads);
        else if constexpr (std::is_same_v<D, drivers::rphast_table>)
          return "contraction hierarchy table (RPHAST, " +
                 (x.lanes > 0 ? std::to_string(x.lanes) + " lanes" : std::string("default lanes")) +
                 "), " + threads(x.threads);
        else
          return "distributed, " + std::to_string(x.ranks) + (x.ranks == 1 ? " rank" : " ranks") +
                 " (grid " + std::to_string(x.grid_rows) + "x" + std::to_string(x.grid_cols) +
                 "), " + (x.gpu ? "a GPU" : threads(x.threads)) + " per rank, look-ahead " +
                 (x.lookahead ? (*x.lookahead ? "on" : "off") : "auto");
      },
      d);
}

} // namespace apsp
