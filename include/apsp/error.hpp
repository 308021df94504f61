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
  negative_cycle_error(const std::string& what, std::vector<std::int64_t> vertices)
      : error(what), vertices_(std::move(vertices)) {}
  /// Vertices v with d[v][v] < 0 after solving (at most the first 64 found), 0-based.
  [[nodiscard]] const std::vector<std::int64_t>& vertices() const noexcept { return vertices_; }

private:
  std::vector<std::int64_t> vertices_;
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
