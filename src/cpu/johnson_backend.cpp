// Johnson's algorithm as a cpu back end: a CSR copy of the graph, Bellman-Ford potentials only
// when some weight is negative, then Dijkstra from every source on all threads. It reads the
// edges itself (builds_initial_matrix), so the n x n matrix is written once, row by row.

#include <omp.h>

#include <algorithm>
#include <string>

#include "core/backend.hpp"
#include "core/host_memory.hpp"
#include "cpu/all_sources_dijkstra.hpp"
#include "cpu/cpu_plan.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/potentials.hpp"
#include "core/thread_count.hpp"

namespace apsp::detail {
namespace {

/// Sources per progress step: about 256 steps, each a few sources per thread so that the
/// barrier between steps costs little.
std::int64_t default_sources_per_round(std::int64_t n, int threads) {
  return std::max<std::int64_t>({1, 4 * static_cast<std::int64_t>(threads), (n + 255) / 256});
}

template <class T>
void run_johnson(dense_matrix<T>& d, via_matrix* via, const plan& p, run_context& ctx) {
  auto g = ctx.initial_edges() != nullptr ? cpu::csr_from_edges<T>(*ctx.initial_edges())
                                          : cpu::csr_from_matrix<T>(d);
  const std::vector<cpu::johnson_key_t<T>> h = cpu::potentials_for_run(g, ctx);
  cpu::dijkstra_config cfg;
  cfg.threads = apsp::detail::thread_count(ctx.options());
  cfg.sources_per_round = p.block;
  cpu::all_sources_dijkstra<T>(g, h, d, via, cfg, ctx);
}

class johnson_backend final : public backend {
public:
  backend_kind kind() const noexcept override { return backend_kind::cpu; }

  backend_status status() const override {
    return {backend_kind::cpu, true,
            "Johnson's algorithm, " + std::to_string(omp_get_max_threads()) + " threads"};
  }

  plan make_plan(std::int64_t n, const solve_options& o) const override {
    plan p = cpu_plan(n, o);
    const int threads = apsp::detail::thread_count(o);
    p.algorithm = algorithm_kind::johnson;
    p.run = drivers::johnson{threads};
    p.device = "cpu (" + std::to_string(threads) + " threads, Johnson)";
    p.block = o.block > 0 ? o.block : default_sources_per_round(n, threads);
    p.rounds = n == 0 ? 0 : 1 + (n - 1) / p.block;
    // Per thread: distances (8 bytes), predecessors (4) and a queue of about n entries (16).
    const auto scratch = static_cast<std::uint64_t>(n) * 28 * static_cast<std::uint64_t>(threads);
    p.working_host_bytes = scratch;
    return p;
  }

  bool builds_initial_matrix(const plan&) const override { return true; }

  void run(any_matrix& d, via_matrix* via, const plan& p, run_context& ctx) override {
    std::visit([&](auto& m) { run_johnson(m, via, p, ctx); }, d);
  }
};

} // namespace

std::unique_ptr<backend> make_johnson_backend() {
  return std::make_unique<johnson_backend>();
}

} // namespace apsp::detail
