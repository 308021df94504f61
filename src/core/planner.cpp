// The one planner: apsp::make_plan(graph, options, asked) chooses the engine of the whole
// matrix (core/solve.cpp), of the metrics (rows or a matrix), of a block of sources and
// targets (rows or the whole matrix), from the cost model of core/algorithm_choice.hpp, and of
// one pair (core/pair_planner.cpp).

#include "core/planner.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <variant>

#include "apsp/error.hpp"
#include "apsp/estimate.hpp"
#include "apsp/metrics.hpp"
#include "apsp/solve.hpp"
#include "core/algorithm_choice.hpp"
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "core/driver_fields.hpp"
#include "core/gpu_sweep_plan.hpp"
#include "core/host_memory.hpp"
#include "core/metrics_accumulator.hpp"
#include "core/thread_count.hpp"

namespace apsp::detail {
namespace {

/// Why the n x n matrix of plan `p` cannot be kept in RAM (empty when it can).
std::string matrix_does_not_fit(const plan& p) {
  if (!p.fits)
    return p.reason;
  const std::uint64_t ram = host_memory_bytes();
  if (ram != 0 && p.host_bytes > ram)
    return "it needs " + gib(p.host_bytes) + " of host memory, this machine has " + gib(ram);
  return {};
}

/// Whether plan `p`'s back end reduces the matrix where it solves it; if so, `p` is counted
/// again without the n x n matrix in host memory.
bool count_as_reduced_where_solved(plan& p) {
  if (!reduced_where_solved(p))
    return false;
  count_host_memory_without_outputs(p);
  return true;
}

/// Johnson's plan for n vertices (its driver and block; no analysis of the graph).
plan johnson_plan(std::int64_t n, const solve_options& o) {
  solve_options jo = o;
  jo.algorithm = algorithm_kind::johnson;
  return apsp::make_plan(n, jo);
}

/// The plan of the rows by `engine`, from Johnson's plan `p` (its block): the driver, and the
/// memory of rows that are reduced instead of kept.
plan rows_plan(const graph& g, const solve_options& o, plan p, std::string reason,
               row_engine engine) {
  const auto n = static_cast<std::uint64_t>(g.num_vertices());
  const auto m = static_cast<std::uint64_t>(g.num_edges());
  const int thread_number = thread_count(o);
  const auto threads = static_cast<std::uint64_t>(thread_number);
  std::uint64_t per_thread = dijkstra_rows_per_thread(n, o.type);
  std::uint64_t shared = dijkstra_rows_shared(n, m);
  if (engine == row_engine::phast) {
    // PHAST: per thread, the lanes' distances and rows (16 int32 or 8 int64 values each, a
    // vertex), the column sums (28 bytes) and the upward search (a distance and a heap
    // position); the hierarchy while it is built (four adjacency lists a vertex; arcs and
    // shortcuts, within a budget of 3 per arc, held twice).
    per_thread = n * (2 * 64 + 28 + 16);
    shared = add_bytes(shared, 32 * (4 * m + n) + 96 * n);
    p.run = drivers::phast_rows{thread_number, p.block};
  } else {
    p.run = drivers::johnson_rows{thread_number, p.block};
  }
  derive_driver_fields(p, backend_kind::cpu);
  // No n x n matrix: the working memory is all of it.
  p.working_host_bytes = add_bytes(shared, per_thread * threads);
  p.host_bytes = p.working_host_bytes;
  p.file_bytes = 0;
  p.driver_fits = true;
  const std::uint64_t ram = host_memory_bytes();
  p.fits = ram == 0 || p.host_bytes <= ram;
  p.reason = p.fits ? std::string()
                    : std::string(row_engine_name(engine)) + " on the cpu needs " +
                          gib(p.host_bytes) + " of host memory but this machine has " + gib(ram);
  p.device =
      "cpu (" + std::to_string(threads) + " threads, " + std::string(row_engine_name(engine)) + ")";
  p.algorithm_reason = std::move(reason);
  return p;
}

/// Under auto, a matrix too large for RAM (`too_large`) may still fit the GPUs, which reduce it
/// where they solve it: their Floyd-Warshall plan when it does and the cost model says it ends
/// before Dijkstra's rows on the cpu; else none (no GPU, no room, or slower).
std::optional<plan> gpus_reduce_in_place(const graph& g, const solve_options& o,
                                         const std::string& too_large) {
  solve_options on_gpus = o;
  on_gpus.backend = backend_kind::cuda;
  on_gpus.algorithm = algorithm_kind::floyd_warshall;
  plan p;
  try {
    p = apsp::make_plan(g, on_gpus);
  } catch (const error&) {
    return std::nullopt; // no GPU, or none that takes this problem
  }
  if (!count_as_reduced_where_solved(p) || !p.fits)
    return std::nullopt;
  problem_shape shape;
  shape.n = g.num_vertices();
  shape.m = g.num_edges();
  shape.type = o.type;
  shape.threads = thread_count(o);
  if (const auto* split = std::get_if<drivers::cuda_split>(&p.run))
    shape.gpus = static_cast<int>(split->devices.size());
  shape.host_output = false; // reduced on the devices
  const algorithm_choice c = choose_algorithm(shape, backend_kind::cuda);
  if (c.algorithm != algorithm_kind::floyd_warshall)
    return std::nullopt;
  p.algorithm_reason = "auto: " + too_large +
                       ", but the GPUs hold it and reduce it where they solve it (" +
                       c.reason.substr(std::string("auto: ").size()) + ")";
  return p;
}

/// Why no n x n matrix of `type` can be kept in this machine's RAM, whatever engine holds it
/// (empty when one might): decided before planning, so that auto skips the supernodal analysis
/// of a graph it will not solve into a matrix.
std::string matrix_cannot_fit(std::int64_t n, dtype type) {
  const std::uint64_t ram = host_memory_bytes();
  const auto cells = static_cast<double>(n) * static_cast<double>(n);
  const double bytes = cells * static_cast<double>(size_of(type));
  if (ram == 0 || bytes <= static_cast<double>(ram))
    return {};
  return "the " + std::to_string(n) + " x " + std::to_string(n) + " " +
         std::string(to_string(type)) + " matrix alone is larger than this machine's " + gib(ram);
}

/// Whether the options ask a block for the whole matrix: the all-pairs engines' options
/// (algorithm fw or supernodal, back end cuda or reference, devices, a device memory limit).
bool whole_matrix_asked(const solve_options& o) {
  return o.algorithm == algorithm_kind::floyd_warshall ||
         o.algorithm == algorithm_kind::supernodal || o.backend == backend_kind::cuda ||
         o.backend == backend_kind::reference || !o.devices.empty() || o.device_memory_limit != 0;
}

/// The solve of the whole matrix, when a block is to be cut from it; empty: rows from the
/// `searched` vertices. Asked for by the options, or under auto when the matrix fits in this
/// machine's memory and the cost model (docs/sparse.md) says Floyd-Warshall ends before those
/// searches: dense graphs with many sources. `why` says which, or why not.
std::optional<plan> whole_matrix_plan(const graph& g, const solve_options& o, std::int64_t searched,
                                      std::string& why) {
  if (o.algorithm == algorithm_kind::johnson) {
    why = "requested";
    return std::nullopt;
  }
  if (whole_matrix_asked(o)) {
    why = "asked for";
    return apsp::make_plan(g, o);
  }
  solve_options fw = o;
  fw.algorithm = algorithm_kind::floyd_warshall;
  plan whole;
  try {
    whole = apsp::make_plan(g, fw);
  } catch (const error& e) {
    why = std::string("auto: no engine takes the whole matrix (") + e.what() + ")";
    return std::nullopt; // beyond the matrix limit, or no engine for it
  }
  if (const std::string no_room = matrix_does_not_fit(whole); !no_room.empty()) {
    why = "auto: the whole matrix does not fit (" + no_room + ")";
    return std::nullopt;
  }
  solve_options dijkstra = o;
  dijkstra.algorithm = algorithm_kind::johnson;
  dijkstra.backend = backend_kind::cpu;
  const std::int64_t n = g.num_vertices();
  const double matrix_seconds = estimated_solve_seconds(whole, fw, g.num_edges());
  const double rows_seconds =
      estimated_solve_seconds(apsp::make_plan(n, dijkstra), dijkstra, g.num_edges()) *
      static_cast<double>(searched) / static_cast<double>(n);
  const bool matrix_sooner = matrix_seconds > 0 && matrix_seconds < rows_seconds;
  char text[160];
  std::snprintf(text, sizeof text,
                matrix_sooner
                    ? "auto: the whole matrix ~%.3g s < Dijkstra from %lld vertices ~%.3g s"
                    : "auto: the whole matrix ~%.3g s >= Dijkstra from %lld vertices "
                      "~%.3g s",
                matrix_seconds, static_cast<long long>(searched), rows_seconds);
  why = text;
  if (!matrix_sooner)
    return std::nullopt;
  return whole;
}

/// The host memory a plan may count on: solve_options::host_memory_limit, else the machine's.
std::uint64_t host_budget(const solve_options& o) {
  return o.host_memory_limit != 0 ? o.host_memory_limit : host_memory_bytes();
}

/// A block plan's host memory: its working memory plus the rows x cols block, against the host
/// memory budget (`what` needs it, says the reason when it does not fit). A table of rows
/// (`tiles`: made a tile of sources at a time) larger than the budget is tiled: as many rows a
/// tile as fit beside the working memory; host_bytes then counts one tile.
void count_block_memory(plan& p, const solve_options& o, std::int64_t rows, std::int64_t cols,
                        const std::string& what, bool tiles) {
  const std::uint64_t row_bytes = static_cast<std::uint64_t>(cols) * size_of(p.type);
  p.host_bytes = add_bytes(p.working_host_bytes, static_cast<std::uint64_t>(rows) * row_bytes);
  const std::uint64_t budget = host_budget(o);
  p.fits = budget == 0 || p.host_bytes <= budget;
  p.driver_fits = true;
  p.tiled = false;
  if (!p.fits && tiles && row_bytes > 0 && budget > p.working_host_bytes) {
    const auto tile_rows = static_cast<std::int64_t>(std::min<std::uint64_t>(
        (budget - p.working_host_bytes) / row_bytes, static_cast<std::uint64_t>(rows)));
    if (tile_rows >= 1) {
      p.tiled = true;
      p.block = tile_rows;
      p.rounds = (rows + tile_rows - 1) / tile_rows;
      p.host_bytes =
          add_bytes(p.working_host_bytes, static_cast<std::uint64_t>(tile_rows) * row_bytes);
      p.fits = true;
    }
  }
  p.reason = p.fits ? std::string()
                    : what + " need " + gib(p.host_bytes) + " of host memory but " +
                          (o.host_memory_limit != 0 ? "the budget is " : "this machine has ") +
                          gib(budget);
}

/// The table from a contraction hierarchy, when auto chooses: integer weights on a road-like
/// graph (choose_row_engine's PHAST test, so APSP_CPU_PHAST=0 turns it off too), and the cost
/// model's hierarchy and the sooner of RPHAST's sweeps (drivers::rphast_table) and the bucket
/// searches (drivers::ch_table) sooner than Dijkstra from the smaller set and than the `whole`
/// matrix (when auto chose that); empty otherwise.
/// Whether the options ask for RPHAST's table on the GPU: --backend cuda with int32 weights
/// (other types keep the whole matrix), no algorithm named.
bool gpu_table_asked(const solve_options& o) {
  return o.backend == backend_kind::cuda && o.type == dtype::int32 &&
         o.algorithm == algorithm_kind::automatic;
}

std::optional<plan> hierarchy_table_plan(const graph& g, const solve_options& o, std::int64_t rows,
                                         std::int64_t cols, bool from_targets,
                                         const std::optional<plan>& whole) {
  const bool gpu_asked = gpu_table_asked(o);
  if (o.algorithm != algorithm_kind::automatic || (whole_matrix_asked(o) && !gpu_asked) ||
      choose_row_engine(g, o.type, current_tuning()) != row_engine::phast)
    return std::nullopt;
  const std::int64_t n = g.num_vertices();
  const std::int64_t m = g.num_edges();
  const int threads = thread_count(o);
  problem_shape shape;
  shape.n = n;
  shape.m = m;
  shape.type = o.type;
  shape.threads = threads;
  const double build_seconds = ch_build_cpu_seconds(shape);
  const double buckets_seconds = build_seconds + ch_buckets_cpu_seconds(shape, rows, cols);
  const double sweeps_seconds = build_seconds + rphast_cpu_seconds(shape, rows, cols);
  const std::string& forced = current_tuning().table_engine;
  const bool sweeps =
      forced == "rphast" || (forced != "buckets" && sweeps_seconds < buckets_seconds);
  const double table_seconds = sweeps ? sweeps_seconds : buckets_seconds;
  solve_options dijkstra = o;
  dijkstra.algorithm = algorithm_kind::johnson;
  dijkstra.backend = backend_kind::cpu;
  const double rows_seconds = estimated_solve_seconds(apsp::make_plan(n, dijkstra), dijkstra, m) *
                              static_cast<double>(from_targets ? cols : rows) /
                              static_cast<double>(n);
  double other_seconds = rows_seconds;
  if (whole) {
    solve_options fw = o;
    fw.algorithm = algorithm_kind::floyd_warshall;
    other_seconds = estimated_solve_seconds(*whole, fw, m);
  }
  if (!gpu_asked && !(table_seconds < other_seconds) && forced != "rphast" && forced != "buckets")
    return std::nullopt;
  // RPHAST on the GPU: asked for, or under auto (no engine forced) when the cost model says it
  // ends sooner than the cpu's table, device start and the rows' way back included; only then
  // is the device asked whether it is there.
  const std::int64_t gpu_closure = rphast_closure_size(n, cols);
  const int tuned_lanes = current_tuning().cuda_phast_lanes;
  const int gpu_lanes = tuned_lanes > 0 ? tuned_lanes : gpu_sweep_default_lanes;
  const double gpu_seconds =
      build_seconds + rphast_gpu_seconds(gpu_closure, rows, cols, threads, !gpu_started());
  const std::uint64_t gpu_bytes = rphast_gpu_device_bytes(gpu_closure, cols, gpu_lanes);
  const bool gpu_auto = o.backend == backend_kind::automatic && o.type == dtype::int32 &&
                        forced.empty() && gpu_seconds < table_seconds &&
                        gpu_bytes <= gpu_auto_device_bytes;
  std::string gpu_device;
  if (gpu_asked || gpu_auto) {
    const backend_status gpu = current_cuda_backend()->status();
    if (!gpu.available && gpu_asked)
      return std::nullopt; // the whole matrix's cuda plan says why the device is missing
    if (gpu.available)
      gpu_device = gpu.detail;
  }
  if (!gpu_device.empty()) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "%s: a road-like graph with integer weights: the contraction hierarchy (~%.3g s "
                  "to build) with RPHAST on the GPU ~%.3g s (on the cpu ~%.3g s)",
                  gpu_asked ? "requested (cuda)" : "auto", build_seconds, gpu_seconds,
                  table_seconds);
    plan p;
    p.run = drivers::cuda_table{o.devices.empty() ? 0 : o.devices.front(), gpu_lanes, threads};
    derive_driver_fields(p, backend_kind::cuda);
    p.algorithm = algorithm_kind::johnson; // potentials first where a weight is negative
    p.algorithm_reason = text;
    p.device = gpu_device + ", RPHAST sweeps";
    p.type = o.type;
    p.n = n;
    p.device_bytes = gpu_bytes;
    // The hierarchy while it is built, each thread's upward search, the closure, and the
    // batches' two pinned buffers of rows.
    const auto un = static_cast<std::uint64_t>(n);
    const auto um = static_cast<std::uint64_t>(m);
    const std::uint64_t hierarchy_bytes = 16 * um + 8 * un + 32 * (4 * um + un) + 96 * un;
    const std::uint64_t targets_side =
        4 * un + static_cast<std::uint64_t>(gpu_closure) * (3 * 8 + 12) +
        2 * static_cast<std::uint64_t>(gpu_lanes) * static_cast<std::uint64_t>(cols) * 4;
    p.working_host_bytes = add_bytes(
        hierarchy_bytes, add_bytes(targets_side, un * 32 * static_cast<std::uint64_t>(threads)));
    count_block_memory(p, o, rows, cols, "the hierarchy, its targets' closure and the table",
                       true);
    return p;
  }
  char text[320];
  std::snprintf(text, sizeof text,
                "auto: a road-like graph with integer weights: the contraction hierarchy "
                "(~%.3g s to build) with %s ~%.3g s (with %s ~%.3g s) < %s ~%.3g s",
                build_seconds, sweeps ? "RPHAST" : "its buckets", table_seconds,
                sweeps ? "its buckets" : "RPHAST", sweeps ? buckets_seconds : sweeps_seconds,
                whole          ? "the whole matrix"
                : from_targets ? "Dijkstra from the targets"
                               : "Dijkstra from the sources",
                other_seconds);
  plan p;
  if (sweeps)
    p.run = drivers::rphast_table{threads, 0};
  else
    p.run = drivers::ch_table{threads};
  derive_driver_fields(p, backend_kind::cpu);
  p.algorithm = algorithm_kind::johnson; // potentials first where a weight is negative
  p.algorithm_reason = text;
  if (forced == "rphast" || forced == "buckets")
    p.algorithm_reason += " (APSP_TABLE_ENGINE=" + forced + ")";
  p.device = "cpu (" + std::to_string(threads) + " threads, contraction hierarchy table" +
             (sweeps ? ", RPHAST)" : ", buckets)");
  p.type = o.type;
  p.n = n;
  // The hierarchy while it is built (as PHAST's plan counts it), each thread's upward search,
  // and the targets' side: the buckets (about a thousand entries a target on road graphs), or
  // the closure (its arcs, about three a slot, and a slot per vertex of the graph) with each
  // thread's lanes over it.
  const auto un = static_cast<std::uint64_t>(n);
  const std::uint64_t value = size_of(o.type);
  const std::uint64_t hierarchy_bytes = 16 * static_cast<std::uint64_t>(m) + 8 * un +
                                        32 * (4 * static_cast<std::uint64_t>(m) + un) + 96 * un;
  const std::uint64_t entry = value == 4 ? 8 : 16;
  const auto closure = static_cast<std::uint64_t>(rphast_closure_size(n, cols));
  const std::uint64_t lanes = value == 4 ? 16 : 8;
  const std::uint64_t targets_side =
      sweeps ? 4 * un + closure * (3 * (4 + value) + 12) +
                   closure * lanes * value * static_cast<std::uint64_t>(threads)
             : static_cast<std::uint64_t>(cols) * 1024 * entry;
  p.working_host_bytes = add_bytes(
      hierarchy_bytes, add_bytes(targets_side, un * 32 * static_cast<std::uint64_t>(threads)));
  count_block_memory(p, o, rows, cols, "the hierarchy, its targets' side and the table", true);
  return p;
}

} // namespace

std::optional<row_engine> row_engine_of(const driver& d) noexcept {
  if (std::holds_alternative<drivers::johnson_rows>(d))
    return row_engine::dijkstra;
  if (std::holds_alternative<drivers::phast_rows>(d))
    return row_engine::phast;
  return std::nullopt;
}

bool reduced_where_solved(const plan& p) {
  if (std::holds_alternative<drivers::none>(p.run) || row_engine_of(p.run) ||
      std::holds_alternative<drivers::block_rows>(p.run) ||
      std::holds_alternative<drivers::ch_table>(p.run) ||
      std::holds_alternative<drivers::pair_search>(p.run) ||
      std::holds_alternative<drivers::rphast_table>(p.run) ||
      std::holds_alternative<drivers::cuda_table>(p.run))
    return false;
  return backend_for(p)->reduces_where_solved(p);
}

plan rows_plan_as_ran(const graph& edges, const solve_options& o, plan p, row_engine ran) {
  std::string reason = p.algorithm_reason + "; the contraction hierarchy outgrew its budget, so " +
                       std::string(row_engine_name(ran)) + " ran";
  return rows_plan(edges, o, std::move(p), std::move(reason), ran);
}

plan plan_metrics(const graph& edges, const solve_options& o) {
  const std::int64_t n = edges.num_vertices();
  // Rows when asked, when auto picks Johnson, or when the matrix of the plan auto would run
  // cannot be kept in RAM; else that plan. One plan each way: a matrix too large for RAM is
  // seen before planning (so auto analyses no graph it will not solve), and auto's own Johnson
  // plan becomes the rows' plan.
  const bool host_auto = o.backend == backend_kind::automatic || o.backend == backend_kind::cpu;
  const bool auto_rows = o.algorithm == algorithm_kind::automatic && host_auto;
  const std::string too_large = auto_rows ? matrix_cannot_fit(n, o.type) : std::string();
  // How the rows are made when they are: PHAST on large sparse integer graphs.
  const row_engine engine = choose_row_engine(edges, o.type, current_tuning());
  const std::string rows_by(row_engine_name(engine));
  // PHAST's sweeps on a GPU, when one is asked for or, under auto, sooner than the cpu's.
  if (std::optional<plan> on_gpu = gpu_sweeps_plan(edges, o, engine))
    return std::move(*on_gpu);
  if (o.algorithm == algorithm_kind::johnson)
    return rows_plan(edges, o, johnson_plan(n, o), "requested", engine);
  if (!too_large.empty()) {
    if (o.backend == backend_kind::automatic && engine != row_engine::phast) {
      if (auto on_gpus = gpus_reduce_in_place(edges, o, too_large))
        return std::move(*on_gpus);
    }
    return rows_plan(edges, o, johnson_plan(n, o),
                     "auto: " + too_large + "; " + rows_by + " keeps no matrix", engine);
  }
  if (auto_rows && engine == row_engine::phast) {
    // Before any matrix plan: on road-like graphs PHAST's rows beat the supernodal solve
    // (bench/results/metrics_phast_2026-11-28.csv), and the analysis would cost seconds.
    return rows_plan(
        edges, o, johnson_plan(n, o),
        "auto: a large sparse graph with integer weights; " + rows_by + " keeps no matrix", engine);
  }
  plan p = apsp::make_plan(edges, o);
  (void)count_as_reduced_where_solved(p);
  const std::string why = matrix_does_not_fit(p);
  if (auto_rows && p.algorithm == algorithm_kind::johnson) {
    std::string reason = p.algorithm_reason;
    return rows_plan(edges, o, std::move(p), std::move(reason), engine);
  }
  if (auto_rows && !why.empty()) {
    return rows_plan(edges, o, johnson_plan(n, o),
                     "auto: the " + std::to_string(n) + " x " + std::to_string(n) + " matrix of " +
                         to_string(p.run) + " would not fit in RAM (" + why + "); " + rows_by +
                         " keeps no matrix",
                     engine);
  }
  return p;
}

namespace {

/// Dijkstra's rows of a block: from the sources, or from the targets on the reversed graph.
plan rows_block(std::int64_t n, std::int64_t m, const solve_options& o, std::int64_t rows,
                std::int64_t cols, bool from_targets, bool tree_predecessors, std::string why) {
  const int threads = thread_count(o);
  plan p;
  p.run = drivers::block_rows{threads, from_targets};
  derive_driver_fields(p, backend_kind::cpu);
  p.algorithm = algorithm_kind::johnson;
  p.algorithm_reason = std::move(why);
  p.device = "cpu (" + std::to_string(threads) + " threads, Dijkstra from the " +
             (from_targets ? "targets" : "sources") + ")";
  p.type = o.type;
  p.n = n;
  p.paths = tree_predecessors;
  // The block itself, and the CSR copy with Dijkstra's scratch per thread (as Johnson's plan
  // counts it), with paths the predecessors' int32 block too; the rows of one batch at a time
  // are the caller's.
  const auto un = static_cast<std::uint64_t>(n);
  p.working_host_bytes = add_bytes(16 * static_cast<std::uint64_t>(m) + 8 * un,
                                   un * 28 * static_cast<std::uint64_t>(threads));
  if (tree_predecessors) {
    p.working_host_bytes = add_bytes(p.working_host_bytes, static_cast<std::uint64_t>(rows) *
                                                               static_cast<std::uint64_t>(cols) *
                                                               sizeof(std::int32_t));
  }
  count_block_memory(p, o, rows, cols, "the block and the searches", !tree_predecessors);
  if (p.tiled) {
    std::get<drivers::block_rows>(p.run).from_targets = false; // a tile is rows of sources
    p.device = "cpu (" + std::to_string(threads) + " threads, Dijkstra from the sources)";
  }
  return p;
}

/// The sides of a block: rows x cols searched from the targets or not, and whether the
/// predecessors make it Dijkstra's trees from the sources (plan_block says why).
struct block_sides {
  bool tree_predecessors;
  bool from_targets;
  std::int64_t rows;
  std::int64_t cols;
};

block_sides sides_of(std::int64_t n, const solve_options& o, std::int64_t sources,
                     std::int64_t targets) {
  const bool tree = o.paths && !whole_matrix_asked(o);
  const bool from_targets = !tree && (sources < 0 || (targets >= 0 && targets < sources));
  return {tree, from_targets, sources < 0 ? n : sources, targets < 0 ? n : targets};
}

/// Host memory bandwidth that bounds filling a matrix from below (bytes a second): no engine
/// that makes the whole n x n matrix on the cpu ends sooner than writing it at this rate.
constexpr double matrix_fill_bytes_per_second = 20e9;
/// The same for a GPU's memory (a started GPU's engines make the matrix on the device).
constexpr double device_fill_bytes_per_second = 4e12;

} // namespace

std::optional<plan> plan_block_by_counts(std::int64_t n, std::int64_t m, const solve_options& o,
                                         std::int64_t sources, std::int64_t targets) {
  const block_sides b = sides_of(n, o, sources, targets);
  if (b.tree_predecessors) {
    return rows_block(n, m, o, b.rows, b.cols, false, true,
                      "predecessors asked: Dijkstra's shortest-path trees from the sources");
  }
  if (o.algorithm == algorithm_kind::johnson)
    return rows_block(n, m, o, b.rows, b.cols, b.from_targets, false, "requested");
  if (o.algorithm != algorithm_kind::automatic || whole_matrix_asked(o))
    return std::nullopt;
  // The searches against what any engine reading the edges costs at least: the whole matrix
  // written (on the cpu, or on a GPU, which starts first unless it has), or a contraction
  // hierarchy built.
  solve_options dijkstra = o;
  dijkstra.algorithm = algorithm_kind::johnson;
  dijkstra.backend = backend_kind::cpu;
  const double searched = static_cast<double>(b.from_targets ? b.cols : b.rows);
  const double rows_seconds = estimated_solve_seconds(apsp::make_plan(n, dijkstra), dijkstra, m) *
                              searched / static_cast<double>(std::max<std::int64_t>(n, 1));
  const double cells = static_cast<double>(n) * static_cast<double>(n);
  const double bytes = cells * static_cast<double>(size_of(o.type));
  double least = bytes / matrix_fill_bytes_per_second;
  if (o.backend != backend_kind::cpu)
    least = std::min(least, bytes / device_fill_bytes_per_second +
                                (gpu_started() ? 0.0 : cuda_start_seconds()));
  problem_shape shape;
  shape.n = n;
  shape.m = m;
  shape.type = o.type;
  shape.threads = thread_count(o);
  least = std::min(least, ch_build_cpu_seconds(shape));
  if (!(rows_seconds < least))
    return std::nullopt;
  char why[200];
  std::snprintf(why, sizeof why,
                "auto: Dijkstra from %lld vertices ~%.3g s, before any engine that reads the "
                "edges could end (~%.3g s at least)",
                static_cast<long long>(searched), rows_seconds, least);
  return rows_block(n, m, o, b.rows, b.cols, b.from_targets, false, why);
}

plan plan_block(const graph& g, const solve_options& o, std::int64_t sources,
                std::int64_t targets) {
  const std::int64_t n = g.num_vertices();
  const std::int64_t m = g.num_edges();
  // With paths (predecessors), unless an all-pairs engine is asked for by name: Dijkstra from
  // the sources, whose shortest-path trees give the rows' predecessors by the tie rule of
  // docs/semantics.md whatever the block's size; the whole matrix's path matrix breaks ties by
  // pivot order, the hierarchy's table has no paths, and searches from the targets give
  // successors. Else the searches run from the smaller set: the targets alone, or fewer
  // targets than sources, on the reversed graph. Where the counts decide, they alone do.
  if (std::optional<plan> by_counts = plan_block_by_counts(n, m, o, sources, targets))
    return std::move(*by_counts);
  const block_sides b = sides_of(n, o, sources, targets);
  std::string why;
  // The GPU's table, when asked for, before the whole matrix's plan (which a graph too large
  // for the matrix would refuse).
  const bool gpu_first = gpu_table_asked(o);
  std::optional<plan> whole;
  if (!gpu_first)
    whole = whole_matrix_plan(g, o, b.from_targets ? b.cols : b.rows, why);
  if (std::optional<plan> table = hierarchy_table_plan(g, o, b.rows, b.cols, b.from_targets, whole))
    return std::move(*table);
  if (gpu_first)
    whole = whole_matrix_plan(g, o, b.from_targets ? b.cols : b.rows, why);
  if (whole) {
    whole->algorithm_reason = std::move(why);
    return std::move(*whole);
  }
  return rows_block(n, m, o, b.rows, b.cols, b.from_targets, false, std::move(why));
}

} // namespace apsp::detail

namespace apsp {

plan make_plan(const graph& g, const solve_options& options, const plan_request& asked) {
  switch (asked.what) {
  case plan_request::output::matrix:
    break;
  case plan_request::output::metrics: {
    detail::check_metrics_options(options, metrics_options{});
    // The edges compute_metrics keeps (those the type can hold).
    const auto usable = detail::usable_edges(g, options.type);
    return detail::plan_metrics(usable ? *usable : g, options);
  }
  case plan_request::output::block:
    APSP_EXPECTS(asked.sources >= -1 && asked.targets >= -1, invalid_argument_error,
                 "a block's sources and targets are counts (-1: every vertex)");
    return detail::plan_block(g, options, asked.sources, asked.targets);
  case plan_request::output::pair:
    return detail::plan_pair(g, options);
  }
  return make_plan(g, options);
}

std::optional<plan> make_plan_by_counts(std::int64_t n, std::int64_t m,
                                        const solve_options& options, const plan_request& asked) {
  if (asked.what != plan_request::output::block)
    return std::nullopt;
  APSP_EXPECTS(asked.sources >= -1 && asked.targets >= -1, invalid_argument_error,
               "a block's sources and targets are counts (-1: every vertex)");
  return detail::plan_block_by_counts(n, m, options, asked.sources, asked.targets);
}

} // namespace apsp
