// Vertex id resolution (io::vertex_labels, what `apsp path G SRC DST` and every reader use).
// Input: a mode byte, then
//   mode even: int32 n and int64 base (little-endian), then '\n'-separated queries: numeric(n,
//              base); every query found maps back to an id base + i;
//   mode odd:  '\n'-separated names, the last one also a query: named(names); a duplicate must be
//              refused with invalid_argument_error, otherwise label(i) == names[i] and
//              find(names[i]) == i.

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "contract.hpp"

namespace {

using apsp::fuzz::expect;
using apsp::io::vertex_labels;

std::vector<std::string> split(std::string_view s) {
  std::vector<std::string> parts;
  for (;;) {
    const auto nl = s.find('\n');
    parts.emplace_back(s.substr(0, nl));
    if (nl == std::string_view::npos)
      return parts;
    s.remove_prefix(nl + 1);
  }
}

bool as_integer(std::string_view s, std::int64_t& v) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-')
    s.remove_prefix(1);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc{} && end == s.data() + s.size() && !s.empty();
}

void check_query(const vertex_labels& l, const std::string& q) {
  const auto found = l.find(q);
  if (!found)
    return;
  expect(*found >= 0 && *found < l.size(), "find returned an index out of range");
  const std::string label = l.label(*found);
  std::int64_t v = 0;
  expect(label == q || (as_integer(q, v) && std::to_string(v) == label),
         "find returned a vertex whose label is not the query");
}

void numeric_case(std::string_view in) {
  if (in.size() < 12)
    return;
  std::int32_t n = 0;
  std::int64_t base = 0;
  std::memcpy(&n, in.data(), sizeof n);
  std::memcpy(&base, in.data() + 4, sizeof base);
  vertex_labels l;
  try {
    l = vertex_labels::numeric(n, base);
  } catch (const apsp::invalid_argument_error&) {
    return; // a negative count, or ids that would overflow
  }
  expect(n >= 0 && l.size() == n && l.is_numeric() && l.base() == base, "numeric() state");
  for (std::int64_t i : {std::int64_t{0}, std::int64_t{n} / 2, std::int64_t{n} - 1}) {
    if (i < 0 || i >= n)
      continue;
    const auto back = l.find(l.label(i));
    expect(back && *back == i, "numeric find(label(i)) != i");
  }
  for (const std::string& q : split(in.substr(12)))
    check_query(l, q);
}

void named_case(std::string_view in) {
  std::vector<std::string> names = split(in);
  const std::set<std::string> distinct(names.begin(), names.end());
  const bool has_duplicate = distinct.size() != names.size();
  vertex_labels l;
  try {
    l = vertex_labels::named(names);
  } catch (const apsp::invalid_argument_error&) {
    expect(has_duplicate, "named() refused distinct names");
    return;
  }
  expect(!has_duplicate, "named() accepted a duplicate name");
  expect(l.size() == static_cast<std::int64_t>(names.size()) && !l.is_numeric(), "named() state");
  for (std::size_t i = 0; i < names.size(); ++i) {
    expect(l.label(static_cast<std::int64_t>(i)) == names[i], "label(i) != names[i]");
    const auto back = l.find(names[i]);
    expect(back && *back == static_cast<std::int64_t>(i), "named find(names[i]) != i");
  }
  check_query(l, names.back());
  check_query(l, names.back() + "0");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    numeric_case(in);
  } else {
    named_case(in);
  }
  return 0;
}
