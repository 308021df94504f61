#include "source_batches.hpp"

#include <algorithm>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "apsp/error.hpp"
#include "process_knobs.hpp"
#include "solver.hpp"
#include "timer.hpp"

namespace apsp::cli {
namespace {

constexpr std::int64_t default_batch_cells = std::int64_t{1} << 24;

} // namespace

batch_settings dijkstra_settings(const solver_options& options, const std::string& what,
                                 bool engine_options_apply) {
  const solve_options o = to_solve_options(options);
  if (o.narrow == narrow_mode::required) {
    throw invalid_argument_error("--dtype int16 computes on the cuda back end, but " + what +
                                 " solve by Dijkstra on the cpu; use int32");
  }
  warn_about_threads(options);
  batch_settings s;
  s.type = o.type;
  s.threads = o.threads;
  if (engine_options_apply)
    return s;
  const std::string ignored = " is ignored: " + what + " solve by Dijkstra on the cpu";
  if (options.backend != "auto" && options.backend != "cpu")
    print_warning("--backend " + options.backend + ignored);
  if (options.algorithm != "auto" && options.algorithm != "johnson")
    print_warning("--algorithm " + options.algorithm + ignored);
  if (options.block != 0)
    print_warning("--block" + ignored);
  if (!options.gpu_memory.empty())
    print_warning("--gpu-memory" + ignored);
  if (!options.devices.empty())
    print_warning("--devices" + ignored);
  return s;
}

std::int64_t sources_per_batch(std::int64_t n) noexcept {
  const std::int64_t cells =
      knobs().source_batch_cells > 0 ? knobs().source_batch_cells : default_batch_cells;
  return std::max<std::int64_t>(1, cells / std::max<std::int64_t>(n, 1));
}

void for_each_batch(const loaded_graph& in, const graph& g, std::span<const std::int64_t> sources,
                    const batch_settings& settings,
                    const std::function<void(std::size_t, const source_result&)>& consume) {
  const std::int64_t n = g.num_vertices();
  const auto total = static_cast<std::int64_t>(sources.size());
  const auto per_batch = static_cast<std::size_t>(sources_per_batch(n));
  // One progress line over every batch: "round" counts sources done, of all sources.
  const progress_callback shown = make_progress(settings.progress);
  const stopwatch clock;
  source_options o;
  o.type = settings.type;
  o.threads = settings.threads;
  o.predecessors = settings.predecessors;
  o.cycles = cycle_scope::whole_graph;
  const auto cancelled = [&] {
    return cancelled_error(interrupted_text() + " while solving " + in.path +
                           "; no output was written");
  };
  // Errors in the file's own ids and words, whether the checks, the potentials or a batch
  // raised them (a cancel as `cancelled` words it: no checkpoints here); memory with the
  // batch's size.
  const auto solve_mapped = [&](std::size_t batch_size, const auto& step) {
    try {
      return step();
    } catch (const std::bad_alloc&) {
      throw out_of_memory_error(in.path + ": out of host memory while solving from " +
                                std::to_string(batch_size) + " sources");
    } catch (...) {
      rethrow_for_input(in, solve_options{}, "solving");
    }
  };
  if (sources.empty())
    return;
  if (interrupted())
    throw cancelled();
  // The weight checks, the CSR copy and the potentials (negative weights) once for all batches.
  const source_solver solver = solve_mapped(sources.size(), [&] { return source_solver(g, o); });
  for (std::size_t first = 0; first < sources.size(); first += per_batch) {
    if (interrupted())
      throw cancelled();
    const auto batch = sources.subspan(first, std::min(per_batch, sources.size() - first));
    const progress_callback progress = [&, first, size = static_cast<std::int64_t>(batch.size())](
                                           const progress_info& p) {
      progress_info all;
      all.rounds_total = total;
      all.rounds_done = static_cast<std::int64_t>(first) +
                        (p.rounds_total > 0 ? p.rounds_done * size / p.rounds_total : size);
      all.elapsed_seconds = clock.seconds();
      // As Johnson's rate in `apsp solve`: n^2 Floyd-Warshall updates per source row.
      all.updates_per_second = all.elapsed_seconds > 0
                                   ? static_cast<double>(n) * static_cast<double>(n) *
                                         static_cast<double>(all.rounds_done) / all.elapsed_seconds
                                   : 0.0;
      return shown(all);
    };
    const source_result rows =
        solve_mapped(batch.size(), [&] { return solver.solve(batch, progress); });
    consume(first, rows);
  }
}

} // namespace apsp::cli
