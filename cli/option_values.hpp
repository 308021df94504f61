#pragma once
// Values of command-line options that the CLI parses itself (sizes, device lists). No CLI11 or
// library dependency, so fuzz/fuzz_cli_values.cpp can test them alone.

#include <cstdint>
#include <string>
#include <vector>

namespace apsp::cli {

/// Parses "2G", "512M", "1048576" (binary K/M/G/T, optional "iB"/"B"); throws
/// invalid_argument_error otherwise or when zero.
[[nodiscard]] std::uint64_t parse_byte_size(const std::string& s);
/// Parses "all" (-> {-1}, all devices) or "0,1"; throws invalid_argument_error otherwise, and
/// when a device is listed twice unless `may_repeat` (apsp::devices_may_repeat(), a test knob).
[[nodiscard]] std::vector<int> parse_device_list(const std::string& s, bool may_repeat = false);

} // namespace apsp::cli
