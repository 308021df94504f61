#include "input.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>
#include <stdexcept>

#include <omp.h>

#include "apsp/error.hpp"
#include "apsp/solve.hpp"
#include "apsp/types.hpp"
#include "declared_plan.hpp"
#include "timer.hpp"

namespace apsp::cli {
namespace {

/// A validator whose check is "the library parser accepts it".
template <class Parse> CLI::Validator parsed_by(Parse parse, const std::string& description) {
  return CLI::Validator(
      [parse](std::string& value) -> std::string {
        try {
          (void)parse(value);
          return {};
        } catch (const apsp::error& e) {
          return e.what();
        }
      },
      description);
}

bool is_canonical_integer(const std::string& s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc{} && end == s.data() + s.size() && std::to_string(v) == s;
}

} // namespace

CLI::Validator non_negative(const std::string& zero_means, bool whole) {
  return CLI::Validator(
      [zero_means, whole](std::string& v) -> std::string {
        double x = -1;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        const bool number = ec == std::errc{} && end == v.data() + v.size() && std::isfinite(x);
        if (number && x >= 0 && (!whole || (x == std::floor(x) && x <= 2147483647.0)))
          return {};
        return "'" + v + "' is not a " + (whole ? "whole number" : "number") +
               " >= 0 (0: " + zero_means + ")";
      },
      whole ? "COUNT" : "NUMBER");
}

constexpr const char* dtype_auto = "auto";
constexpr const char* dtype_int16 = "int16";

CLI::Validator dtype_name() {
  return parsed_by(
      [](const std::string& s) {
        if (s == dtype_auto || s == dtype_int16)
          return dtype::int32;
        try {
          return parse_dtype(s);
        } catch (const invalid_argument_error&) {
          throw invalid_argument_error("unknown weight type '" + s +
                                       "' (expected int32, float32, int64, float64, auto or "
                                       "int16)");
        }
      },
      "DTYPE");
}
CLI::Validator backend_name() {
  return parsed_by([](const std::string& s) { return parse_backend(s); }, "BACKEND");
}
CLI::Validator algorithm_name() {
  return parsed_by([](const std::string& s) { return parse_algorithm(s); }, "ALGORITHM");
}
CLI::Validator format_name() {
  return parsed_by([](const std::string& s) { return io::parse_format(s); }, "FORMAT");
}

void add_input_options(CLI::App& cmd, input_options& in) {
  cmd.add_option(
         "INPUT", in.path,
         "graph file: .gr (DIMACS), .mtx, .txt/.el/.wel/.edges (edge list), .csv[.gz], "
         ".bin/.course (course binary), .npy (dense weights), .tntp (TransportationNetworks "
         "_net.tntp)")
      ->required();
  cmd.add_option("--format", in.format,
                 "input format, overriding the suffix: dimacs, mtx, edgelist, csv, "
                 "course-binary, npy, tntp")
      ->check(format_name());
  cmd.add_option("--weight-column", in.weight_column,
                 "CSV column holding the weights; for TNTP the link column (default: "
                 "free_flow_time; or capacity, length, b, power, speed, toll, link_type)")
      ->capture_default_str();
  cmd.add_option("--source-column", in.source_column,
                 "CSV column of each edge's tail (with --target-column); default: source/target "
                 "when the header has both, else u/v (OSMnx, pyrosm), else the first two columns");
  cmd.add_option("--target-column", in.target_column, "CSV column of each edge's head");
  cmd.add_option("--oneway-column", in.oneway_column,
                 "CSV column saying whether a row is one way: true/yes/1 (tail -> head only), "
                 "false/no/0/empty (both ways), -1/reverse (head -> tail only)");
  cmd.add_flag("--undirected", in.undirected,
               "read the graph as undirected: every edge u v also goes v -> u with the same "
               "weight (Python's directed=False); a negative edge is then a negative cycle");
}

std::string with_file(const std::string& message, const std::string& file) {
  if (message.find(file) != std::string::npos)
    return message;
  return file + ": " + message;
}

bool format_is_evident(const std::string& path) {
  std::string start(16, '\0');
  {
    // The io readers report missing files too; checking here gives one consistent message.
    std::ifstream probe(path, std::ios::binary);
    if (!probe) {
      throw invalid_input_error(path + ": cannot open for reading: " + std::strerror(errno));
    }
    probe.read(start.data(), static_cast<std::streamsize>(start.size()));
    start.resize(static_cast<std::size_t>(probe.gcount()));
  }
  // Without a telling suffix, the two unambiguous signatures the library knows still say it.
  return io::format_from_path(path).has_value() || io::format_from_signature(start).has_value();
}

loaded_graph read_input(const input_options& in) {
  loaded_graph out;
  out.path = in.path;
  const stopwatch clock;
  const bool evident = format_is_evident(in.path);
  io::read_options ro;
  if (!in.format.empty()) {
    ro.fmt = io::parse_format(in.format);
  } else if (!evident) {
    throw invalid_argument_error("cannot tell the format of '" + in.path +
                                 "' from its suffix; give --format");
  }
  ro.weight_column = in.weight_column;
  ro.undirected = in.undirected;
  ro.second_column = in.second_column;
  ro.source_column = in.source_column;
  ro.target_column = in.target_column;
  ro.oneway_column = in.oneway_column;
  if (in.no_matrix)
    ro.max_vertices = io::max_edge_format_vertices;
  try {
    out.file = io::read_graph(in.path, ro);
  } catch (const overflow_risk_error& e) {
    throw overflow_risk_error(with_file(e.what(), in.path));
  } catch (const invalid_input_error& e) {
    throw invalid_input_error(with_file(e.what(), in.path));
  } catch (const invalid_argument_error& e) {
    // A bad vertex or weight reaching apsp::graph is still a fault of the file.
    throw invalid_input_error(with_file(e.what(), in.path));
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error(in.path + ": out of memory while reading the graph");
  } catch (const std::length_error& e) {
    throw invalid_input_error(in.path + ": sizes in the file are too large (" + e.what() + ")");
  }
  out.read_seconds = clock.seconds();
  warn_about_inflated_header(out);
  return out;
}

void add_progress_flags(CLI::App& cmd, bool& quiet, bool& progress, const char* quiet_help) {
  cmd.add_flag("-q,--quiet", quiet, quiet_help);
  cmd.add_flag("--progress", progress,
               "show progress even when stderr is not a terminal (a line every 2 s, for logs)")
      ->excludes("--quiet");
}

void add_solver_options(CLI::App& cmd, solver_options& s) {
  cmd.add_option("--backend", s.backend, "auto, reference, cpu or cuda")
      ->check(backend_name())
      ->capture_default_str();
  cmd.add_option("--dtype", s.type,
                 "distance type: int32, float32, int64, float64; auto (int32, computed in packed "
                 "16-bit arithmetic on cuda when that is provably exact; float32 for fractional "
                 "weights) or int16 (int32 result computed in packed 16-bit arithmetic on cuda; "
                 "refused unless provably exact)")
      ->check(dtype_name())
      ->capture_default_str();
  cmd.add_option("--algorithm", s.algorithm,
                 "fw (Floyd-Warshall: dense graphs, every back end), johnson (Dijkstra from every "
                 "source after Bellman-Ford reweighting: sparse graphs, cpu back end), "
                 "supernodal (Floyd-Warshall in a METIS nested-dissection order, one block step "
                 "per supernode: graphs with small separators such as road networks, cpu and "
                 "cuda back ends) or auto (per graph, from n, m, the separators and the engines' "
                 "rates; see "
                 "docs/sparse.md)")
      ->check(algorithm_name())
      ->capture_default_str();
  cmd.add_option("--block", s.block,
                 "tile edge for fw, sources per progress step for johnson, unused by supernodal "
                 "(0: the back end chooses)")
      ->check(non_negative("the back end chooses", true));
  cmd.add_option("--threads", s.threads, "CPU threads (0: all)")
      ->check(non_negative("all cores", true));
  cmd.add_option("--gpu-memory", s.gpu_memory,
                 "cap on GPU memory used per device, e.g. 2G or 512M (cuda; a matrix above it is "
                 "solved out of core)")
      ->check(parsed_by([](const std::string& v) { return parse_byte_size(v); }, "BYTES"));
  cmd.add_option("--host-memory", s.host_memory,
                 "host memory the plan may use, e.g. 16G (default: this machine's RAM); a "
                 "--sources/--targets table larger than it is made and written to -o FILE.npy in "
                 "tiles of sources")
      ->check(parsed_by([](const std::string& v) { return parse_byte_size(v); }, "BYTES"));
  cmd.add_option("--devices", s.devices,
                 "CUDA devices: 'all' or a list such as 0,1 (default: device 0); 'all' keeps a "
                 "matrix below n = 30000 on one GPU when it fits there")
      ->check(
          parsed_by([](const std::string& v) { return parse_device_list(v, devices_may_repeat()); },
                    "LIST|all"));
  cmd.add_option("--grid", s.grid,
                 "under mpirun: the process grid ROWSxCOLS, rows x cols = ranks (default: "
                 "near-square, e.g. 2x2 for 4 ranks, 1x2 for 2)");
}

void print_warning(const std::string& line) {
  std::fprintf(stderr, "apsp: warning: %s\n", line.c_str());
}

void warn_about_threads(const solver_options& s) {
  const int cores = omp_get_num_procs();
  if (s.threads > cores) {
    print_warning("--threads " + std::to_string(s.threads) + " is more than the " +
                  std::to_string(cores) +
                  " cores this process may use: the threads take turns on them (--threads 0 "
                  "uses all)");
  }
}

void refuse_grid_outside_mpi(const solver_options& s) {
  if (!s.grid.empty() && s.grid != "1x1") // one process is the 1 x 1 grid
    throw invalid_argument_error("--grid applies under mpirun (several MPI ranks) only");
}

solve_options to_solve_options(const solver_options& s) {
  solve_options o;
  o.backend = parse_backend(s.backend);
  o.algorithm = parse_algorithm(s.algorithm);
  if (s.type == dtype_auto || s.type == dtype_int16) {
    o.type = dtype::int32;
    o.narrow = s.type == dtype_auto ? narrow_mode::when_safe : narrow_mode::required;
  } else {
    o.type = parse_dtype(s.type);
  }
  o.block = s.block;
  o.threads = s.threads;
  if (!s.gpu_memory.empty())
    o.device_memory_limit = parse_byte_size(s.gpu_memory);
  if (!s.host_memory.empty())
    o.host_memory_limit = parse_byte_size(s.host_memory);
  if (!s.devices.empty())
    o.devices = parse_device_list(s.devices, devices_may_repeat());
  return o;
}

void resolve_auto_dtype(solve_options& o, const solver_options& s, const graph& g) {
  if (s.type != dtype_auto || g.summarize_weights().all_integral)
    return;
  o.type = dtype::float32;
  o.narrow = narrow_mode::off;
}

void check_narrow_backend(const solve_options& o) {
  // With auto or cuda the core decides after reading: an unsafe graph is refused as such
  // (exit 3) before a missing device is (exit 6), on every machine alike.
  if (o.narrow == narrow_mode::required && o.backend != backend_kind::automatic &&
      o.backend != backend_kind::cuda) {
    throw backend_unavailable_error("--dtype int16 (packed 16-bit arithmetic) runs on the cuda "
                                    "back end only, not on --backend " +
                                    std::string(to_string(o.backend)));
  }
}

bool labels_are_integers(const io::vertex_labels& labels) {
  if (labels.is_numeric())
    return true;
  for (std::int64_t i = 0; i < labels.size(); ++i) {
    if (!is_canonical_integer(labels.label(i)))
      return false;
  }
  return true;
}

nlohmann::json label_json(const io::vertex_labels& labels, std::int64_t i, bool as_number) {
  if (labels.is_numeric())
    return i + labels.base();
  std::string id = labels.label(i);
  if (as_number)
    return std::stoll(id);
  return id;
}

bool ids_are_numbers(const loaded_graph& in) {
  return in.file.source_format != io::format::csv && labels_are_integers(in.file.labels);
}

std::int64_t find_vertex(const loaded_graph& in, const std::string& id) {
  const auto found = in.file.labels.find(id);
  if (!found) {
    const auto& labels = in.file.labels;
    std::string hint;
    if (labels.is_numeric() && labels.size() > 0) {
      hint = " (ids run from " + labels.label(0) + " to " + labels.label(labels.size() - 1) + ")";
    }
    throw invalid_argument_error("vertex '" + id + "' is not in " + in.path + hint);
  }
  return *found;
}

} // namespace apsp::cli
