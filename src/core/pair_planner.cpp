// The plan of one pair (make_plan(graph, options, plan_request::pair())): drivers::pair_search,
// one bidirectional search on the cpu whatever all-pairs engine the options name, with its host
// memory (solve_pair_host_bytes) against this machine's.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "apsp/pair.hpp"
#include "core/driver_fields.hpp"
#include "core/host_memory.hpp"
#include "core/planner.hpp"

namespace apsp::detail {

plan plan_pair(const graph& g, const solve_options& o) {
  const std::int64_t n = g.num_vertices();
  // The sign bit, as analyze_weights reads it (-0.0 counts): the potentials solve_pair needs.
  const auto& w = g.weights();
  const bool negative = std::any_of(w.begin(), w.end(), [](double v) { return std::signbit(v); });
  plan p;
  p.run = drivers::pair_search{negative};
  derive_driver_fields(p, backend_kind::cpu);
  p.algorithm = algorithm_kind::johnson; // potentials first where a weight is negative
  p.algorithm_reason = std::string("one pair: one bidirectional search, memory O(n + m)") +
                       (negative ? ", after Bellman-Ford potentials (a weight is negative)" : "");
  p.device = "cpu (1 thread, bidirectional dijkstra)";
  p.type = o.type;
  p.n = n;
  p.block = 1;
  p.rounds = 1;
  p.paths = true; // the pair's path always comes with its length
  p.working_host_bytes = solve_pair_host_bytes(n, g.num_edges(), o.type);
  p.host_bytes = p.working_host_bytes;
  const std::uint64_t ram = host_memory_bytes();
  p.fits = ram == 0 || p.host_bytes <= ram;
  p.driver_fits = true;
  p.reason = p.fits ? std::string()
                    : "the pair's search needs " + gib(p.host_bytes) +
                          " of host memory but this machine has " + gib(ram);
  return p;
}

} // namespace apsp::detail

namespace apsp {

std::uint64_t solve_pair_host_bytes(std::int64_t n, std::int64_t arcs, dtype type) noexcept {
  const auto vertices = static_cast<std::uint64_t>(std::max<std::int64_t>(n, 0));
  const auto edges = static_cast<std::uint64_t>(std::max<std::int64_t>(arcs, 0));
  // A CSR arc holds a 4-byte head and a johnson_key_t weight, padded to 8 or 16 bytes.
  const std::uint64_t arc = type == dtype::int32 ? 8 : 16;
  // Per vertex: both ways' offsets (8 + 8) and each search's key (16), arc (8), state (1) and
  // heap position (8). Per arc: the edge list (16), the arc both ways and the reverse's index.
  return vertices * (16 + 2 * 33) + edges * (16 + 2 * arc + 8);
}

} // namespace apsp
