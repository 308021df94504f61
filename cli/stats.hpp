#pragma once
// The solve summary's checksum (apsp/stats.hpp) as JSON and text. They match the conventions of
// ../shared/data/README.md (finite off-diagonal entries), so runs on the real graphs can be
// checked by eye.

#include <string>

#include <nlohmann/json.hpp>

#include "apsp/matrix.hpp"
#include "apsp/stats.hpp"

namespace apsp::cli {

using distance_stats = distance_summary;

[[nodiscard]] inline distance_stats compute_stats(const any_matrix& d) { return summarize(d); }

/// The sum as text: all digits for integer types, 17 significant digits otherwise.
[[nodiscard]] inline std::string sum_text(const distance_stats& s) { return s.sum_text(); }
/// The sum as a JSON number (a string when an exact integer sum exceeds 64 bits).
[[nodiscard]] nlohmann::json sum_json(const distance_stats& s);

} // namespace apsp::cli
