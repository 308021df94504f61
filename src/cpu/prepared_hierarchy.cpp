#include "cpu/prepared_hierarchy.hpp"

#include <type_traits>

#include "core/checks.hpp"
#include "cpu/csr_graph.hpp"
#include "cpu/phast.hpp"
#include "cpu/potentials.hpp"

namespace apsp::cpu {

template <class T> prepared_hierarchy<T> prepare_hierarchy(const graph& g, int threads) {
  constexpr dtype type = std::is_same_v<T, std::int32_t> ? dtype::int32 : dtype::int64;
  const auto summary = g.summarize_weights();
  const auto facts = detail::analyze_weights(g, type, false);
  detail::check_representable(facts, type, summary.all_integral);
  const auto usable = detail::usable_edges(g, type);
  auto csr = csr_from_edges<T>(usable ? *usable : g);
  prepared_hierarchy<T> p;
  if (facts.has_negative || csr.negative_loop >= 0) {
    p.h = johnson_potentials(csr); // throws on every negative cycle of the graph
    reweight(csr, p.h);
  }
  contraction_limits limits;
  limits.threads = threads;
  p.ch = phast_hierarchy<T>(csr, limits);
  return p;
}

template prepared_hierarchy<std::int32_t> prepare_hierarchy<std::int32_t>(const graph&, int);
template prepared_hierarchy<std::int64_t> prepare_hierarchy<std::int64_t>(const graph&, int);

} // namespace apsp::cpu
