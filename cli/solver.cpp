#include "solver.hpp"

#include <unistd.h>

#include <cstdio>
#include <new>
#include <optional>
#include <string>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "checkpoint_checks.hpp"
#include "command_line.hpp"
#include "declared_plan.hpp"
#include "interrupt.hpp"

namespace apsp::cli {

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

std::string why_not_fitting(const plan& p) {
  if (!p.fits)
    return p.reason.empty() ? "the back end reports it does not fit" : p.reason;
  const std::uint64_t ram = host_memory_bytes();
  // Back ends may not check host memory themselves; a dense n x n matrix larger than RAM
  // would otherwise be attempted and end in swapping or the OOM killer.
  if (ram != 0 && p.host_bytes > ram) {
    return "needs " + format_bytes(p.host_bytes) +
           " of host memory for n = " + std::to_string(p.n) + " (" +
           std::string(to_string(p.type)) + "), but this machine has " + format_bytes(ram);
  }
  return {};
}

void rethrow_in_file_ids(const negative_cycle_error& e, const loaded_graph& in) {
  const auto& vertices = e.vertices();
  std::string list;
  for (std::size_t k = 0; k < vertices.size() && k < 10; ++k) {
    list += (k ? ", " : "") + in.file.labels.label(vertices[k]);
  }
  if (vertices.size() > 10)
    list += ", ...";
  std::string message = in.path + ": the graph has a negative cycle through vertices " + list +
                        " (ids as in the file)";
  // One cycle in order, as the library found it (first ten vertices, back to the first).
  const auto& cycle = e.cycle();
  if (!cycle.empty()) {
    message += "; a cycle: ";
    for (std::size_t k = 0; k < cycle.size() && k < 10; ++k)
      message += in.file.labels.label(cycle[k]) + " -> ";
    message += (cycle.size() > 10 ? "... -> " : "") + in.file.labels.label(cycle.front());
    char weight[32];
    std::snprintf(weight, sizeof weight, "%.9g", e.cycle_weight());
    message += std::string(", total weight ") + weight;
  }
  throw negative_cycle_error(message, vertices, cycle, e.cycle_weight());
}

namespace {

/// --gpu-memory and --devices mean nothing to a plan that runs on the host: one warning line
/// each, saying why no GPU is used (by the plan, so that no device is asked about before it).
void warn_about_gpu_options(const plan& p, const solve_options& o) {
  if (p.backend == backend_kind::cuda || (o.device_memory_limit == 0 && o.devices.empty()))
    return;
  std::string why = "the solve runs on the " + std::string(to_string(p.backend)) + " back end";
  if (o.backend == backend_kind::cpu || o.backend == backend_kind::reference) {
    why += " (--backend " + std::string(to_string(o.backend)) + ")";
  } else {
    bool gpu = true;
    for (const backend_status& b : list_backends()) {
      if (b.kind == backend_kind::cuda && !b.available) {
        why += ": no GPU can be used (" + b.detail + ")";
        gpu = false;
      }
    }
    if (gpu)
      why += " (" + p.algorithm_reason + ")";
  }
  if (o.device_memory_limit != 0)
    print_warning("--gpu-memory is ignored: " + why);
  if (!o.devices.empty())
    print_warning("--devices is ignored: " + why);
}

/// After a cancel: what the checkpoint in `dir` holds and the command that continues from it.
std::string checkpoint_note(const std::filesystem::path& dir) {
  if (dir.empty())
    return {};
  const std::optional<checkpoint_progress> saved = saved_checkpoint(dir);
  if (!saved)
    return "; no checkpoint was saved in " + dir.string() + " (no round was complete)";
  return "; the checkpoint in " + dir.string() + " holds " + std::to_string(saved->rounds_done) +
         " of " + std::to_string(saved->rounds_total) +
         " rounds; continue with: " + resume_command(dir.string());
}

} // namespace

plan plan_showing_stages(const graph& g, solve_options options, progress_style progress) {
  options.progress = make_progress(progress);
  return make_plan(g, options);
}

result solve_input(const loaded_graph& in, const solve_options& options,
                   progress_style progress) {
  return solve_input(in, plan_showing_stages(in.file.g, options, progress), options, progress);
}

result solve_input(const loaded_graph& in, const plan& p, solve_options options,
                   progress_style progress) {
  if (const std::string why = why_not_fitting(p); !why.empty()) {
    throw out_of_memory_error(in.path + ": cannot solve: " + why + without_the_matrix());
  }
  warn_about_gpu_options(p, options);
  announce_checkpoint_switch(p);
  check_checkpoint_space(p, options);
  throw_if_interrupted();
  options.progress = make_progress(progress);
  try {
    return solve(in.file.g, p, options); // the plan as it is, not a second one
  } catch (...) {
    rethrow_for_input(in, options, "solving");
  }
}

void rethrow_for_input(const loaded_graph& in, const solve_options& options,
                       const std::string& doing) {
  try {
    throw;
  } catch (const negative_cycle_error& e) {
    rethrow_in_file_ids(e, in);
  } catch (const overflow_risk_error& e) {
    throw overflow_risk_error(with_file(e.what(), in.path));
  } catch (const invalid_input_error& e) {
    throw invalid_input_error(with_file(e.what(), in.path));
  } catch (const backend_unavailable_error& e) {
    if (options.narrow != narrow_mode::required)
      throw;
    // With --backend auto the core fell back to a host back end; say why cuda was not used.
    std::string why = e.what();
    for (const backend_status& b : list_backends()) {
      if (b.kind == backend_kind::cuda && !b.available)
        why += " (--dtype int16), and the cuda back end is unavailable: " + b.detail;
    }
    throw backend_unavailable_error(why);
  } catch (const cancelled_error&) {
    throw cancelled_error(interrupted_text() + " while " + doing + " " + in.path +
                          "; no output was written" + checkpoint_note(options.checkpoint_dir));
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error(in.path + ": out of host memory while " + doing);
  }
}

} // namespace apsp::cli
