// TNTP networks (the TransportationNetworks collection's `_net.tntp`): metadata lines
// `<NUMBER OF NODES> 24` up to `<END OF METADATA>`, `~` comment lines, then one link a line:
// init_node term_node capacity length free_flow_time b power speed toll link_type, ended by
// `;`. Nodes are 1..<NUMBER OF NODES>; the weight is the column read_options::weight_column
// names (the default "weight": free_flow_time), a second one read_options::second_column.

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "io/diagnostics.hpp"
#include "io/readers.hpp"
#include "io/text_scan.hpp"

namespace apsp::io::detail {
namespace {

/// The link columns in file order; names compared without case, spaces or underscores.
constexpr std::array<std::string_view, 10> link_columns = {
    "init_node", "term_node", "capacity", "length", "free_flow_time",
    "b",         "power",     "speed",    "toll",   "link_type"};

std::string folded(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c != ' ' && c != '_' && c != '\t')
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

/// The index of the column `name` (free_flow_time for "weight"), or invalid_input_error.
std::size_t column_of(const std::filesystem::path& p, const std::string& name) {
  const std::string want = name == "weight" ? "freeflowtime" : folded(name);
  for (std::size_t c = 2; c < link_columns.size(); ++c) {
    if (folded(link_columns[c]) == want || (want == "speedlimit" && c == 7) ||
        (want == "type" && c == 9))
      return c;
  }
  fail_file(p, "no TNTP link column " + quote_token(name) +
                   " (capacity, length, free_flow_time, b, power, speed, toll, link_type)");
}

} // namespace

graph_file read_tntp(const std::filesystem::path& p, std::string_view text,
                     const std::string& weight_column, const std::string& second_column,
                     std::int64_t limit) {
  const std::size_t weight_index = column_of(p, weight_column);
  const std::size_t second_index =
      second_column.empty() ? link_columns.size() : column_of(p, second_column);
  line_reader lines(text);
  std::string_view line;
  std::int64_t n = -1;
  std::int64_t m = -1;
  bool metadata_ended = false;
  while (!metadata_ended && lines.next(line)) {
    const auto open = line.find('<');
    if (first_char(line) == '~' || open == std::string_view::npos)
      continue;
    const auto close = line.find('>', open);
    if (close == std::string_view::npos)
      fail_line(p, lines.line_number(), "metadata tag without '>'");
    const std::string key = folded(line.substr(open + 1, close - open - 1));
    token_scanner tokens(line.substr(close + 1));
    std::string_view value;
    if (key == "endofmetadata") {
      metadata_ended = true;
    } else if (key == "numberofnodes" && tokens.next(value)) {
      n = parse_count(value, "<NUMBER OF NODES>", p, lines.line_number());
    } else if (key == "numberoflinks" && tokens.next(value)) {
      m = parse_count(value, "<NUMBER OF LINKS>", p, lines.line_number());
    }
  }
  if (!metadata_ended)
    fail_file(p, "no <END OF METADATA> line (is this a TNTP _net.tntp file?)");
  if (n < 0 || m < 0)
    fail_file(p, "the metadata must give <NUMBER OF NODES> and <NUMBER OF LINKS>");
  if (n > limit)
    fail_file(p, "<NUMBER OF NODES> " + std::to_string(n) + " is above the limit of " +
                     std::to_string(limit));
  std::vector<std::int32_t> src;
  std::vector<std::int32_t> dst;
  std::vector<double> weight;
  std::vector<double> second;
  std::vector<std::string_view> fields;
  while (next_content_line(lines, "~", line)) {
    const std::int64_t at = lines.line_number();
    fields.clear();
    token_scanner tokens(line);
    std::string_view token;
    bool ended = false;
    while (tokens.next(token)) {
      if (token.back() == ';') { // ";" alone, or after the last value
        token.remove_suffix(1);
        ended = true;
      }
      if (!token.empty())
        fields.push_back(token);
    }
    if (!ended)
      fail_line(p, at, "a link line must end with ';'");
    const std::size_t needed =
        std::max({std::size_t{5}, weight_index + 1,
                  second_index < link_columns.size() ? second_index + 1 : 0});
    if (fields.size() < needed) {
      fail_line(p, at,
                "a link has " + std::to_string(fields.size()) + " value(s); at least " +
                    std::to_string(needed) + " are needed (init_node term_node capacity length " +
                    "free_flow_time ...)");
    }
    src.push_back(static_cast<std::int32_t>(parse_vertex(fields[0], n, 1, p, at)));
    dst.push_back(static_cast<std::int32_t>(parse_vertex(fields[1], n, 1, p, at)));
    weight.push_back(parse_weight(fields[weight_index], p, at));
    if (second_index < link_columns.size())
      second.push_back(parse_weight(fields[second_index], p, at));
  }
  if (static_cast<std::int64_t>(src.size()) != m) {
    fail_file(p, "<NUMBER OF LINKS> says " + std::to_string(m) + " but the file has " +
                     std::to_string(src.size()) + " link line(s)");
  }
  graph_file out{graph(n), vertex_labels::numeric(n, 1), format::tntp, {}};
  out.g.assign(std::move(src), std::move(dst), std::move(weight));
  out.second = std::move(second);
  return out;
}

} // namespace apsp::io::detail
