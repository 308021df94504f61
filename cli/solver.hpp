#pragma once
// Running a solve for the CLI: plan and memory checks first, progress and Ctrl-C while it
// runs, and errors rewritten in the file's own vertex ids.

#include <cstdint>
#include <string>

#include "apsp/error.hpp"
#include "apsp/options.hpp"
#include "apsp/plan.hpp"
#include "apsp/result.hpp"
#include "input.hpp"
#include "interrupt.hpp"

namespace apsp::cli {

/// "1.5 GiB" style.
[[nodiscard]] std::string format_bytes(std::uint64_t bytes);

/// Whether the plan can run here: the back end's own verdict, and the host bytes against the
/// physical memory. Empty when it fits, else the reason.
[[nodiscard]] std::string why_not_fitting(const plan& p);

/// Runs `p`, the plan of `in` with `options` (failing fast with out_of_memory_error, before
/// anything large is allocated, when it does not fit); the options' progress callback is
/// replaced by the CLI's own.
[[nodiscard]] result solve_input(const loaded_graph& in, const plan& p, solve_options options,
                                 progress_style progress);

/// make_plan(g, options) with the CLI's progress as the options' callback, so that a stage the
/// planner runs (the supernodal solver's ordering) gets its line where progress is shown.
[[nodiscard]] plan plan_showing_stages(const graph& g, solve_options options,
                                       progress_style progress);

/// Plans (plan_showing_stages), then solves as above.
[[nodiscard]] result solve_input(const loaded_graph& in, const solve_options& options,
                                 progress_style progress);

/// In a catch block: rethrows the error being handled as the CLI reports it for `in` (its
/// vertices in the file's ids, its name in input errors, a cancel that says "interrupted
/// (SIGINT) while DOING INPUT; no output was written"); other errors go on unchanged.
[[noreturn]] void rethrow_for_input(const loaded_graph& in, const solve_options& options,
                                    const std::string& doing);

/// Rethrows a negative_cycle_error with the vertices in the file's own ids.
[[noreturn]] void rethrow_in_file_ids(const negative_cycle_error& e, const loaded_graph& in);

} // namespace apsp::cli
