#pragma once
// JSON output of the tool: file names and vertex ids come from the user's files and need not be
// UTF-8, which nlohmann's dump() refuses by throwing; here such bytes print as U+FFFD instead.

#include <string>

#include <nlohmann/json.hpp>

namespace apsp::cli {

/// j as text (indent -1: one line), invalid UTF-8 replaced.
template <class Json> [[nodiscard]] std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace apsp::cli
