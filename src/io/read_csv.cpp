// CSV edge lists: a header row, the endpoints in the first two columns (any strings), the
// weight in the column named by read_options::weight_column when the header has it (else every
// weight is 1), and a second weight from read_options::second_column when asked. Ids are
// remapped to 0..n-1 in byte-string order, so a file's internal numbering does not depend on
// row order (and matches Python's sorted() on str).

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/csv_records.hpp"
#include "io/diagnostics.hpp"
#include "io/limits.hpp"
#include "io/readers.hpp"
#include "io/text_scan.hpp"

namespace apsp::io::detail {
namespace {

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos)
    return {};
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

} // namespace

graph_file read_csv(const std::filesystem::path& p, std::string_view text,
                    const std::string& weight_column, const std::string& second_column,
                    std::int64_t limit) {
  if (text.empty())
    fail_line(p, 1, "empty file (expected a CSV header row)");
  csv_records records(text, p);
  std::vector<std::string> fields;
  if (!records.next(fields))
    fail_line(p, 1, "missing header row");
  const std::int64_t header_line = records.line();
  if (fields.size() < 2) {
    fail_line(p, header_line,
              "header has " + std::to_string(fields.size()) +
                  " column(s); the first two must be the endpoints");
  }
  const std::size_t columns = fields.size();
  std::size_t weight_index = columns; // columns = absent
  std::size_t second_index = columns;
  for (std::size_t c = 2; c < columns; ++c) {
    if (trim(fields[c]) == weight_column)
      weight_index = c;
    if (!second_column.empty() && trim(fields[c]) == second_column)
      second_index = c;
  }
  if (!second_column.empty() && second_index == columns) {
    fail_line(p, header_line,
              "no column " + quote_token(second_column) +
                  " for the second weight among the columns after the endpoints");
  }
  if (trim(fields[0]) == weight_column || trim(fields[1]) == weight_column) {
    fail_line(p, header_line,
              "weight column " + quote_token(weight_column) +
                  " cannot be one of the endpoint columns");
  }

  // First-seen ids, renumbered to sorted order once all are known.
  std::unordered_map<std::string, std::int32_t> first_seen;
  std::vector<std::string> names;
  std::vector<std::int32_t> src;
  std::vector<std::int32_t> dst;
  std::vector<double> weight;
  std::vector<double> second;
  const auto intern = [&](std::string& id, std::int64_t at) {
    if (id.empty())
      fail_line(p, at, "empty vertex id");
    auto [it, inserted] = first_seen.try_emplace(id, static_cast<std::int32_t>(names.size()));
    if (inserted) {
      if (static_cast<std::int64_t>(names.size()) == limit) {
        fail_line(p, at, "more than " + std::to_string(limit) + " distinct vertex ids");
      }
      names.push_back(id);
    }
    return it->second;
  };
  while (records.next(fields)) {
    const std::int64_t at = records.line();
    if (fields.size() != columns) {
      fail_line(p, at,
                "row has " + std::to_string(fields.size()) + " field(s) but the header has " +
                    std::to_string(columns));
    }
    src.push_back(intern(fields[0], at));
    dst.push_back(intern(fields[1], at));
    if (weight_index == columns) {
      weight.push_back(1.0);
    } else {
      const std::string_view cell = trim(fields[weight_index]);
      if (cell.empty())
        fail_line(p, at, "empty " + quote_token(weight_column) + " cell");
      weight.push_back(parse_weight(cell, p, at));
    }
    if (second_index != columns) {
      const std::string_view cell = trim(fields[second_index]);
      if (cell.empty())
        fail_line(p, at, "empty " + quote_token(second_column) + " cell");
      second.push_back(parse_weight(cell, p, at));
    }
  }
  if (src.empty())
    fail_line(p, header_line, "no edges after the header row");

  std::vector<std::int32_t> order(names.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::int32_t a, std::int32_t b) { return names[a] < names[b]; });
  std::vector<std::int32_t> rank(names.size());
  for (std::size_t r = 0; r < order.size(); ++r)
    rank[order[r]] = static_cast<std::int32_t>(r);
  for (std::size_t e = 0; e < src.size(); ++e) {
    src[e] = rank[src[e]];
    dst[e] = rank[dst[e]];
  }
  std::vector<std::string> sorted_names(names.size());
  for (std::size_t r = 0; r < order.size(); ++r)
    sorted_names[r] = std::move(names[order[r]]);

  const auto n = static_cast<std::int64_t>(sorted_names.size());
  graph_file out{graph(n), vertex_labels::named(std::move(sorted_names)), format::csv, {}};
  out.g.assign(std::move(src), std::move(dst), std::move(weight));
  out.second = std::move(second);
  return out;
}

} // namespace apsp::io::detail
