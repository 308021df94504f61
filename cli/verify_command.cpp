// apsp verify: check sampled rows of a distance matrix against an independent single-source
// shortest-path computation.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "apsp/block_io.hpp"
#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "commands.hpp"
#include "distributed.hpp"
#include "exit_codes.hpp"
#include "input.hpp"
#include "solver.hpp"
#include "sssp.hpp"
#include "vertex_lists.hpp"

namespace apsp::cli {
namespace {

struct verify_args {
  input_options in;
  std::string dist;
  std::string matrix_format;
  std::int64_t sources = 16; ///< every row when `all_sources`
  bool all_sources = false;
  std::uint64_t seed = 1;
  double tolerance = -1; ///< unset: default_tolerance()
  /// A block's sources and targets (solve --sources/--targets' forms): DIST is that block.
  std::optional<std::string> block_sources;
  std::optional<std::string> block_targets;
};

/// splitmix64: a tiny generator whose sequence is the same on every platform (std::
/// distributions are not), so a seed names the same sample everywhere.
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Vertex 0, then k - 1 further distinct vertices drawn with `seed` (all of them if k >= n).
std::vector<std::int64_t> sample_sources(std::int64_t n, std::int64_t k, std::uint64_t seed) {
  std::vector<std::int64_t> all(static_cast<std::size_t>(n));
  for (std::int64_t v = 0; v < n; ++v)
    all[static_cast<std::size_t>(v)] = v;
  if (k >= n)
    return all;
  // Partial Fisher-Yates over 1..n-1 keeps the draw O(k) after the O(n) setup.
  for (std::int64_t i = 1; i < k; ++i) {
    const auto span = static_cast<std::uint64_t>(n - i);
    const auto j = i + static_cast<std::int64_t>(next_random(seed) % span);
    std::swap(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(j)]);
  }
  all.resize(static_cast<std::size_t>(k));
  return all;
}

/// Unset --tolerance: 1e-6, or for float32 values (`single`) of an n-vertex graph the rounding
/// of n - 1 float32 additions (each within 2^-24 of its exact sum), when that is larger: a path
/// of 1,000 hops in float32 carries about 1e-6 of relative error already.
double default_tolerance(bool single, std::int64_t n) {
  return single ? std::max(1e-6, static_cast<double>(std::max<std::int64_t>(n - 1, 0)) *
                                     std::ldexp(1.0, -24))
                : 1e-6;
}

struct mismatch {
  std::int64_t row = -1;
  std::int64_t col = -1;
  std::string found;
  std::string expected;
};

template <class T> std::string value_text(T v) {
  if constexpr (std::is_integral_v<T>) {
    return std::to_string(v);
  } else {
    if (std::isnan(v))
      return "nan";
    if (std::isinf(v))
      return v > 0 ? "inf" : "-inf";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(v));
    return buf;
  }
}

/// Compares d[s][j] = `v` with the oracle's distance to j (in R: int64 or double); on a
/// difference fills `bad` and returns false.
template <class T, class R>
bool entry_matches(T v, std::int64_t s, std::int64_t j, const std::vector<R>& ref,
                   const std::vector<char>& reached, double tolerance, double scale,
                   mismatch& bad) {
  // Unreachable is exactly the no-path value (int32 2^30-1, int64 2^62-1, float +inf);
  // anything above it, -inf or NaN is a wrong entry, not "no path".
  const bool unreachable = v == weight_traits<T>::infinity;
  const bool finite = std::is_integral_v<T> ? v < weight_traits<T>::infinity : std::isfinite(v);
  const auto jj = static_cast<std::size_t>(j);
  bool ok = false;
  if (!reached[jj] || !finite) {
    ok = !reached[jj] && unreachable;
  } else if constexpr (std::is_integral_v<T> && std::is_integral_v<R>) {
    ok = static_cast<std::int64_t>(v) == ref[jj];
  } else {
    const double a = static_cast<double>(v);
    const double b = static_cast<double>(ref[jj]);
    ok = std::fabs(a - b) <= tolerance * std::fmax(std::fmax(std::fabs(a), std::fabs(b)), scale);
  }
  if (!ok) {
    bad = {s, j, unreachable ? "unreachable" : value_text(v),
           reached[jj] ? value_text(ref[jj]) : "unreachable"};
  }
  return ok;
}

/// Compares row s of the matrix with the oracle's distances.
template <class T, class R>
bool row_matches(const dense_matrix<T>& m, std::int64_t s, const std::vector<R>& ref,
                 const std::vector<char>& reached, double tolerance, double scale, mismatch& bad) {
  const T* row = m.row(s);
  for (std::int64_t j = 0; j < m.n(); ++j) {
    if (!entry_matches(row[j], s, j, ref, reached, tolerance, scale, bad))
      return false;
  }
  return true;
}

/// Prints the first differing entry, in the file's ids; returns exit 7.
int report_mismatch(const verify_args& a, const loaded_graph& in, const mismatch& bad) {
  const auto& labels = in.file.labels;
  std::fprintf(stderr,
               "apsp: error: verification failed: %s gives d[%s][%s] = %s, but the shortest "
               "path in %s has length %s (ids as in the graph file)\n",
               a.dist.c_str(), labels.label(bad.row).c_str(), labels.label(bad.col).c_str(),
               bad.found.c_str(), in.path.c_str(), bad.expected.c_str());
  return exit_verification_failed;
}

template <class R>
int verify_rows(const verify_args& a, const loaded_graph& in, const any_matrix& dist,
                const std::vector<std::int64_t>& sources) {
  const adjacency adj(in.file.g);
  const auto summary = in.file.g.summarize_weights();
  const double tolerance =
      a.tolerance >= 0 ? a.tolerance
                       : default_tolerance(std::holds_alternative<dense_matrix<float>>(dist),
                                           in.file.g.num_vertices());
  // Float results are compared relative to the larger value, but never to less than the largest
  // weight: near-zero sums of mixed-sign weights carry that much rounding.
  const double scale = summary.max_abs;
  std::vector<R> ref;
  std::vector<char> reached;
  mismatch bad;
  for (const std::int64_t s : sources) {
    try {
      adj.shortest_paths(s, ref, reached);
    } catch (const negative_cycle_error& e) {
      rethrow_in_file_ids(e, in);
    }
    const bool ok = std::visit(
        [&](const auto& m) { return row_matches(m, s, ref, reached, tolerance, scale, bad); },
        dist);
    if (!ok)
      return report_mismatch(a, in, bad);
  }
  const bool exact = std::is_integral_v<R> && (dist.index() == 0 || dist.index() == 2);
  const auto n = static_cast<long long>(in.file.g.num_vertices());
  const auto checked = static_cast<long long>(sources.size());
  std::printf("OK: %lld of %lld rows of %s match %s (%s)", checked, n, a.dist.c_str(),
              adj.has_negative() ? "Bellman-Ford" : "Dijkstra",
              exact ? "exact" : ("relative tolerance " + value_text(tolerance)).c_str());
  // A sample that matches says nothing about the rows outside it.
  if (checked < n) {
    std::printf("; only these rows were checked (vertex %s and %lld drawn with seed %llu), the "
                "other %lld were not: --sources all checks every row",
                in.file.labels.label(0).c_str(), checked - 1,
                static_cast<unsigned long long>(a.seed), n - checked);
  }
  std::printf("\n");
  return 0;
}

/// Every entry of the block DIST, from the rows' sources to the columns' targets: one search
/// from each source.
template <class R> int verify_block(const verify_args& a, const loaded_graph& in) {
  const std::int64_t n = in.file.g.num_vertices();
  const std::vector<std::int64_t> rows =
      a.block_sources ? find_vertices(in, read_id_list(*a.block_sources, "--block-sources"))
                      : every_vertex(n);
  const std::vector<std::int64_t> cols =
      a.block_targets ? find_vertices(in, read_id_list(*a.block_targets, "--block-targets"))
                      : every_vertex(n);
  const std::optional<io::format> f = a.matrix_format.empty()
                                          ? io::format_from_path(a.dist)
                                          : std::optional(io::parse_format(a.matrix_format));
  if (!f || (*f != io::format::npy && *f != io::format::course_binary)) {
    throw invalid_argument_error("--block-sources/--block-targets: '" + a.dist +
                                 "' must be a block in .npy or course binary (give "
                                 "--matrix-format for another suffix)");
  }
  io::distance_block block;
  try {
    block = io::read_block(a.dist, *f, static_cast<std::int64_t>(rows.size()),
                           static_cast<std::int64_t>(cols.size()));
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error(a.dist + ": out of memory while reading the block");
  }
  const adjacency adj(in.file.g);
  const bool single = std::holds_alternative<std::vector<float>>(block.values);
  const double tolerance = a.tolerance >= 0 ? a.tolerance : default_tolerance(single, n);
  const double scale = in.file.g.summarize_weights().max_abs;
  std::vector<R> ref;
  std::vector<char> reached;
  mismatch bad;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    try {
      adj.shortest_paths(rows[k], ref, reached);
    } catch (const negative_cycle_error& e) {
      rethrow_in_file_ids(e, in);
    }
    const bool ok = std::visit(
        [&](const auto& values) {
          for (std::size_t c = 0; c < cols.size(); ++c) {
            if (!entry_matches(values[k * cols.size() + c], rows[k], cols[c], ref, reached,
                               tolerance, scale, bad))
              return false;
          }
          return true;
        },
        block.values);
    if (!ok)
      return report_mismatch(a, in, bad);
  }
  const bool exact = std::is_integral_v<R> && !single &&
                     !std::holds_alternative<std::vector<double>>(block.values);
  std::printf("OK: all %lld x %lld entries of %s (the block from --block-sources to "
              "--block-targets) match %s (%s)\n",
              static_cast<long long>(rows.size()), static_cast<long long>(cols.size()),
              a.dist.c_str(), adj.has_negative() ? "Bellman-Ford" : "Dijkstra",
              exact ? "exact" : ("relative tolerance " + value_text(tolerance)).c_str());
  return 0;
}

int run(const verify_args& a) {
  refuse_without_distributed_mode("verify");
  const loaded_graph in = read_input(a.in);
  if (a.block_sources || a.block_targets) {
    return in.file.g.summarize_weights().all_integral ? verify_block<std::int64_t>(a, in)
                                                        : verify_block<double>(a, in);
  }
  if (a.matrix_format.empty() && !format_is_evident(a.dist)) {
    throw invalid_argument_error("cannot tell the format of '" + a.dist +
                                 "' from its suffix; give --matrix-format (npy, course-binary or "
                                 "csv)");
  }
  any_matrix dist;
  try {
    dist = io::read_matrix(a.dist, a.matrix_format.empty()
                                       ? std::nullopt
                                       : std::optional(io::parse_format(a.matrix_format)));
  } catch (const invalid_input_error& e) {
    throw invalid_input_error(with_file(e.what(), a.dist));
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error(a.dist + ": out of memory while reading the matrix");
  }
  const std::int64_t n = in.file.g.num_vertices();
  const std::int64_t got = std::visit([](const auto& m) { return m.n(); }, dist);
  if (got != n) {
    std::fprintf(stderr,
                 "apsp: error: verification failed: %s is %lld x %lld but %s has %lld vertices\n",
                 a.dist.c_str(), static_cast<long long>(got), static_cast<long long>(got),
                 in.path.c_str(), static_cast<long long>(n));
    return exit_verification_failed;
  }
  if (n == 0) {
    std::printf("OK: the graph is empty\n");
    return 0;
  }
  const auto sources = sample_sources(n, a.all_sources ? n : a.sources, a.seed);
  if (in.file.g.summarize_weights().all_integral) {
    return verify_rows<std::int64_t>(a, in, dist, sources);
  }
  return verify_rows<double>(a, in, dist, sources);
}

} // namespace

void add_verify_command(CLI::App& app, command_action& action) {
  auto args = std::make_shared<verify_args>();
  CLI::App* cmd = app.add_subcommand(
      "verify", "check a distance matrix against independent single-source shortest paths");
  add_input_options(*cmd, args->in);
  cmd->add_option("DIST", args->dist, "distance matrix (.npy of any dtype, or course binary)")
      ->required();
  cmd->add_option("--matrix-format", args->matrix_format,
                  "format of DIST, overriding its suffix: npy or course-binary")
      ->check(format_name());
  cmd->add_option_function<std::string>(
         "--sources",
         [args](const std::string& v) {
           args->all_sources = v == "all";
           if (!args->all_sources)
             (void)std::from_chars(v.data(), v.data() + v.size(), args->sources);
         },
         "rows to check: a count (vertex 0 and a seeded sample; default 16) or 'all'")
      ->check(CLI::Validator(
          [](const std::string& v) {
            std::int64_t k = 0;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), k);
            return v == "all" || (ec == std::errc() && end == v.data() + v.size() && k >= 1)
                       ? std::string()
                       : "'" + v + "' is neither 'all' nor a whole number of at least 1";
          },
          "COUNT|all"));
  cmd->add_option("--seed", args->seed, "seed of the sample")->capture_default_str();
  // A block (either side, or both) is checked whole: no sample of rows beside it.
  struct block_side {
    const char* name;
    std::optional<std::string>* ids;
    const char* help;
  };
  for (const block_side& side :
       {block_side{"--block-sources", &args->block_sources,
                   "DIST is the block of `apsp solve --sources S`: its rows are these sources (a "
                   "list '1,5,9' or @FILE, as solve takes them); every entry is checked"},
        block_side{"--block-targets", &args->block_targets,
                   "DIST is the block of `apsp solve --targets T`: its columns are these "
                   "targets; with --block-sources, the |S| x |T| block"}})
    cmd->add_option(side.name, *side.ids, side.help)->excludes("--sources");
  cmd->add_option("--tolerance", args->tolerance,
                  "relative tolerance for float matrices (default 1e-6; for float32 matrices "
                  "(n-1) * 2^-24 when larger; integer matrices compare exactly)")
      ->check(CLI::Validator(
          [](const std::string& v) {
            double x = 0;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
            return ec == std::errc() && end == v.data() + v.size() && std::isfinite(x) && x >= 0
                       ? std::string()
                       : "'" + v + "' is not a finite number >= 0";
          },
          "R"));
  cmd->footer(
      "Each sampled row is recomputed by Dijkstra (binary heap) when all weights are >= 0, by\n"
      "Bellman-Ford otherwise, in int64 for integral weights. Prints OK and exits 0, or names\n"
      "the first differing entry and exits 7. A sample that matches says nothing about the\n"
      "other rows: --sources all checks every row (n single-source solves). A block of\n"
      "`apsp solve --sources S --targets T` (.npy or course binary) is checked whole with\n"
      "--block-sources S --block-targets T (either alone: every vertex on the other side).\n\n"
      "Examples:\n"
      "  apsp verify data/rome99.gr dist.npy\n"
      "  apsp verify graph.bin out.bin --sources 100 --seed 7\n"
      "  apsp verify data/rome99.gr dist.npy --sources all\n"
      "  apsp solve data/rome99.gr --sources 1,2 --targets 3353 -o b.npy &&\n"
      "    apsp verify data/rome99.gr b.npy --block-sources 1,2 --block-targets 3353");
  cmd->callback([args, &action] { action = [args] { return run(*args); }; });
}

} // namespace apsp::cli
