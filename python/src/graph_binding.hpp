#pragma once
// apsp._core.Graph: an edge list with the ids of the file it came from.

#include <memory>

#include "apsp/io.hpp"
#include "bindings.hpp"

namespace apsp_py {

struct py_graph {
  std::shared_ptr<const apsp::io::graph_file> file;
};

} // namespace apsp_py
