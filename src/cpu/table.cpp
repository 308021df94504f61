// apsp::solve_table (apsp/table.hpp): a table's plan run as it is. drivers::ch_table and
// drivers::rphast_table build a contraction hierarchy of the graph (reweighted by Bellman-Ford
// potentials where a weight is negative), prepare the targets once (buckets, cpu/ch_table.hpp;
// the restricted sweep, cpu/rphast.hpp) and make the rows a tile of sources at a time;
// drivers::block_rows runs Dijkstra from the smaller set in batches of rows; a whole-matrix
// plan is solved and cut. A tiled plan hands each tile to a table_tile_sink (a file) instead.

#include "apsp/table.hpp"
#include "apsp/hierarchy.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
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
#include "core/algorithm_choice.hpp"
#include "core/backend.hpp"
#include "core/driver_fields.hpp"
#include "core/thread_count.hpp"
#include "core/tuning.hpp"
#include "cpu/ch_table.hpp"
#include "cpu/hierarchy_state.hpp"
#include "cpu/prepared_hierarchy.hpp"
#include "cpu/rphast.hpp"

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

/// Where a table's rows go: the whole table in memory (`whole`, rows x cols values), or tile
/// by tile into `sink` through a buffer of one tile.
template <class T> struct row_destination {
  T* whole = nullptr;
  table_tile_sink* sink = nullptr;
  std::vector<T> buffer;
};

/// Runs `fill(first, count, dst)` (rows [first, first + count) into dst, row-major) for every
/// tile of `tile_rows` sources, skipping the tiles the sink holds already, reporting each tile
/// through `progress` (false cancels between tiles: cancelled_error).
template <class T, class Fill>
void fill_tiles(std::int64_t rows, std::size_t cols, std::int64_t tile_rows, row_destination<T>& to,
                const progress_callback& progress, Fill&& fill) {
  const std::int64_t tile = std::max<std::int64_t>(1, tile_rows);
  const std::int64_t tiles = (rows + tile - 1) / tile;
  const auto started = std::chrono::steady_clock::now();
  std::int64_t done_rows = 0;
  std::int64_t made_rows = 0;
  const auto report = [&](std::int64_t done_tiles) {
    if (!progress)
      return true;
    progress_info p;
    p.rounds_total = tiles;
    p.rounds_done = done_tiles;
    p.sources_total = rows;
    p.sources_done = done_rows;
    p.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    p.sources_per_second =
        p.elapsed_seconds > 0 ? static_cast<double>(made_rows) / p.elapsed_seconds : 0.0;
    return progress(p);
  };
  for (std::int64_t k = 0; k < tiles; ++k) {
    const std::int64_t first = k * tile;
    const std::int64_t count = std::min(tile, rows - first);
    if (to.sink != nullptr && to.sink->has(k)) {
      done_rows += count;
      continue;
    }
    if (!report(k))
      throw cancelled_error("the table was cancelled");
    if (to.sink == nullptr) {
      fill(first, count, to.whole + static_cast<std::size_t>(first) * cols);
    } else {
      to.buffer.resize(static_cast<std::size_t>(count) * cols);
      fill(first, count, to.buffer.data());
      to.sink->put(k, first, count, to.buffer.data());
    }
    done_rows += count;
    made_rows += count;
  }
  (void)report(tiles);
}

/// Rows a tile of a table in memory: several tiles for progress, each large enough that the
/// threads' batches of sources (up to 16 lanes each) stay busy.
std::int64_t tile_rows_in_memory(const plan& p, std::int64_t rows) {
  if (p.block > 0)
    return p.block;
  return std::max<std::int64_t>(2048, (rows + 15) / 16);
}

/// The threads of a table's driver.
int table_threads(const driver& d) {
  if (const auto* b = std::get_if<drivers::ch_table>(&d))
    return b->threads;
  if (const auto* r = std::get_if<drivers::rphast_table>(&d))
    return r->threads;
  if (const auto* g = std::get_if<drivers::cuda_table>(&d))
    return g->threads;
  if (const auto* rows = std::get_if<drivers::block_rows>(&d))
    return rows->threads;
  return 0;
}

/// The rows of a table from a prepared hierarchy by the plan's driver: the targets' buckets
/// (drivers::ch_table) or their restricted sweep (drivers::rphast_table) once, then the rows a
/// tile of sources at a time.
template <class T>
void hierarchy_rows(const cpu::prepared_hierarchy<T>& prepared,
                    const std::vector<std::int32_t>& sources,
                    const std::vector<std::int32_t>& targets, const plan& p,
                    const progress_callback& progress, row_destination<T>& to) {
  const auto rows = static_cast<std::int64_t>(sources.size());
  const std::size_t cols = targets.size();
  const std::int64_t tile = to.sink != nullptr ? p.block : tile_rows_in_memory(p, rows);
  const std::span<const std::int32_t> all(sources);
  const auto part = [&](std::int64_t first, std::int64_t count) {
    return all.subspan(static_cast<std::size_t>(first), static_cast<std::size_t>(count));
  };
  if (const auto* gpu = std::get_if<drivers::cuda_table>(&p.run)) {
    if constexpr (std::is_same_v<T, std::int32_t>) {
      const cpu::rphast_targets<T> sel = cpu::rphast_select(prepared.ch, std::span(targets));
      // One tile for a table in memory: each tile uploads the closure to the device again.
      fill_tiles(rows, cols, to.sink != nullptr ? p.block : std::max<std::int64_t>(rows, 1), to,
                 progress, [&](std::int64_t first, std::int64_t count, T* dst) {
                   detail::rphast_rows_on_gpu(prepared.ch, sel, prepared.h, part(first, count),
                                              std::span(targets), *gpu, dst);
                 });
      return;
    } else {
      throw invalid_argument_error("RPHAST's tables on the GPU take int32 only; use the cpu "
                                   "back end");
    }
  }
  if (const auto* r = std::get_if<drivers::rphast_table>(&p.run)) {
    const cpu::rphast_targets<T> sel = cpu::rphast_select(prepared.ch, std::span(targets));
    const int lanes = r->lanes > 0 ? r->lanes : cpu::rphast_default_lanes<T>();
    if (detail::current_tuning().cpu_phast_verbose) {
      std::fprintf(stderr,
                   "apsp: RPHAST: the closure of %zu targets: %lld of %lld positions, %zu arcs\n",
                   cols, static_cast<long long>(sel.size()), static_cast<long long>(prepared.ch.n),
                   sel.down_arcs.size());
    }
    fill_tiles(rows, cols, tile, to, progress, [&](std::int64_t first, std::int64_t count, T* dst) {
      cpu::rphast_rows(prepared.ch, sel, prepared.h, part(first, count), std::span(targets),
                       r->threads, lanes, dst);
    });
    return;
  }
  const int threads = table_threads(p.run);
  const cpu::ch_buckets<T> b = cpu::ch_table_buckets(prepared.ch, std::span(targets), threads);
  fill_tiles(rows, cols, tile, to, progress, [&](std::int64_t first, std::int64_t count, T* dst) {
    cpu::ch_table_rows(prepared.ch, b, prepared.h, part(first, count), std::span(targets), threads,
                       dst);
  });
}

/// The table from the hierarchy by the plan's driver (buckets or RPHAST); false (nothing
/// written) when the hierarchy outgrew its budget.
template <class T>
bool hierarchy_table(const graph& g, const std::vector<std::int32_t>& sources,
                     const std::vector<std::int32_t>& targets, const plan& p,
                     const progress_callback& progress, row_destination<T>& to) {
  const int threads = table_threads(p.run);
  if (progress) {
    progress_info stage;
    stage.stage = "building the contraction hierarchy";
    if (!progress(stage))
      throw cancelled_error("the table was cancelled");
  }
  const auto prepared = cpu::prepare_hierarchy<T>(g, threads);
  if (!prepared.ch.complete)
    return false;
  hierarchy_rows<T>(prepared, sources, targets, p, progress, to);
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

namespace {

/// Whether a driver makes the table from a contraction hierarchy.
bool hierarchy_driver(const driver& d) {
  return std::holds_alternative<drivers::ch_table>(d) ||
         std::holds_alternative<drivers::rphast_table>(d) ||
         std::holds_alternative<drivers::cuda_table>(d);
}

/// Dijkstra's rows from the sources, tile by tile into `to` (batches of run.batch searches
/// within a tile).
template <class T>
void dijkstra_tiles(const graph& g, std::span<const std::int64_t> sources,
                    std::span<const std::int64_t> targets, const plan& p,
                    const drivers::block_rows& run, const progress_callback& progress,
                    row_destination<T>& to) {
  const std::int64_t n = g.num_vertices();
  source_options so;
  so.type = dtype_of<T>();
  so.threads = run.threads;
  so.cycles = cycle_scope::whole_graph;
  const source_solver solver(g, so);
  const std::int64_t batch =
      run.batch > 0
          ? run.batch
          : std::max<std::int64_t>(1, (std::int64_t{1} << 24) / std::max<std::int64_t>(n, 1));
  const std::size_t cols = targets.size();
  fill_tiles(static_cast<std::int64_t>(sources.size()), cols, p.block, to, progress,
             [&](std::int64_t first, std::int64_t count, T* dst) {
               for (std::int64_t b = 0; b < count; b += batch) {
                 const auto k = static_cast<std::size_t>(std::min(batch, count - b));
                 const source_result r =
                     solver.solve(sources.subspan(static_cast<std::size_t>(first + b), k));
                 const auto& d = std::get<std::vector<T>>(r.distances);
                 for (std::size_t i = 0; i < k; ++i) {
                   const T* row = d.data() + i * static_cast<std::size_t>(n);
                   T* out = dst + (static_cast<std::size_t>(b) + i) * cols;
                   for (std::size_t j = 0; j < cols; ++j)
                     out[j] = row[targets[j]];
                 }
               }
             });
}

/// The table of plan `p` into `whole` (any_rows, allocated here) or tile by tile into `sink`.
plan run_table(const graph& g, std::span<const std::int64_t> sources,
               std::span<const std::int64_t> targets, const plan& p, const solve_options& options,
               any_rows* whole, table_tile_sink* sink) {
  const std::int64_t n = g.num_vertices();
  const auto rows = checked_ids(n, sources, "source");
  const auto cols = checked_ids(n, targets, "target");
  APSP_EXPECTS(p.type == options.type, invalid_argument_error,
               "the table's plan was made for another dtype");
  const detail::omp_thread_cap cap(options.threads);
  plan ran = p;
  if (hierarchy_driver(p.run)) {
    bool done = false;
    visit_dtype(options.type, [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_integral_v<T>) {
        row_destination<T> to;
        to.sink = sink;
        if (whole != nullptr)
          to.whole = allocated<T>(*whole, rows.size(), cols.size()).data();
        done = hierarchy_table<T>(g, rows, cols, p, options.progress, to);
      } else {
        throw invalid_argument_error("a table from the contraction hierarchy needs integer "
                                     "weights (int32 or int64)");
      }
    });
    if (done)
      return ran;
    // A graph without small separators: Dijkstra's rows instead, from the smaller set (from the
    // sources when tiled: a tile is rows).
    ran.run =
        drivers::block_rows{table_threads(p.run), sink == nullptr && cols.size() < rows.size()};
    ran.algorithm_reason += "; the contraction hierarchy outgrew its budget, so Dijkstra ran";
  }
  if (const auto* block = std::get_if<drivers::block_rows>(&ran.run)) {
    visit_dtype(options.type, [&](auto zero) {
      using T = decltype(zero);
      if (sink == nullptr) {
        dijkstra_table<T>(g, sources, targets, *block, options.progress, *whole);
      } else {
        row_destination<T> to;
        to.sink = sink;
        dijkstra_tiles<T>(g, sources, targets, ran, *block, options.progress, to);
      }
    });
    if (sink != nullptr && block->from_targets)
      std::get<drivers::block_rows>(ran.run).from_targets = false;
    return ran;
  }
  APSP_EXPECTS(sink == nullptr, invalid_argument_error,
               "a table in tiles is made by rows (Dijkstra or a contraction hierarchy), not by "
               "the whole matrix");
  const result solved = solve(g, ran, options);
  visit_dtype(options.type,
              [&](auto zero) { cut_table<decltype(zero)>(solved, sources, targets, *whole); });
  return ran;
}

} // namespace

plan solve_table_into(const graph& g, std::span<const std::int64_t> sources,
                      std::span<const std::int64_t> targets, const plan& p,
                      const solve_options& options, any_rows& out) {
  return run_table(g, sources, targets, p, options, &out, nullptr);
}

plan solve_table_tiles(const graph& g, std::span<const std::int64_t> sources,
                       std::span<const std::int64_t> targets, const plan& p,
                       const solve_options& options, table_tile_sink& out) {
  APSP_EXPECTS(p.block > 0, invalid_argument_error,
               "a table in tiles needs its plan's rows a tile (plan::block)");
  return run_table(g, sources, targets, p, options, nullptr, &out);
}

table_result solve_table(const graph& g, std::span<const std::int64_t> sources,
                         std::span<const std::int64_t> targets, const solve_options& options) {
  (void)checked_ids(g.num_vertices(), sources, "source");
  (void)checked_ids(g.num_vertices(), targets, "target");
  table_result r;
  r.rows = static_cast<std::int64_t>(sources.size());
  r.cols = static_cast<std::int64_t>(targets.size());
  const plan p = make_plan(g, options, plan_request::block(r.rows, r.cols));
  if (p.tiled) {
    throw out_of_memory_error(
        "the " + std::to_string(r.rows) + " x " + std::to_string(r.cols) +
        " table does not fit the host memory budget: write it in tiles (apsp::solve_table_tiles, "
        "or apsp solve -o FILE)");
  }
  r.ran = solve_table_into(g, sources, targets, p, options, r.distances);
  return r;
}

namespace {

/// A prepared hierarchy's plan for a rows x cols table: the engine by the cost model without
/// the build (unless APSP_TABLE_ENGINE forces one).
plan prepared_plan(const hierarchy& h, std::int64_t rows, std::int64_t cols, int threads) {
  plan p;
  p.type = h.type();
  p.n = h.num_vertices();
  detail::problem_shape shape;
  shape.n = p.n;
  shape.m = h.fingerprint().edges;
  shape.type = h.type();
  threads = threads > 0 ? threads : omp_get_max_threads(); // 0: every thread, named as such
  shape.threads = threads;
  const double buckets = detail::ch_buckets_cpu_seconds(shape, rows, cols);
  const double sweeps = detail::rphast_cpu_seconds(shape, rows, cols);
  const std::string& forced = detail::current_tuning().table_engine;
  if (forced == "rphast" || (forced != "buckets" && sweeps < buckets))
    p.run = drivers::rphast_table{threads, 0};
  else
    p.run = drivers::ch_table{threads};
  char why[160];
  std::snprintf(why, sizeof why, "a prepared contraction hierarchy: %s ~%.3g s < %s ~%.3g s",
                sweeps < buckets ? "RPHAST" : "buckets", std::min(sweeps, buckets),
                sweeps < buckets ? "buckets" : "RPHAST", std::max(sweeps, buckets));
  // (The estimates as the cost model orders them; the engine above, unless a knob forces one.)
  p.algorithm_reason = why;
  if (forced == "rphast" || forced == "buckets")
    p.algorithm_reason += " (APSP_TABLE_ENGINE=" + forced + ")";
  p.algorithm = algorithm_kind::johnson;
  detail::derive_driver_fields(p, backend_kind::cpu);
  return p;
}

} // namespace

table_result hierarchy::table(std::span<const std::int64_t> sources,
                              std::span<const std::int64_t> targets, int threads) const {
  const std::int64_t n = num_vertices();
  const auto rows = checked_ids(n, sources, "source");
  const auto cols = checked_ids(n, targets, "target");
  const detail::omp_thread_cap cap(threads);
  table_result r;
  r.rows = static_cast<std::int64_t>(rows.size());
  r.cols = static_cast<std::int64_t>(cols.size());
  r.ran = prepared_plan(*this, r.rows, r.cols, threads);
  std::visit(
      [&](const auto& p) {
        using T = typename std::decay_t<decltype(p.h)>::value_type;
        row_destination<T> to;
        to.whole = allocated<T>(r.distances, rows.size(), cols.size()).data();
        hierarchy_rows<T>(p, rows, cols, r.ran, progress_callback{}, to);
      },
      s_->prepared);
  return r;
}

plan hierarchy::table_tiles(std::span<const std::int64_t> sources,
                            std::span<const std::int64_t> targets, int threads,
                            std::int64_t tile_rows, table_tile_sink& out,
                            const progress_callback& progress) const {
  APSP_EXPECTS(tile_rows > 0, invalid_argument_error,
               "a table in tiles needs at least one row a tile");
  const std::int64_t n = num_vertices();
  const auto rows = checked_ids(n, sources, "source");
  const auto cols = checked_ids(n, targets, "target");
  const detail::omp_thread_cap cap(threads);
  plan ran = prepared_plan(*this, static_cast<std::int64_t>(rows.size()),
                           static_cast<std::int64_t>(cols.size()), threads);
  ran.tiled = true;
  ran.block = tile_rows;
  ran.rounds = (static_cast<std::int64_t>(rows.size()) + tile_rows - 1) / tile_rows;
  std::visit(
      [&](const auto& p) {
        using T = typename std::decay_t<decltype(p.h)>::value_type;
        row_destination<T> to;
        to.sink = &out;
        hierarchy_rows<T>(p, rows, cols, ran, progress, to);
      },
      s_->prepared);
  return ran;
}

} // namespace apsp
