#include "option_values.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>

#include "apsp/error.hpp"

namespace apsp::cli {

std::uint64_t parse_byte_size(const std::string& s) {
  const std::string bad = "invalid byte size '" + s + "' (expected e.g. 2G, 512M or 1048576)";
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  APSP_EXPECTS(ec == std::errc{} && end != s.data(), invalid_argument_error, bad);
  std::string suffix(end, s.data() + s.size());
  int shift = 0;
  if (!suffix.empty()) {
    const char* units = "KMGT";
    const char* u = std::strchr(units, std::toupper(static_cast<unsigned char>(suffix[0])));
    if (u != nullptr && suffix[0] != '\0') {
      shift = 10 * static_cast<int>(u - units + 1);
      suffix.erase(0, 1);
    }
    APSP_EXPECTS(suffix.empty() || suffix == "B" || suffix == "iB" || (shift == 0 && suffix == "b"),
                 invalid_argument_error, bad);
  }
  APSP_EXPECTS(v > 0, invalid_argument_error, bad + ": must be positive");
  APSP_EXPECTS(shift == 0 || v <= (~std::uint64_t{0} >> shift), invalid_argument_error,
               bad + ": too large");
  return v << shift;
}

std::vector<int> parse_device_list(const std::string& s, bool may_repeat) {
  if (s == "all")
    return {-1};
  const std::string bad = "invalid device list '" + s + "' (expected 'all' or e.g. 0,1)";
  std::vector<int> out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = s.find(',', pos);
    const std::string item =
        s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    int d = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), d);
    APSP_EXPECTS(!item.empty() && ec == std::errc{} && end == item.data() + item.size() && d >= 0,
                 invalid_argument_error, bad);
    APSP_EXPECTS(may_repeat || std::find(out.begin(), out.end(), d) == out.end(),
                 invalid_argument_error, bad + ": device " + item + " is listed twice");
    out.push_back(d);
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  return out;
}

} // namespace apsp::cli
