#pragma once
/// @file error.hpp
/// Typed exceptions thrown at apsp's host boundary. The CLI maps each type to an exit code.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace apsp {

/// Base of every exception apsp throws on purpose.
class error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A caller passed an argument that cannot be valid (bad option, index out of range...).
class invalid_argument_error : public error {
public:
  using error::error;
};

/// An input file or input matrix is malformed. The message names the file and the line or byte.
class invalid_input_error : public error {
public:
  using error::error;
};

/// The solve would overflow the chosen weight type; the message says which type to use instead.
class overflow_risk_error : public invalid_input_error {
public:
  using invalid_input_error::invalid_input_error;
};

/// The graph has a negative cycle; `vertices()` lists (internal, 0-based) vertices lying on one.
class negative_cycle_error : public error {
public:
  negative_cycle_error(const std::string& what, std::vector<std::int64_t> vertices,
                       std::vector<std::int64_t> cycle = {}, double cycle_weight = 0)
      : error(what), vertices_(std::move(vertices)), cycle_(std::move(cycle)),
        cycle_weight_(cycle_weight) {}
  /// 0-based: Floyd-Warshall's v with d[v][v] < 0 after solving, which lie on a negative cycle
  /// or on a closed walk through one (at most the first 64 found); Johnson's, the vertices of
  /// cycle().
  [[nodiscard]] const std::vector<std::int64_t>& vertices() const noexcept { return vertices_; }
  /// One negative cycle in order (an arc from each vertex to the next, and from the last to the
  /// first), starting at its smallest vertex, found by a Bellman-Ford search on the edges
  /// (Johnson's potentials; added to Floyd-Warshall's error by solve() on a graph). Empty where
  /// no edge list was at hand (solve_dense with Floyd-Warshall, the distributed solver).
  [[nodiscard]] const std::vector<std::int64_t>& cycle() const noexcept { return cycle_; }
  /// The total weight of cycle() (0 when it is empty).
  [[nodiscard]] double cycle_weight() const noexcept { return cycle_weight_; }

private:
  std::vector<std::int64_t> vertices_;
  std::vector<std::int64_t> cycle_;
  double cycle_weight_ = 0;
};

/// A saved contraction hierarchy (apsp/hierarchy.hpp) that does not belong to the graph it is
/// used with: built from another graph or from this file before it changed (the fingerprint
/// differs), or written in another version of the hierarchy format. Rebuild it (apsp prepare).
class hierarchy_mismatch_error : public invalid_input_error {
public:
  using invalid_input_error::invalid_input_error;
};

/// A file could not be written at the operating system's level (disk full, file too large,
/// quota, a failed close or rename). The message names the file and the system's reason.
class io_error : public error {
public:
  using error::error;
};

/// Not enough host or device memory for the planned solve.
class out_of_memory_error : public error {
public:
  using error::error;
};

/// The requested back end was not built, or has no device to run on.
class backend_unavailable_error : public error {
public:
  using error::error;
};

/// The progress callback asked to stop; nothing partial is returned.
class cancelled_error : public error {
public:
  using error::error;
};

/// A bug or an unexpected failure of a library or driver underneath apsp.
class internal_error : public error {
public:
  using error::error;
};

} // namespace apsp

/// Throws `ErrorType` with `message` (a std::string expression) unless `condition` holds.
#define APSP_EXPECTS(condition, ErrorType, message)                                                \
  do {                                                                                             \
    if (!(condition))                                                                              \
      throw ErrorType(message);                                                                    \
  } while (0)
