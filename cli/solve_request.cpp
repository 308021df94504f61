#include "solve_request.hpp"

#include "input.hpp"
#include "output.hpp"

namespace apsp::cli {
namespace {

/// --resume DIR keeps saving into DIR unless --checkpoint names another directory.
const std::string& checkpoint_dir_of(const distributed_solve_args& a) {
  return a.checkpoint_dir.empty() ? a.resume_dir : a.checkpoint_dir;
}

} // namespace

void check_paths_and_checkpoints(const distributed_solve_args& a) {
  if (!a.paths_out.empty()) {
    check_paths_output(a.paths_out);
    check_writable(a.paths_out);
    if (!a.out.empty())
      check_distinct_outputs(a.out, a.paths_out);
  }
  if (!checkpoint_dir_of(a).empty())
    check_checkpoint_dir(checkpoint_dir_of(a));
}

solve_options solve_options_of(const distributed_solve_args& a) {
  solve_options o = to_solve_options(a.solver);
  o.paths = !a.paths_out.empty();
  o.checkpoint_dir = checkpoint_dir_of(a);
  o.checkpoint_every_seconds = a.checkpoint_every;
  o.resume_dir = a.resume_dir;
  return o;
}

} // namespace apsp::cli
