#pragma once
// What an apsp::hierarchy holds (apsp/hierarchy.hpp): the prepared hierarchy of its weight type
// and the fingerprint of its graph. Built in cpu/hierarchy.cpp, saved and loaded in
// cpu/hierarchy_file.cpp, asked for tables in cpu/table.cpp.

#include <cstdint>
#include <variant>

#include "apsp/hierarchy.hpp"
#include "cpu/prepared_hierarchy.hpp"

namespace apsp {

struct hierarchy::state {
  graph_fingerprint fingerprint;
  std::variant<cpu::prepared_hierarchy<std::int32_t>, cpu::prepared_hierarchy<std::int64_t>>
      prepared;
};

} // namespace apsp
