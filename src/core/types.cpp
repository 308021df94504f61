#include "apsp/types.hpp"

#include <string>

#include "apsp/error.hpp"

namespace apsp {

std::string_view to_string(dtype t) noexcept {
  switch (t) {
  case dtype::int32:
    return "int32";
  case dtype::float32:
    return "float32";
  case dtype::int64:
    return "int64";
  case dtype::float64:
    return "float64";
  }
  return "?";
}

dtype parse_dtype(std::string_view name) {
  if (name == "int32" || name == "int")
    return dtype::int32;
  if (name == "float32" || name == "float")
    return dtype::float32;
  if (name == "int64")
    return dtype::int64;
  if (name == "float64" || name == "double")
    return dtype::float64;
  throw invalid_argument_error("unknown weight type '" + std::string(name) +
                               "' (expected int32, float32, int64 or float64)");
}

std::string_view to_string(backend_kind b) noexcept {
  switch (b) {
  case backend_kind::automatic:
    return "auto";
  case backend_kind::reference:
    return "reference";
  case backend_kind::cpu:
    return "cpu";
  case backend_kind::cuda:
    return "cuda";
  }
  return "?";
}

backend_kind parse_backend(std::string_view name) {
  if (name == "auto")
    return backend_kind::automatic;
  if (name == "reference")
    return backend_kind::reference;
  if (name == "cpu")
    return backend_kind::cpu;
  if (name == "cuda")
    return backend_kind::cuda;
  throw invalid_argument_error("unknown back end '" + std::string(name) +
                               "' (expected auto, reference, cpu or cuda)");
}

std::string_view to_string(algorithm_kind a) noexcept {
  switch (a) {
  case algorithm_kind::automatic:
    return "auto";
  case algorithm_kind::floyd_warshall:
    return "fw";
  case algorithm_kind::johnson:
    return "johnson";
  case algorithm_kind::supernodal:
    return "supernodal";
  }
  return "?";
}

algorithm_kind parse_algorithm(std::string_view name) {
  if (name == "auto")
    return algorithm_kind::automatic;
  if (name == "fw" || name == "floyd-warshall" || name == "floyd_warshall")
    return algorithm_kind::floyd_warshall;
  if (name == "johnson")
    return algorithm_kind::johnson;
  if (name == "supernodal")
    return algorithm_kind::supernodal;
  throw invalid_argument_error("unknown algorithm '" + std::string(name) +
                               "' (expected auto, fw, johnson or supernodal)");
}

} // namespace apsp
