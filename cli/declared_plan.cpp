#include "declared_plan.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "apsp/plan.hpp"
#include "solver.hpp"

namespace apsp::cli {
namespace {

std::string declares(const input_options& in, std::int64_t n) {
  return in.path + " declares " + std::to_string(n) + " vertices: ";
}

} // namespace

std::optional<std::int64_t> declared_vertices(const input_options& in) {
  io::read_options peek;
  if (!in.format.empty())
    peek.fmt = io::parse_format(in.format);
  return io::peek_vertex_count(in.path, peek);
}

void refuse_declared_memory(const input_options& in, std::int64_t n, std::uint64_t bytes,
                            const std::string& command, const std::string& advice) {
  const std::uint64_t ram = host_memory_bytes();
  if (ram == 0 || bytes <= ram)
    return;
  throw out_of_memory_error(declares(in, n) + command + " needs at least " + format_bytes(bytes) +
                            " of host memory for them, but this machine has " + format_bytes(ram) +
                            " (planned from the header; no edge was read)" + advice);
}

void refuse_declared_matrix(const input_options& in, std::int64_t n, std::uint64_t bytes,
                            const std::string& out) {
  // read_graph's own limit for graphs that may be solved whole (io/limits.hpp): above it the
  // reader refuses the header at once, saying why.
  constexpr std::int64_t matrix_vertices = std::int64_t{1} << 19;
  const std::uint64_t ram = host_memory_bytes();
  if (n > matrix_vertices || ram == 0 || bytes <= ram)
    return;
  std::string where;
  if (!out.empty()) {
    std::error_code ec;
    const auto space = std::filesystem::space(std::filesystem::absolute(out).parent_path(), ec);
    if (ec || bytes <= space.available)
      return; // solved in place in OUT, paged by the OS
    where = " and than the " + format_bytes(space.available) + " free where " + out +
            " would hold them in place";
  }
  throw out_of_memory_error(declares(in, n) + "apsp solve's n x n matrices need " +
                            format_bytes(bytes) + ", more than this machine's host memory (" +
                            format_bytes(ram) + ")" + where +
                            " (planned from the header; no edge was read)" + without_the_matrix());
}

void warn_about_inflated_header(const loaded_graph& in) {
  const graph& g = in.file.g;
  const std::int64_t n = g.num_vertices();
  switch (in.file.source_format) {
  case io::format::dimacs:
  case io::format::mtx:
  case io::format::course_binary:
    break;
  default: // edge lists and CSV count the ids they name; .npy is a dense matrix
    return;
  }
  // The largest vertex an arc names, plus one; the scan ends at the first arc that rules the
  // warning out (on an honest header, one of the first), so a whole run pays for no pass.
  const auto enough = [n](std::int64_t used) { return n <= 10 * used || n - used <= 1000; };
  std::int64_t used = 0;
  for (const auto* ids : {&g.sources(), &g.targets()}) {
    for (const std::int32_t v : *ids) {
      used = std::max<std::int64_t>(used, v + 1);
      if (enough(used))
        return;
    }
  }
  if (enough(used))
    return;
  print_warning(in.path + " declares " + std::to_string(n) + " vertices, but " +
                (used == 0 ? std::string("it has no arc")
                           : "no arc names a vertex above " + in.file.labels.label(used - 1)) +
                ": the others are isolated, and every array of n entries pays for them");
}

std::string without_the_matrix() {
  return "; without the n x n matrix: apsp solve --sources/--targets (some rows or columns), "
         "apsp paths (chosen pairs; apsp path SRC DST for one), apsp metrics (centralities and "
         "summaries)";
}

} // namespace apsp::cli
