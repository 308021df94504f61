#include <algorithm>
#include <charconv>
#include <limits>
#include <numeric>
#include <string>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "io/text_scan.hpp"

namespace apsp::io {

vertex_labels vertex_labels::numeric(std::int64_t n, std::int64_t base) {
  APSP_EXPECTS(n >= 0, invalid_argument_error, "negative vertex count " + std::to_string(n));
  // Every id base + i (i < n) must be an int64 (found by fuzz/fuzz_vertex_labels).
  APSP_EXPECTS(base <= std::numeric_limits<std::int64_t>::max() - n, invalid_argument_error,
               "vertex ids " + std::to_string(base) + " + 0.." + std::to_string(n) +
                   " overflow int64");
  vertex_labels l;
  l.n_ = n;
  l.base_ = base;
  return l;
}

vertex_labels vertex_labels::named(std::vector<std::string> names, bool integer_ids) {
  vertex_labels l;
  l.integer_ids_ = integer_ids;
  l.n_ = static_cast<std::int64_t>(names.size());
  APSP_EXPECTS(l.n_ <= std::numeric_limits<std::int32_t>::max(), invalid_argument_error,
               "too many vertex names");
  l.names_ = std::move(names);
  const auto& v = l.names_;
  const bool sorted = std::adjacent_find(v.begin(), v.end(), std::greater_equal<>()) == v.end();
  if (!sorted) {
    l.by_bytes_.resize(v.size());
    std::iota(l.by_bytes_.begin(), l.by_bytes_.end(), 0);
    std::sort(l.by_bytes_.begin(), l.by_bytes_.end(),
              [&](std::int32_t a, std::int32_t b) { return v[a] < v[b]; });
    const auto dup =
        std::adjacent_find(l.by_bytes_.begin(), l.by_bytes_.end(),
                           [&](std::int32_t a, std::int32_t b) { return v[a] == v[b]; });
    APSP_EXPECTS(dup == l.by_bytes_.end(), invalid_argument_error,
                 "duplicate vertex name '" + (dup == l.by_bytes_.end() ? "" : v[*dup]) + "'");
  }
  return l;
}

std::string vertex_labels::label(std::int64_t i) const {
  APSP_EXPECTS(i >= 0 && i < n_, invalid_argument_error,
               "vertex " + std::to_string(i) + " is outside 0.." + std::to_string(n_ - 1));
  if (names_.empty())
    return std::to_string(base_ + i);
  return names_[static_cast<std::size_t>(i)];
}

std::optional<std::int64_t> vertex_labels::find(std::string_view id) const {
  if (names_.empty()) {
    std::int64_t v = 0;
    if (!detail::parse_int(id, v))
      return std::nullopt;
    // v - base overflows int64 for a negative base and a large v: subtract as unsigned.
    if (v < base_)
      return std::nullopt;
    const std::uint64_t offset = static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(base_);
    if (offset >= static_cast<std::uint64_t>(n_))
      return std::nullopt;
    return static_cast<std::int64_t>(offset);
  }
  const auto lookup = [&](std::string_view key) -> std::optional<std::int64_t> {
    if (by_bytes_.empty()) {
      const auto it =
          std::lower_bound(names_.begin(), names_.end(), key,
                           [](const std::string& a, std::string_view b) { return a < b; });
      if (it != names_.end() && *it == key)
        return it - names_.begin();
      return std::nullopt;
    }
    const auto it = std::lower_bound(by_bytes_.begin(), by_bytes_.end(), key,
                                     [&](std::int32_t a, std::string_view b) {
                                       return names_[static_cast<std::size_t>(a)] < b;
                                     });
    if (it != by_bytes_.end() && names_[static_cast<std::size_t>(*it)] == key)
      return *it;
    return std::nullopt;
  };
  if (auto hit = lookup(id))
    return hit;
  // Numeric edge-list ids are stored canonically ("7"); accept "+7" or "007" for them too (not
  // for CSV names, where "007" and "7" are different strings).
  std::int64_t v = 0;
  if (integer_ids_ && detail::parse_int(id, v)) {
    const std::string canonical = std::to_string(v);
    if (canonical != id)
      return lookup(canonical);
  }
  return std::nullopt;
}

} // namespace apsp::io
