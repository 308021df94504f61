// The command line's own value parsers: --gpu-memory sizes, --devices lists, --format and
// --output-format names (and formats told by suffix), --dtype and --backend names. Input: a
// selector byte, then the option's text. Each parser either returns a value that its own
// printed form parses back to, or throws invalid_argument_error (the CLI's usage error).

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "apsp/error.hpp"
#include "apsp/io.hpp"
#include "apsp/types.hpp"
#include "contract.hpp"
#include "option_values.hpp"

namespace {

using apsp::fuzz::expect;

void byte_size(const std::string& s) {
  std::uint64_t v = 0;
  try {
    v = apsp::cli::parse_byte_size(s);
  } catch (const apsp::invalid_argument_error&) {
    return;
  }
  expect(v > 0, "parse_byte_size returned 0");
  expect(apsp::cli::parse_byte_size(std::to_string(v)) == v, "a byte size does not parse back");
  std::uint64_t digits = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), digits);
  if (ec == std::errc{} && end == s.data() + s.size())
    expect(v == digits, "a plain number is not its own byte size");
  else
    expect(digits > 0 && v >= digits && v % digits == 0, "a suffix did not scale the number");
}

void device_list(const std::string& s) {
  std::vector<int> list;
  try {
    list = apsp::cli::parse_device_list(s);
  } catch (const apsp::invalid_argument_error&) {
    return;
  }
  if (s == "all") {
    expect(list == std::vector<int>{-1}, "'all' is not {-1}");
    return;
  }
  expect(!list.empty(), "an empty device list was accepted");
  expect(std::set<int>(list.begin(), list.end()).size() == list.size(), "a device is listed twice");
  std::string joined;
  for (const int d : list) {
    expect(d >= 0, "a negative device");
    if (!joined.empty())
      joined += ',';
    joined += std::to_string(d);
  }
  expect(apsp::cli::parse_device_list(joined) == list, "a device list does not parse back");
}

void format_name(const std::string& s) {
  if (const auto by_suffix = apsp::io::format_from_path(s)) {
    expect(apsp::io::parse_format(apsp::io::to_string(*by_suffix)) == *by_suffix,
           "a format's name does not parse back");
  }
  try {
    const apsp::io::format f = apsp::io::parse_format(s);
    expect(apsp::io::parse_format(apsp::io::to_string(f)) == f, "parse_format round trip");
  } catch (const apsp::invalid_argument_error&) {
  }
}

void type_and_backend_names(const std::string& s) {
  try {
    const apsp::dtype t = apsp::parse_dtype(s);
    expect(apsp::parse_dtype(apsp::to_string(t)) == t, "parse_dtype round trip");
  } catch (const apsp::invalid_argument_error&) {
  }
  try {
    const apsp::backend_kind b = apsp::parse_backend(s);
    expect(apsp::parse_backend(apsp::to_string(b)) == b, "parse_backend round trip");
  } catch (const apsp::invalid_argument_error&) {
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
  case 0:
    byte_size(text);
    break;
  case 1:
    device_list(text);
    break;
  case 2:
    format_name(text);
    break;
  default:
    type_and_backend_names(text);
    break;
  }
  return 0;
}
