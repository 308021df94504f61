// apsp::solve_table (apsp/table.hpp): a table's plan run as it is. drivers::ch_table builds a
// contraction hierarchy of the graph (reweighted by Bellman-Ford potentials where a weight is
// negative) and runs the bucket searches of cpu/ch_table.hpp; drivers::block_rows runs
// Dijkstra from the smaller set in batches of rows; a whole-matrix plan is solved and cut.

#include "apsp/table.hpp"
#include "apsp/hierarchy.hpp"

#include <algorithm>
#include <chrono>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "apsp/error.hpp"
#include "apsp/result.hpp"
#include "apsp/solve.hpp"
#include "core/driver_fields.hpp"
#include "core/thread_count.hpp"
#include "cpu/ch_table.hpp"
#include "cpu/hierarchy_state.hpp"
#include "cpu/prepared_hierarchy.hpp"

namespace apsp {
namespace {

template <class T> constexpr dtype dtype_of() noexcept {
  if constexpr (std::is_same_v<T, std::int32_t>)
    return dtype::int32;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return dtype::int64;
  else if constexpr (std::is_same_v<T, float>)
    return dtype::float32;
  else
    return dtype::float64;
}

/// The ids as vertices of a graph of n vertices (invalid_argument_error naming one outside).
std::vector<std::int32_t> checked_ids(std::int64_t n, std::span<const std::int64_t> ids,
                                      const char* what) {
  APSP_EXPECTS(n < (std::int64_t{1} << 31), invalid_argument_error,
               "a table handles at most 2^31 - 1 vertices");
  std::vector<std::int32_t> out(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    APSP_EXPECTS(ids[i] >= 0 && ids[i] < n, invalid_argument_error,
                 std::string(what) + " " + std::to_string(ids[i]) +
                     " is not a vertex of the graph (0.." + std::to_string(n - 1) + ")");
    out[i] = static_cast<std::int32_t>(ids[i]);
  }
  return out;
}

template <class T> std::vector<T>& allocated(any_rows& out, std::size_t rows, std::size_t cols) {
  try {
    out = std::vector<T>(rows * cols);
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error("cannot allocate the " + std::to_string(rows) + " x " +
                              std::to_string(cols) + " table");
  }
  return std::get<std::vector<T>>(out);
}

/// The table from the hierarchy; false (nothing written) when the hierarchy outgrew its budget.
template <class T>
bool hierarchy_table(const graph& g, const std::vector<std::int32_t>& sources,
                     const std::vector<std::int32_t>& targets, int threads, any_rows& out) {
  const auto prepared = cpu::prepare_hierarchy<T>(g, threads);
  if (!prepared.ch.complete)
    return false;
  auto& d = allocated<T>(out, sources.size(), targets.size());
  cpu::ch_table<T>(prepared.ch, prepared.h, sources, targets, threads, d.data());
  return true;
}

/// A negative cycle found on the reversed graph, in the input's direction: c0 -> c1 -> ... ->
/// ck-1 there is c0 -> ck-1 -> ... -> c1 here (still from its smallest vertex).
negative_cycle_error turned_around(const negative_cycle_error& e) {
  std::vector<std::int64_t> cycle = e.cycle();
  if (cycle.size() > 1)
    std::reverse(cycle.begin() + 1, cycle.end());
  return {e.what(), e.vertices(), std::move(cycle), e.cycle_weight()};
}

/// The table from Dijkstra's rows of the smaller set, run.batch rows at a time (the targets' on
/// the reversed graph, each row a column). `progress` counts searches done of all, at
/// Johnson's rate (n^2 updates a search), within batches and before each; false cancels.
template <class T>
void dijkstra_table(const graph& g, std::span<const std::int64_t> sources,
                    std::span<const std::int64_t> targets, const drivers::block_rows& run,
                    const progress_callback& progress, any_rows& out) {
  const std::int64_t n = g.num_vertices();
  auto& d = allocated<T>(out, sources.size(), targets.size());
  const std::size_t cols = targets.size();
  const bool from_targets = run.from_targets;
  std::optional<graph> reversed;
  if (from_targets) {
    reversed.emplace(n);
    reversed->assign(g.targets(), g.sources(), g.weights());
  }
  source_options so;
  so.type = dtype_of<T>();
  so.threads = run.threads;
  so.cycles = cycle_scope::whole_graph; // as a table from the hierarchy refuses them
  const auto searched = from_targets ? targets : sources;
  const auto kept = from_targets ? sources : targets;
  if (searched.empty())
    return;
  const std::int64_t batch =
      run.batch > 0
          ? run.batch
          : std::max<std::int64_t>(1, (std::int64_t{1} << 24) / std::max<std::int64_t>(n, 1));
  const auto started = std::chrono::steady_clock::now();
  const auto report = [&](std::int64_t done) {
    if (!progress)
      return true;
    progress_info p;
    p.rounds_total = static_cast<std::int64_t>(searched.size());
    p.rounds_done = done;
    p.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    p.updates_per_second = p.elapsed_seconds > 0 ? static_cast<double>(n) * static_cast<double>(n) *
                                                       static_cast<double>(done) / p.elapsed_seconds
                                                 : 0.0;
    return progress(p);
  };
  try {
    // The weight checks, the CSR copy and the potentials once for all batches.
    const source_solver solver(from_targets ? *reversed : g, so);
    for (std::size_t first = 0; first < searched.size(); first += static_cast<std::size_t>(batch)) {
      if (!report(static_cast<std::int64_t>(first)))
        throw cancelled_error("the table was cancelled");
      const std::size_t count = std::min(searched.size() - first, static_cast<std::size_t>(batch));
      const progress_callback within = [&, first, count](const progress_info& p) {
        return report(static_cast<std::int64_t>(first) +
                      (p.rounds_total > 0
                           ? p.rounds_done * static_cast<std::int64_t>(count) / p.rounds_total
                           : static_cast<std::int64_t>(count)));
      };
      const source_result rows =
          solver.solve(searched.subspan(first, count), progress ? within : progress_callback{});
      const auto& r = std::get<std::vector<T>>(rows.distances);
      for (std::size_t k = 0; k < count; ++k) {
        const T* row = r.data() + k * static_cast<std::size_t>(n);
        for (std::size_t j = 0; j < kept.size(); ++j) {
          const T v = row[kept[j]];
          if (from_targets)
            d[j * cols + first + k] = v;
          else
            d[(first + k) * cols + j] = v;
        }
      }
    }
  } catch (const negative_cycle_error& e) {
    if (!from_targets)
      throw;
    throw turned_around(e);
  }
}

template <class T>
void cut_table(const result& whole, std::span<const std::int64_t> sources,
               std::span<const std::int64_t> targets, any_rows& out) {
  auto& d = allocated<T>(out, sources.size(), targets.size());
  const auto& m = std::get<dense_matrix<T>>(whole.distances());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const T* row = m.row(sources[i]);
    for (std::size_t j = 0; j < targets.size(); ++j)
      d[i * targets.size() + j] = row[targets[j]];
  }
}

} // namespace

plan solve_table_into(const graph& g, std::span<const std::int64_t> sources,
                      std::span<const std::int64_t> targets, const plan& p,
                      const solve_options& options, any_rows& out) {
  const std::int64_t n = g.num_vertices();
  const auto rows = checked_ids(n, sources, "source");
  const auto cols = checked_ids(n, targets, "target");
  APSP_EXPECTS(p.type == options.type, invalid_argument_error,
               "the table's plan was made for another dtype");
  const detail::omp_thread_cap cap(options.threads);
  plan ran = p;
  if (const auto* table = std::get_if<drivers::ch_table>(&p.run)) {
    bool done = false;
    visit_dtype(options.type, [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_integral_v<T>)
        done = hierarchy_table<T>(g, rows, cols, table->threads, out);
      else
        throw invalid_argument_error("a table from the contraction hierarchy needs integer "
                                     "weights (int32 or int64)");
    });
    if (done)
      return ran;
    // A graph without small separators: Dijkstra's rows instead, from the smaller set.
    ran.run = drivers::block_rows{table->threads, cols.size() < rows.size()};
    ran.algorithm_reason += "; the contraction hierarchy outgrew its budget, so Dijkstra ran";
  }
  if (const auto* block = std::get_if<drivers::block_rows>(&ran.run)) {
    visit_dtype(options.type, [&](auto zero) {
      dijkstra_table<decltype(zero)>(g, sources, targets, *block, options.progress, out);
    });
    return ran;
  }
  const result whole = solve(g, ran, options);
  visit_dtype(options.type,
              [&](auto zero) { cut_table<decltype(zero)>(whole, sources, targets, out); });
  return ran;
}

table_result solve_table(const graph& g, std::span<const std::int64_t> sources,
                         std::span<const std::int64_t> targets, const solve_options& options) {
  (void)checked_ids(g.num_vertices(), sources, "source");
  (void)checked_ids(g.num_vertices(), targets, "target");
  table_result r;
  r.rows = static_cast<std::int64_t>(sources.size());
  r.cols = static_cast<std::int64_t>(targets.size());
  const plan p = make_plan(g, options, plan_request::block(r.rows, r.cols));
  r.ran = solve_table_into(g, sources, targets, p, options, r.distances);
  return r;
}

table_result hierarchy::table(std::span<const std::int64_t> sources,
                              std::span<const std::int64_t> targets, int threads) const {
  const std::int64_t n = num_vertices();
  const auto rows = checked_ids(n, sources, "source");
  const auto cols = checked_ids(n, targets, "target");
  const detail::omp_thread_cap cap(threads);
  table_result r;
  r.rows = static_cast<std::int64_t>(rows.size());
  r.cols = static_cast<std::int64_t>(cols.size());
  r.ran.type = type();
  r.ran.run = drivers::ch_table{threads};
  r.ran.algorithm_reason = "a prepared contraction hierarchy";
  detail::derive_driver_fields(r.ran, backend_kind::cpu);
  std::visit(
      [&](const auto& p) {
        using T = typename std::decay_t<decltype(p.h)>::value_type;
        auto& d = allocated<T>(r.distances, rows.size(), cols.size());
        cpu::ch_table<T>(p.ch, p.h, rows, cols, threads, d.data());
      },
      s_->prepared);
  return r;
}

} // namespace apsp
